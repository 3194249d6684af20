import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { stableJson } from '../../domain/stable-json.js';
import { sendRepresentation } from '../../http/respond.js';
import type { Published } from '../../snapshot/types.js';
import { hasFilters, parsePageQuery } from '../query.js';
import type { Assets } from './assets.js';
import type { PageHeaders } from './headers.js';
import { renderHome } from './home.js';
import type { Site } from './layout.js';
import { invalidQuery, notReady, pageNotFound } from './page-errors.js';
import { preparePage, renderCached, sendRendered } from './render-cache.js';
import { renderReviewPage } from './review-page.js';
import { sitemapCount } from './sitemap.js';
import { changedMs, type VersionPages } from './version-pages.js';

/**
 * The handlers of the pages: each reads the version of the moment, answers from its rendered
 * pages (`VersionPages`, `renderCached`), and throws a `PageError` for what it cannot answer
 * (the routes render it). Their state is the `PageContext` they are given.
 */

/** What the handlers read: the versions, the site, the header sets and the pages of a version. */
export interface PageContext {
  readonly published: Published;
  readonly site: Site;
  readonly headers: PageHeaders;
  readonly assets: Assets;
  readonly pages: VersionPages;
}

/** The id of `/reviews/{id}`: a review id (anything else is a page that does not exist). */
export const ReviewIdParam = z.uuid().describe('The review id.');

/** The sitemap file number of `/sitemaps/{n}.xml`. */
const SitemapParam = z
  .string()
  .regex(/^[1-9]\d{0,5}\.xml$/)
  .transform((s) => Number(s.slice(0, -4)));

/**
 * `/`: the first page of all reviews from the version's rendered pages; any other view (a
 * filter, a later page) from the version's response cache.
 */
export function home(
  p: PageContext,
  req: IncomingMessage,
  res: ServerResponse,
  query: string,
): void | Promise<void> {
  const parsed = parsePageQuery(query);
  if (!parsed.ok) throw invalidQuery(parsed.issues);
  const q = parsed.value;
  const snap = p.published.current();
  if (!hasFilters(q) && (q.page ?? 1) === 1) return sendRendered(req, res, p.pages.home(snap));
  const key = `page:${stableJson(q)}`;
  const hit = snap.responses.get(key);
  if (hit) return sendRepresentation(req, res, hit);
  const html = renderHome(p.site, snap, q);
  const rep = renderCached(snap, key, () => preparePage(html, changedMs(snap), p.headers.page));
  return sendRepresentation(req, res, rep);
}

/** `/reviews/{id}`: a review's page, from the version's response cache. */
export function review(
  p: PageContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): void {
  const snap = p.published.current();
  const valid = ReviewIdParam.safeParse(id);
  const pos = valid.success ? snap.index.positionOf(valid.data) : -1;
  if (pos < 0) throw pageNotFound('review');
  const rep = renderCached(snap, `page:review:${valid.data}`, () =>
    preparePage(renderReviewPage(p.site, snap, snap.review(pos)), changedMs(snap), p.headers.page),
  );
  return sendRepresentation(req, res, rep);
}

/** `/insights`: a 503 while the version's insights are not ready. */
export function insights(
  p: PageContext,
  req: IncomingMessage,
  res: ServerResponse,
): void | Promise<void> {
  const rep = p.pages.insights(p.published.current());
  if (!rep) throw notReady();
  return sendRendered(req, res, rep);
}

/** `/sitemaps/{n}.xml`: rendered on its first request per version; a 404 past the last file. */
export function sitemap(
  p: PageContext,
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
): void | Promise<void> {
  const snap = p.published.current();
  const n = SitemapParam.safeParse(name);
  if (!n.success || n.data > sitemapCount(snap)) throw pageNotFound('page');
  return sendRendered(req, res, p.pages.sitemap(snap, n.data));
}

/** `/assets/{name}`: a static file under its hashed name. */
export function asset(
  p: PageContext,
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
): void {
  const rep = p.assets.files.get(name);
  if (!rep) throw pageNotFound('page');
  return sendRepresentation(req, res, rep);
}
