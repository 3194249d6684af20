/** The pages for people (HTML), the embeddable widget, the sitemap: the public surface of `src/pages`. */
export { createPages } from './routes.js';
export { ReviewIdParam } from './internal/handlers.js';
export type { Pages, PagesOptions } from './routes.js';
export { assetPath, PAGE_PATHS, reviewPath, sitemapPath } from './paths.js';
export { PAGE_MAX, PAGE_SIZE, PageQuery, parsePageQuery } from './query.js';
