/**
 * The paths of the pages, written once: the routes mount them, the pages link to them, the
 * sitemap and robots.txt list them. A path of the pages anywhere else in `src` comes from here.
 *
 * `review`, `sitemaps` and `assets` are prefixes followed by one path parameter; the functions
 * below write the whole path.
 */
export const PAGE_PATHS = {
  /** The reviews, with the filter form; `/?query=…` is a filtered view. */
  home: '/',
  insights: '/insights',
  /** The widget for an iframe (never indexed: robots.txt disallows it). */
  embed: '/embed',
  /** `/reviews/{id}`: a review's own page. */
  review: '/reviews/',
  /** The sitemap index, and its files `/sitemaps/{n}.xml`. */
  sitemap: '/sitemap.xml',
  sitemaps: '/sitemaps/',
  robots: '/robots.txt',
  /** The stylesheet and images, under names that carry a hash of their content. */
  assets: '/assets/',
  favicon: '/favicon.ico',
} as const;

/** The path of a review's page (the `link` of the MCP tools' reviews: `${BASE_URL}/reviews/{id}`). */
export function reviewPath(id: string): string {
  return `${PAGE_PATHS.review}${encodeURIComponent(id)}`;
}

/** The path of sitemap file `n` (from 1). */
export function sitemapPath(n: number): string {
  return `${PAGE_PATHS.sitemaps}${n}.xml`;
}

/** The path of a static file by its (hashed) name. */
export function assetPath(name: string): string {
  return `${PAGE_PATHS.assets}${name}`;
}
