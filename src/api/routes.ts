import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, invalidRequest } from '../http/errors.js';
import { prepareRepresentation } from '../representation/index.js';
import { sendJson, sendRepresentation } from '../http/respond.js';
import type { Route } from '../http/router.js';
import type { Published, Representation, Snapshot, Staleness } from '../snapshot/types.js';
import { writeFragments } from '../reviews/dataset.js';
import { DOCUMENT_IDS, DOCUMENTS, OPENAPI_PATH } from '../catalogue.js';
import { toIssues } from '../domain/issues.js';
import { stableJson } from '../domain/stable-json.js';
import {
  DateParam,
  parseQueryParams,
  parseSearchParams,
  SinceQuery,
  type SearchFilters,
} from '../reviews/search-schema.js';
import { runSearch } from '../reviews/search.js';
import { healthOf } from './health.js';
import { sendSince } from './since.js';
import { SinceStreams, type MinRate } from './since-streams.js';

function cached(snapshot: Snapshot, key: string, render: () => Buffer): Representation {
  let rep = snapshot.responses.get(key);
  if (!rep) {
    rep = prepareRepresentation(render(), {
      contentType: 'application/json',
      lastModifiedMs: Date.parse(snapshot.state.changedAt),
    });
    snapshot.responses.set(key, rep);
  }
  return rep;
}

/**
 * Cache key of validated filters: the canonical JSON of the parsed value, so every filter the
 * schema knows (and any added later) is part of the key.
 */
function filtersKey(f: SearchFilters): string {
  return `search:${stableJson(f)}`;
}

/**
 * Renders the search response `{ count, total, limit, reviews }` of validated filters, or throws
 * the 400 of an ambiguous staff name. Shared by HTTP and MCP.
 */
export function searchDocument(snapshot: Snapshot, filters: SearchFilters): Representation {
  return cached(snapshot, filtersKey(filters), () => {
    const outcome = runSearch(snapshot.index, filters);
    if (!outcome.ok) throw invalidRequest(outcome.issues);
    const { hits } = outcome;
    const { positions } = hits;
    return writeFragments(
      `{"count":${positions.length},"total":${hits.total},"limit":${filters.limit},"reviews":[`,
      positions.length,
      (i) => snapshot.fragment(positions[i]!),
      ']}',
    );
  });
}

function representationRoute(path: string, published: Published): Route {
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const rep = published.current().representations.get(path);
    if (!rep) throw new HttpError(404, 'not_found', 'No such resource.');
    sendRepresentation(req, res, rep);
  };
  return { path, methods: { GET: handler, HEAD: handler } };
}

export interface ApiOptions {
  published: Published;
  /** BASE_URL (links to the next page of a since result). */
  baseUrl: string;
  /** The OpenAPI document, prepared once. */
  openapi: Representation;
  /** Large since results streamed at once (503 with `Retry-After` beyond). */
  maxStreams: number;
  /** A large since result read slower than this is cut (default: 32 KiB in 30 s). */
  minRate?: MinRate;
  /** Called when a stream of a superseded data version ends (its bytes can be collected). */
  released?: () => void;
  /** Since when and why the served version could not be refreshed (`Publisher.stale`). */
  stale?: () => Staleness | null;
  /**
   * `/healthz` answers 503 once the store has held a newer version that this instance could not
   * publish for this long (`HEALTHZ_STALE_SECONDS`); 0: never.
   */
  staleAfterMs?: number;
}

/**
 * The routes of the read API: every document of the catalogue, search, since, the OpenAPI
 * document and the health check.
 */
export function apiRoutes({
  published,
  openapi,
  baseUrl,
  maxStreams,
  minRate,
  released,
  stale,
  staleAfterMs = 0,
}: ApiOptions): Route[] {
  const streams = new SinceStreams(published, maxStreams, minRate, released);
  const search = (req: IncomingMessage, res: ServerResponse, query: string): void => {
    const parsed = parseSearchParams(new URLSearchParams(query));
    if (!parsed.ok) throw invalidRequest(parsed.issues);
    sendRepresentation(req, res, searchDocument(published.current(), parsed.value));
  };
  const since = (
    req: IncomingMessage,
    res: ServerResponse,
    date: string,
    query: string,
  ): Promise<void> | void => {
    const issues = [];
    const parsed = DateParam.safeParse(date);
    if (!parsed.success)
      issues.push(...toIssues(parsed.error).map((i) => ({ ...i, path: ['date'] })));
    const paging = parseQueryParams(new URLSearchParams(query), SinceQuery, { limit: 'integer' });
    if (!paging.ok) issues.push(...paging.issues);
    if (issues.length > 0 || !paging.ok) throw invalidRequest(issues);
    return sendSince(req, res, published.current(), date, paging.value, baseUrl, streams);
  };
  return [
    ...DOCUMENT_IDS.map((id) => representationRoute(DOCUMENTS[id].path, published)),
    {
      path: '/api/reviews/search',
      methods: {
        GET: (req, res, ctx) => search(req, res, ctx.query),
        HEAD: (req, res, ctx) => search(req, res, ctx.query),
      },
    },
    {
      path: '/api/reviews/since/',
      param: 'date',
      methods: {
        GET: (req, res, ctx) => since(req, res, ctx.params.date ?? '', ctx.query),
        HEAD: (req, res, ctx) => since(req, res, ctx.params.date ?? '', ctx.query),
      },
    },
    {
      path: OPENAPI_PATH,
      methods: { GET: (req, res) => sendRepresentation(req, res, openapi) },
    },
    {
      path: '/healthz',
      methods: {
        GET: (req, res) => {
          const health = healthOf(published.current(), stale?.() ?? null, staleAfterMs, Date.now());
          sendJson(req, res, health.status, health.body);
        },
      },
    },
  ];
}
