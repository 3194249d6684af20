import type { Business } from '../../domain/business.js';
import type { ServiceUrls } from '../../catalogue.js';
import { PAGE_PATHS } from '../paths.js';
import { EMBED_READY_SCRIPT } from './embed-signal.js';
import { html, raw, scriptJson, type Html } from './html.js';

/** What every page needs besides its data: the service's URLs and the asset paths. */
export interface Site {
  readonly urls: ServiceUrls;
  /** Paths of the hashed static files. */
  readonly assets: { readonly css: string; readonly icon: string };
}

export interface Head {
  title: string;
  description: string;
  /** The page's own path (canonical URL and `og:url`), `null` for error pages. */
  path: string | null;
  /** Filtered views and error pages are not for search engines' indexes. */
  noindex?: boolean;
  jsonLd?: unknown;
  /** The main navigation entry to mark as current. */
  nav?: 'reviews' | 'insights';
}

/** The name the pages call the business (a store without a profile still gets pages). */
export function businessName(business: Business | null): string {
  return business?.name ?? 'Customer reviews';
}

function headTags(site: Site, business: Business | null, head: Head): Html {
  const { urls } = site;
  const name = businessName(business);
  const canonical = head.path === null ? null : `${urls.base}${head.path}`;
  return html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${head.title}</title>
<meta name="description" content="${head.description}">
${head.noindex ? html`<meta name="robots" content="noindex, follow">\n` : ''}${canonical ? html`<link rel="canonical" href="${canonical}">\n` : ''}<meta property="og:type" content="website">
<meta property="og:site_name" content="${name}">
<meta property="og:title" content="${head.title}">
<meta property="og:description" content="${head.description}">
${canonical ? html`<meta property="og:url" content="${canonical}">\n` : ''}<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="${head.title}">
<meta name="twitter:description" content="${head.description}">
<meta name="theme-color" content="#1d4ed8">
<link rel="stylesheet" href="${site.assets.css}">
<link rel="icon" href="${site.assets.icon}" type="image/svg+xml">
<link rel="alternate" type="application/atom+xml" title="${name}: newest reviews (Atom)" href="${urls.atomFeed}">
<link rel="alternate" type="application/feed+json" title="${name}: newest reviews (JSON Feed)" href="${urls.jsonFeed}">
<link rel="alternate" type="application/json" title="${name}: all reviews (JSON)" href="${urls.reviews}">
<link rel="hub" href="${urls.hub}">
${head.jsonLd === undefined ? '' : html`<script type="application/ld+json">${scriptJson(head.jsonLd)}</script>`}`;
}

function navLink(path: string, label: string, current: boolean): Html {
  return html`<li><a href="${path}"${current ? html` aria-current="page"` : ''}>${label}</a></li>`;
}

/** A whole page of the site: head, header with the navigation, `main`, footer. */
export function sitePage(site: Site, business: Business | null, head: Head, main: Html): string {
  const { urls } = site;
  return html`<!doctype html>
<html lang="en">
<head>
${headTags(site, business, head)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="wrap"><a class="brand" href="${PAGE_PATHS.home}">${businessName(business)}</a>
<nav class="main" aria-label="Main"><ul>${navLink(PAGE_PATHS.home, 'Reviews', head.nav === 'reviews')}${navLink(PAGE_PATHS.insights, 'Insights', head.nav === 'insights')}</ul></nav></div></header>
<main id="main" class="wrap">
${main}
</main>
<footer class="site"><div class="wrap"><p>Reviews are published as they come in, each with the site it was posted on. <strong>Verified customer</strong> marks a review matched to a service visit or purchase at the dealership.</p>
<p>For programs and agents:</p>
<ul><li><a href="${urls.atomFeed}">Atom feed</a></li><li><a href="${urls.jsonFeed}">JSON Feed</a></li><li><a href="${urls.reviews}">All reviews (JSON)</a></li><li><a href="${urls.insights}">Insights (JSON)</a></li><li><a href="${urls.openapi}">API description</a></li></ul></div></footer>
</body>
</html>
`.value;
}

/** A page meant for an iframe (`/embed`): no header or footer; `main` is the page's `main` element. */
export function embedPage(site: Site, business: Business | null, head: Head, main: Html): string {
  return html`<!doctype html>
<html lang="en" class="embed">
<head>
${headTags(site, business, head)}
<meta name="robots" content="noindex">
</head>
<body class="embed">
${main}
<script>${raw(EMBED_READY_SCRIPT)}</script>
</body>
</html>
`.value;
}
