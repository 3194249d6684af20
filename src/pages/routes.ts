import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { DOCUMENTS, type ServiceUrls } from '../catalogue.js';
import { stableJson } from '../domain/stable-json.js';
import { COMMON_HEADERS, sendJson, sendRepresentation } from '../http/respond.js';
import type { Route } from '../http/router.js';
import type { Insights } from '../insights/index.js';
import {
  precompressRepresentation,
  prepareRepresentation,
  type Representation,
} from '../representation/index.js';
import type { Published, Snapshot } from '../snapshot/types.js';
import { prepareAssets } from './internal/assets.js';
import { renderEmbed } from './internal/embed.js';
import { renderErrorPage, type ErrorDetail } from './internal/error-page.js';
import { pageHeaders } from './internal/headers.js';
import { renderHome } from './internal/home.js';
import { renderInsightsPage } from './internal/insights-page.js';
import type { Site } from './internal/layout.js';
import { renderReviewPage } from './internal/review-page.js';
import {
  renderRobots,
  renderSitemap,
  renderSitemapIndex,
  sitemapCount,
} from './internal/sitemap.js';
import { PAGE_PATHS } from './paths.js';
import { hasFilters, parsePageQuery, type PageQuery } from './query.js';

/** The JSON errors of the pages, for a client that asks for JSON. */
const PROGRAM_ERRORS = {
  400: ['invalid_request', 'The request has invalid parameters.'],
  404: ['not_found', 'No such page. The API is described at /openapi.json.'],
  503: ['unavailable', 'Not ready yet; try again in a moment.'],
} as const;

const HTML = 'text/html; charset=utf-8';

/** Pages rendered once per snapshot above this size get fast codings on demand, not the best. */
const LAZY_CODINGS_BYTES = 256 * 1024;

/** The id of `/reviews/{id}`: a review id (anything else is a page that does not exist). */
export const ReviewIdParam = z.uuid().describe('The review id.');

/** The sitemap file number of `/sitemaps/{n}.xml`. */
const SitemapParam = z
  .string()
  .regex(/^[1-9]\d{0,5}\.xml$/)
  .transform((s) => Number(s.slice(0, -4)));

export interface PagesOptions {
  published: Published;
  urls: ServiceUrls;
  /** Origins that may frame `/embed` (`['*']`: any). */
  embedAllowedOrigins: readonly string[];
}

type Rendered = Representation | Promise<Representation>;

/** A page's bytes as rendered, before they become a representation. */
interface Rendering {
  body: string;
  lastModifiedMs: number;
  headers: Record<string, string>;
  /** HTML unless said. */
  contentType?: string;
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

export function createPages(options: PagesOptions): Pages {
  const { published, urls } = options;
  const assets = prepareAssets(Date.now());
  const site: Site = { urls, assets };
  const headers = pageHeaders(options.embedAllowedOrigins, urls.base.startsWith('https:'));

  const prepare = (body: string, lastModifiedMs: number, extra = headers.page) =>
    prepareRepresentation(body, { contentType: HTML, lastModifiedMs, headers: extra });
  const changedMs = (snap: Snapshot) => Date.parse(snap.state.changedAt);

  /** A page rendered once per snapshot; its codings are made off the event loop. */
  const once = (snap: Snapshot, key: string, render: () => Rendering): Rendered => {
    const slots = snap.memo('pages', () => new Map<string, Rendered>());
    let rep = slots.get(key);
    if (!rep) {
      const r = render();
      const options = {
        contentType: r.contentType ?? HTML,
        lastModifiedMs: r.lastModifiedMs,
        headers: r.headers,
      };
      // Once compressed, later requests are answered synchronously; should compressing fail,
      // the page is served with codings made on demand instead.
      // Large bodies (sitemap files) are compressed on demand with fast settings instead: the
      // best settings would keep both cores of a small machine busy for a second.
      if (r.body.length > LAZY_CODINGS_BYTES) {
        const lazy = prepareRepresentation(r.body, options);
        slots.set(key, lazy);
        return lazy;
      }
      const settled = precompressRepresentation(r.body, options).then(
        (done) => (slots.set(key, done), done),
        () => {
          const fallback = prepareRepresentation(r.body, options);
          slots.set(key, fallback);
          return fallback;
        },
      );
      slots.set(key, settled);
      rep = settled;
    }
    return rep;
  };

  /** A page kept in the snapshot's bounded response cache. */
  const cached = (snap: Snapshot, key: string, render: () => Representation): Representation => {
    let rep = snap.responses.get(key);
    if (!rep) {
      rep = render();
      snap.responses.set(key, rep);
    }
    return rep;
  };

  const send = (req: IncomingMessage, res: ServerResponse, rep: Rendered): void | Promise<void> =>
    rep instanceof Promise
      ? rep.then((r) => sendRepresentation(req, res, r))
      : sendRepresentation(req, res, rep);

  const sendError = (req: IncomingMessage, res: ServerResponse, detail: ErrorDetail): void => {
    // A program that asks for JSON (and not HTML) gets the API's JSON error, as on every path.
    const accept = req.headers.accept ?? '';
    if (/\bapplication\/(?:[\w.+-]*\+)?json\b/i.test(accept) && !/\btext\/html\b/i.test(accept)) {
      const [code, message] = PROGRAM_ERRORS[detail.status];
      const issues = detail.status === 400 ? detail.issues : [];
      return sendJson(
        req,
        res,
        detail.status,
        {
          error: code,
          message,
          ...(issues.length > 0 ? { issues } : {}),
        },
        detail.status === 503 ? { 'Retry-After': '5' } : {},
      );
    }
    const body = Buffer.from(renderErrorPage(site, published.current().business, detail));
    res.writeHead(detail.status, {
      ...COMMON_HEADERS,
      ...headers.page,
      ...(detail.status === 503 ? { 'Retry-After': '5' } : {}),
      'Cache-Control': 'no-store',
      'Content-Type': HTML,
      'Content-Length': body.length,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const homePage = (snap: Snapshot, q: PageQuery) => {
    const outcome = renderHome(site, snap, q);
    return outcome.ok ? { ...outcome, lastModifiedMs: changedMs(snap) } : outcome;
  };

  /** The pages rendered once per snapshot: `/` (first page, no filter), `/insights`, `/embed`. */
  const firstPage = (snap: Snapshot): Rendered =>
    once(snap, 'home', () => {
      const page = homePage(snap, {});
      if (!page.ok) throw new Error('the first page always renders');
      return { body: page.html, lastModifiedMs: page.lastModifiedMs, headers: headers.page };
    });
  const insightsPage = (snap: Snapshot): Rendered | null => {
    const doc = snap.representations.get(DOCUMENTS.insights.path);
    const parsed = snap.parsed<Insights>(DOCUMENTS.insights.path);
    if (!doc || !parsed) return null;
    return once(snap, 'insights', () => {
      return {
        body: renderInsightsPage(site, snap.business, snap.aggregate, parsed, (id) => {
          const pos = snap.index.positionOf(id);
          return pos < 0 ? null : snap.review(pos).inLanguage;
        }),
        lastModifiedMs: doc.lastModifiedMs,
        headers: headers.page,
      };
    });
  };
  const embedPage = (snap: Snapshot): Rendered =>
    once(snap, 'embed', () => ({
      body: renderEmbed(site, snap),
      lastModifiedMs: changedMs(snap),
      headers: headers.embed,
    }));

  // Each new snapshot's pages are rendered as it goes live, one page per turn of the event loop
  // (a few ms each at 100,000 reviews) and not in the publisher's announcement, so that no
  // visitor waits for them and no request waits long behind them. Each page is compressed before
  // the next is rendered: all at once, their codings took up to four threads of the pool, and
  // the event loop waited for a core (stalls of 50 to 80 ms as a 100,000-review version went
  // live on 2 cores).
  const warm = async (snap: Snapshot) => {
    for (const step of [firstPage, insightsPage, embedPage]) {
      await new Promise((resolve) => setImmediate(resolve));
      if (published.current() !== snap) return;
      try {
        await step(snap);
      } catch {
        // Warming is best effort: a page that cannot render here fails again, answered and
        // logged by the router, when it is asked for.
        return;
      }
    }
  };
  void warm(published.current());
  published.onChange((event) => void warm(event.snapshot));

  const home = (req: IncomingMessage, res: ServerResponse, query: string) => {
    const parsed = parsePageQuery(query);
    if (!parsed.ok) return sendError(req, res, { status: 400, issues: parsed.issues });
    const q = parsed.value;
    const snap = published.current();
    if (!hasFilters(q) && (q.page ?? 1) === 1) return send(req, res, firstPage(snap));
    const key = `page:${stableJson(q)}`;
    const hit = snap.responses.get(key);
    if (hit) return sendRepresentation(req, res, hit);
    const page = homePage(snap, q);
    if (!page.ok) return sendError(req, res, page.error);
    return sendRepresentation(
      req,
      res,
      cached(snap, key, () => prepare(page.html, page.lastModifiedMs)),
    );
  };

  const review = (req: IncomingMessage, res: ServerResponse, id: string) => {
    const snap = published.current();
    const valid = ReviewIdParam.safeParse(id);
    const pos = valid.success ? snap.index.positionOf(valid.data) : -1;
    if (pos < 0) return sendError(req, res, { status: 404, what: 'review' });
    const rep = cached(snap, `page:review:${valid.data}`, () =>
      prepare(renderReviewPage(site, snap, snap.review(pos)), changedMs(snap)),
    );
    return sendRepresentation(req, res, rep);
  };

  const insights = (req: IncomingMessage, res: ServerResponse) => {
    const rep = insightsPage(published.current());
    return rep ? send(req, res, rep) : sendError(req, res, { status: 503 });
  };

  const embed = (req: IncomingMessage, res: ServerResponse) =>
    send(req, res, embedPage(published.current()));

  const xml = (body: string, snap: Snapshot) => ({
    body,
    lastModifiedMs: changedMs(snap),
    headers: {},
    contentType: 'application/xml; charset=utf-8',
  });

  const sitemapIndex = (req: IncomingMessage, res: ServerResponse) => {
    const snap = published.current();
    return send(
      req,
      res,
      once(snap, 'sitemap', () => xml(renderSitemapIndex(site, snap), snap)),
    );
  };

  // A file is rendered on its first request per version, then served from the version's slot.
  const sitemap = (req: IncomingMessage, res: ServerResponse, name: string) => {
    const snap = published.current();
    const n = SitemapParam.safeParse(name);
    if (!n.success || n.data > sitemapCount(snap))
      return sendError(req, res, { status: 404, what: 'page' });
    return send(
      req,
      res,
      once(snap, `sitemap:${n.data}`, () => xml(renderSitemap(site, snap, n.data)!, snap)),
    );
  };

  const robots = precompressRepresentation(renderRobots(site), {
    contentType: 'text/plain; charset=utf-8',
    lastModifiedMs: Date.now(),
  });

  const asset = (req: IncomingMessage, res: ServerResponse, name: string) => {
    const rep = assets.files.get(name);
    if (!rep) return sendError(req, res, { status: 404, what: 'page' });
    return sendRepresentation(req, res, rep);
  };

  const notFound = (req: IncomingMessage, res: ServerResponse): boolean => {
    const method = req.method ?? 'GET';
    if (
      (method !== 'GET' && method !== 'HEAD') ||
      !/\btext\/html\b/i.test(req.headers.accept ?? '')
    )
      return false;
    sendError(req, res, { status: 404, what: 'page' });
    return true;
  };

  const get = (handler: Route['methods']['GET']): Route['methods'] => ({ GET: handler });
  const routes: Route[] = [
    { path: PAGE_PATHS.home, methods: get((req, res, ctx) => home(req, res, ctx.query)) },
    {
      path: PAGE_PATHS.review,
      param: 'id',
      methods: get((req, res, ctx) => review(req, res, ctx.params.id ?? '')),
    },
    { path: PAGE_PATHS.insights, methods: get((req, res) => insights(req, res)) },
    { path: PAGE_PATHS.embed, methods: get((req, res) => embed(req, res)) },
    { path: PAGE_PATHS.sitemap, methods: get((req, res) => sitemapIndex(req, res)) },
    {
      path: PAGE_PATHS.sitemaps,
      param: 'file',
      methods: get((req, res, ctx) => sitemap(req, res, ctx.params.file ?? '')),
    },
    {
      path: PAGE_PATHS.robots,
      methods: get((req, res) => robots.then((rep) => sendRepresentation(req, res, rep))),
    },
    {
      path: PAGE_PATHS.assets,
      param: 'file',
      methods: get((req, res, ctx) => asset(req, res, ctx.params.file ?? '')),
    },
    {
      path: PAGE_PATHS.favicon,
      methods: get((req, res) => sendRepresentation(req, res, assets.iconRep)),
    },
  ];
  return { routes, notFound };
}
