/**
 * The read API, each endpoint declared once (src/api/endpoint.ts): every document of the
 * catalogue, search, since, the OpenAPI document and the health check. The router and the OpenAPI
 * document are derived from this list.
 */
import { DOCUMENT_IDS, DOCUMENTS, OPENAPI_PATH, type DocumentId } from '../catalogue.js';
import {
  ChangesResponse,
  ErrorResponse,
  SearchResponse,
  SinceResponse,
} from '../domain/public-schemas.js';
import { ServiceError } from '../platform/errors.js';
import { sendJson, sendRepresentation } from '../http/respond.js';
import type { Representation } from '../representation/index.js';
import { ChangesQuery } from '../reviews/changes-schema.js';
import { DateParam, SearchFilters, SinceQuery } from '../reviews/search-schema.js';
import type { Published, Staleness } from '../snapshot/types.js';
import { changesDocument } from './changes.js';
import { defineEndpoint, type Endpoint, type ResponseSpec } from './endpoint.js';
import { healthOf, type SourceHealth } from './health.js';
import { knownSearch, searchDocument } from './search.js';
import { sendSince } from './since.js';
import type { SinceStreams } from './since-streams.js';

/** What the API's handlers share: the published versions and the service's settings. */
export interface ApiContext {
  readonly published: Published;
  /** BASE_URL (links to the next page of a since result). */
  readonly baseUrl: string;
  /** The OpenAPI document, prepared once. */
  readonly openapi: Representation;
  readonly streams: SinceStreams;
  /** Since when and why the served version could not be refreshed (`Publisher.stale`). */
  readonly stale: () => Staleness | null;
  /** `/healthz` answers 503 once a newer version could not be published for this long; 0: never. */
  readonly staleAfterMs: number;
  /** The configured review sources' status (`src/sources`), listed by `/healthz`. */
  readonly sources?: () => readonly SourceHealth[];
}

/** The named response schemas of the OpenAPI document (`#/components/schemas/…`). */
export const API_SCHEMAS = {
  SearchResponse,
  SinceResponse,
  ChangesResponse,
  Error: ErrorResponse,
} as const;

const json = (component: keyof typeof API_SCHEMAS, description: string): ResponseSpec => ({
  description,
  body: { contentType: 'application/json', schema: { component } },
});

const badRequest = json('Error', 'Invalid parameters; `issues` names each one.');

/** A 503 that says when to come back (`Retry-After`, seconds). */
const unavailable = (description: string): ResponseSpec => ({
  ...json('Error', description),
  headers: { 'Retry-After': { schema: { type: 'integer' } } },
});

/** The read operation of a document of the catalogue: its prepared bytes. */
function documentEndpoint(id: DocumentId): Endpoint<ApiContext> {
  const { path, contentType, openapi } = DOCUMENTS[id];
  const schema = openapi.schema
    ? { zod: openapi.schema }
    : { json: { type: contentType === 'application/json' ? 'object' : 'string' } };
  return defineEndpoint<ApiContext>({
    method: 'GET',
    path,
    summary: openapi.summary,
    conditional: true,
    responses: { '200': { description: openapi.summary, body: { contentType, schema } } },
    handle: ({ published }, req, res) => {
      const rep = published.current().representations.get(path);
      if (!rep) throw new ServiceError('not_found', 'No such resource.', { status: 404 });
      sendRepresentation(req, res, rep);
    },
  });
}

const search = defineEndpoint({
  method: 'GET',
  path: '/api/reviews/search',
  summary: 'Search reviews. Filters combine with AND; results newest first.',
  query: SearchFilters,
  conditional: true,
  responses: {
    '200': json('SearchResponse', 'Matching reviews.'),
    '400': badRequest,
    '503': unavailable(
      "`insights_pending`: `aspect` or `polarity` was given while the analysis of the data version served (its insights) is still being computed, a few seconds after a change; retry after `Retry-After` seconds. The previous version's analysis is never used.",
    ),
  },
  handle: ({ published }: ApiContext, req, res, { query, rawQuery }) =>
    sendRepresentation(req, res, searchDocument(published.current(), query, rawQuery)),
  answered: ({ published }: ApiContext, rawQuery) => knownSearch(published.current(), rawQuery),
});

const since = defineEndpoint({
  method: 'GET',
  path: '/api/reviews/since/{date}',
  summary: 'Reviews dated on or after a day, oldest first.',
  params: { date: DateParam },
  query: SinceQuery,
  conditional: true,
  responses: {
    '200': json('SinceResponse', 'Reviews since the date.'),
    '400': badRequest,
    '503': unavailable(
      'Too many large results (over 2,000 reviews, without `limit`) are being streamed at once (`SINCE_MAX_STREAMS`); retry after `Retry-After` seconds, or page with `limit`.',
    ),
  },
  handle: (api: ApiContext, req, res, { query, params }) =>
    sendSince(req, res, api.published.current(), params.date!, query, api.baseUrl, api.streams),
});

const changes = defineEndpoint({
  method: 'GET',
  path: '/api/reviews/changes',
  summary:
    'The change feed: every change to the published reviews in commit order (an upsert carries the review, a removal its tombstone), each review once at its latest change; follow `nextCursor` to keep a copy in step.',
  query: ChangesQuery,
  conditional: true,
  responses: {
    '200': json('ChangesResponse', 'The changes after the cursor.'),
    '400': badRequest,
    '410': json(
      'Error',
      "`cursor_expired`: the cursor is not one of this store's feed (the store was replaced); start again from /reviews.json.",
    ),
  },
  handle: ({ published }: ApiContext, req, res, { query }) =>
    sendRepresentation(req, res, changesDocument(published.current(), query)),
});

const openapi = defineEndpoint<ApiContext>({
  method: 'GET',
  path: OPENAPI_PATH,
  summary: 'This document.',
  documented: false,
  responses: { '200': { description: 'The OpenAPI 3.1 document of the service.' } },
  handle: (api, req, res) => sendRepresentation(req, res, api.openapi),
});

const healthz = defineEndpoint<ApiContext>({
  method: 'GET',
  path: '/healthz',
  summary: 'Readiness.',
  responses: {
    '200': {
      description:
        'Ready: `{ status: "ok", dataVersion, reviews }`, with `stale: { since, reason, newerVersion? }` while the served data could not be refreshed, and `sources: [{ name, lastSuccessAt, lastError, nextRunAt }]` when review sources are configured (a failing source never makes it 503).',
    },
    '503': {
      description:
        'Stuck: the store has held a newer data version that this instance could not publish for `HEALTHZ_STALE_SECONDS` (`status: "stale"`, the same fields).',
    },
  },
  handle: (api, req, res) => {
    const sources = api.sources?.() ?? [];
    const health = healthOf(
      api.published.current(),
      api.stale(),
      api.staleAfterMs,
      Date.now(),
      sources,
    );
    sendJson(req, res, health.status, health.body);
  },
});

/** Every endpoint of the read API, in the order the OpenAPI document lists them. */
export const API_ENDPOINTS: readonly Endpoint<ApiContext>[] = [
  ...DOCUMENT_IDS.map(documentEndpoint),
  search,
  since,
  changes,
  openapi,
  healthz,
];
