import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, invalidRequest } from '../http/errors.js';
import { prepareRepresentation } from '../http/representation.js';
import { sendRepresentation } from '../http/respond.js';
import type { Route } from '../http/router.js';
import type { Published, Representation, Snapshot } from '../snapshot/types.js';
import { writeFragments } from './dataset.js';
import { DateParam, parseSearchParams, toIssues, type SearchFilters } from './search-schema.js';
import { firstBefore, runSearch } from './search.js';

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

/** Canonical cache key of validated filters (key order fixed by the schema). */
function filtersKey(f: SearchFilters): string {
  return `search:${JSON.stringify([f.rating, f.min_rating, f.since, f.until, f.query, f.mentions_technician?.toLowerCase(), f.mentions_service?.toLowerCase(), f.limit])}`;
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
      (i) => snapshot.fragments[positions[i]!]!,
      ']}',
    );
  });
}

/** Renders `{ since, count, reviews }`: reviews dated on or after `since`, oldest first. */
export function sinceDocument(snapshot: Snapshot, since: string): Representation {
  return cached(snapshot, `since:${since}`, () => {
    const end = firstBefore(snapshot.index.dates, since);
    return writeFragments(
      `{"since":"${since}","count":${end},"reviews":[`,
      end,
      (i) => snapshot.fragments[end - 1 - i]!,
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

/** The read routes of the reviews: the dataset, the feeds, search and since. */
export function reviewRoutes(published: Published): Route[] {
  const search = (req: IncomingMessage, res: ServerResponse, query: string): void => {
    const parsed = parseSearchParams(new URLSearchParams(query));
    if (!parsed.ok) throw invalidRequest(parsed.issues);
    sendRepresentation(req, res, searchDocument(published.current(), parsed.value));
  };
  const since = (req: IncomingMessage, res: ServerResponse, date: string, query: string): void => {
    const issues = [];
    const parsed = DateParam.safeParse(date);
    if (!parsed.success)
      issues.push(...toIssues(parsed.error).map((i) => ({ ...i, path: ['date'] })));
    for (const key of new URLSearchParams(query).keys()) {
      issues.push({
        path: [key.slice(0, 100)],
        code: 'unrecognized_keys',
        message: 'is not a known parameter',
      });
    }
    if (issues.length > 0) throw invalidRequest(issues);
    sendRepresentation(req, res, sinceDocument(published.current(), date));
  };
  return [
    representationRoute('/reviews.json', published),
    representationRoute('/api/feed.json', published),
    representationRoute('/feed.xml', published),
    representationRoute('/insights.json', published),
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
  ];
}
