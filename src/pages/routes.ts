import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceUrls } from '../catalogue.js';
import { sendRepresentation } from '../http/respond.js';
import type { Handler, Route } from '../http/router.js';
import { isServiceError } from '../platform/errors.js';
import { precompressRepresentation } from '../representation/index.js';
import type { Published } from '../snapshot/types.js';
import { prepareAssets } from './internal/assets.js';
import { asset, home, insights, review, sitemap, type PageContext } from './internal/handlers.js';
import { pageHeaders } from './internal/headers.js';
import type { Site } from './internal/layout.js';
import { createErrorRenderer, pageNotFound, type ErrorRenderer } from './internal/page-errors.js';
import { sendRendered } from './internal/render-cache.js';
import { renderRobots } from './internal/sitemap.js';
import { versionPages, warmPages } from './internal/version-pages.js';
import { PAGE_PATHS } from './paths.js';

export interface PagesOptions {
  published: Published;
  urls: ServiceUrls;
  /** Origins that may frame `/embed` (`['*']`: any). */
  embedAllowedOrigins: readonly string[];
}

/**
 * The HTML pages, the widget, the sitemap and robots.txt, rendered from the snapshot of the
 * moment. The pages of every visit (`/` unfiltered, `/insights`, `/embed`, the sitemap index) are
 * rendered once per snapshot (when it goes live) and compressed in the thread pool; filtered
 * views and review pages go to the snapshot's bounded response cache, like search results.
 */
export interface Pages {
  routes: Route[];
  /**
   * Answers a GET or HEAD of a path no route knows with the friendly HTML 404 page when the
   * client asks for HTML (a browser: `Accept` names `text/html`) and returns true; otherwise
   * returns false, and the caller answers its JSON 404.
   */
  notFound(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * A handler of the pages' surface: a `ServiceError` it throws (before it answers, or as its
 * promise's rejection) is rendered by `fail`, as HTML or JSON; anything else goes on to the
 * app's error boundary.
 */
function pageHandler(handler: Handler, fail: ErrorRenderer): Handler {
  const rescue = (req: IncomingMessage, res: ServerResponse, err: unknown): void => {
    if (!isServiceError(err)) throw err;
    fail(req, res, err);
  };
  return (req, res, ctx) => {
    let pending: void | Promise<void>;
    try {
      pending = handler(req, res, ctx);
    } catch (err) {
      return rescue(req, res, err);
    }
    return pending?.catch((err: unknown) => rescue(req, res, err));
  };
}

/** The route table of the pages: each path of `PAGE_PATHS` with its handler. */
function pageRoutes(p: PageContext, fail: ErrorRenderer): Route[] {
  const get = (handler: Handler): Route['methods'] => ({ GET: pageHandler(handler, fail) });
  const robots = precompressRepresentation(renderRobots(p.site), {
    contentType: 'text/plain; charset=utf-8',
    lastModifiedMs: Date.now(),
  });
  const now = () => p.published.current();
  return [
    { path: PAGE_PATHS.home, methods: get((req, res, c) => home(p, req, res, c.query)) },
    {
      path: PAGE_PATHS.review,
      param: 'id',
      methods: get((req, res, c) => review(p, req, res, c.params.id ?? '')),
    },
    { path: PAGE_PATHS.insights, methods: get((req, res) => insights(p, req, res)) },
    {
      path: PAGE_PATHS.embed,
      methods: get((req, res) => sendRendered(req, res, p.pages.embed(now()))),
    },
    {
      path: PAGE_PATHS.sitemap,
      methods: get((req, res) => sendRendered(req, res, p.pages.sitemapIndex(now()))),
    },
    {
      path: PAGE_PATHS.sitemaps,
      param: 'file',
      methods: get((req, res, c) => sitemap(p, req, res, c.params.file ?? '')),
    },
    {
      path: PAGE_PATHS.robots,
      methods: get((req, res) => robots.then((rep) => sendRepresentation(req, res, rep))),
    },
    {
      path: PAGE_PATHS.assets,
      param: 'file',
      methods: get((req, res, c) => asset(p, req, res, c.params.file ?? '')),
    },
    {
      path: PAGE_PATHS.favicon,
      methods: get((req, res) => sendRepresentation(req, res, p.assets.iconRep)),
    },
  ];
}

/**
 * Creates the pages over the published versions: their context (the site, the header sets, the
 * static files, the pages rendered once per version, warmed as each goes live), the renderer of
 * their errors, and their routes.
 */
export function createPages(options: PagesOptions): Pages {
  const { published, urls } = options;
  const assets = prepareAssets(Date.now());
  const site: Site = { urls, assets };
  const headers = pageHeaders(options.embedAllowedOrigins, urls.base.startsWith('https:'));
  const pages = versionPages(site, headers);
  const context: PageContext = { published, site, headers, assets, pages };
  const fail = createErrorRenderer(site, headers.page, () => published.current().business);
  warmPages(published, pages);

  const notFound = (req: IncomingMessage, res: ServerResponse): boolean => {
    const method = req.method ?? 'GET';
    if (
      (method !== 'GET' && method !== 'HEAD') ||
      !/\btext\/html\b/i.test(req.headers.accept ?? '')
    )
      return false;
    fail(req, res, pageNotFound('page'));
    return true;
  };
  return { routes: pageRoutes(context, fail), notFound };
}
