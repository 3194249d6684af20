import type { Snapshot } from '../../snapshot/types.js';
import { escapeHtml } from './html.js';
import type { Site } from './layout.js';
import { PAGE_PATHS, reviewPath, sitemapPath } from '../paths.js';

/** Review URLs per sitemap file (the protocol allows 50,000; a small file renders in a few ms). */
export const SITEMAP_CHUNK = 5_000;

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** How many sitemap files the reviews need (at least one: it also lists `/` and `/insights`). */
export function sitemapCount(snapshot: Snapshot): number {
  return Math.max(1, Math.ceil(snapshot.index.size / SITEMAP_CHUNK));
}

/** `/sitemap.xml`: the index of the sitemap files `/sitemaps/{n}.xml`. */
export function renderSitemapIndex(site: Site, snapshot: Snapshot): string {
  const lastmod = snapshot.aggregate.asOf ?? snapshot.state.changedAt;
  let out = `${XML}<sitemapindex xmlns="${NS}">\n`;
  for (let n = 1; n <= sitemapCount(snapshot); n++) {
    out += `<sitemap><loc>${escapeHtml(`${site.urls.base}${sitemapPath(n)}`)}</loc><lastmod>${lastmod}</lastmod></sitemap>\n`;
  }
  return `${out}</sitemapindex>\n`;
}

/**
 * `/sitemaps/{n}.xml` (n from 1): the review pages of positions `(n-1)*SITEMAP_CHUNK` on, newest
 * first, with their `dateModified`; the first file also lists `/` and `/insights`. `null` past
 * the last file.
 */
export function renderSitemap(site: Site, snapshot: Snapshot, n: number): string | null {
  if (!Number.isInteger(n) || n < 1 || n > sitemapCount(snapshot)) return null;
  const { index } = snapshot;
  const base = escapeHtml(site.urls.base);
  const parts: string[] = [`${XML}<urlset xmlns="${NS}">\n`];
  if (n === 1) {
    const lastmod = snapshot.aggregate.asOf ?? snapshot.state.changedAt;
    parts.push(`<url><loc>${base}${PAGE_PATHS.home}</loc><lastmod>${lastmod}</lastmod></url>\n`);
    parts.push(
      `<url><loc>${base}${PAGE_PATHS.insights}</loc><lastmod>${lastmod}</lastmod></url>\n`,
    );
  }
  const end = Math.min(index.size, n * SITEMAP_CHUNK);
  for (let pos = (n - 1) * SITEMAP_CHUNK; pos < end; pos++) {
    parts.push(
      `<url><loc>${base}${reviewPath(index.id(pos))}</loc><lastmod>${index.dateModified(pos)}</lastmod></url>\n`,
    );
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

/** `/robots.txt`: everything may be crawled but the widget; the sitemap's address. */
export function renderRobots(site: Site): string {
  // `Allow: /` is robots.txt's prefix of every path, not the home page.
  return `User-agent: *\nDisallow: ${PAGE_PATHS.embed}\nAllow: /\n\nSitemap: ${site.urls.base}${PAGE_PATHS.sitemap}\n`;
}
