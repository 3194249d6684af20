import { z } from 'zod';
import { DOCUMENT_IDS, DOCUMENTS } from '../catalogue.js';
import { ErrorResponse, SearchResponse, SinceResponse } from '../domain/public-schemas.js';
import { DateParam, searchFields, SinceQuery } from '../reviews/search-schema.js';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

const json = (schema: JsonSchema, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const conditionalHeaders = {
  ETag: {
    description: 'Strong entity tag of the selected representation.',
    schema: { type: 'string' },
  },
  'Last-Modified': {
    description: 'Time of the newest change to the data.',
    schema: { type: 'string' },
  },
  'Cache-Control': { schema: { type: 'string' } },
};

const conditionalParams = [
  { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
  { name: 'If-Modified-Since', in: 'header', required: false, schema: { type: 'string' } },
];

const notModified = { description: 'Not modified: the cached copy is current (empty body).' };

function readOperation(summary: string, ok: object, extra: object = {}) {
  return {
    summary,
    parameters: conditionalParams,
    responses: { '200': { ...ok, headers: conditionalHeaders }, '304': notModified, ...extra },
  };
}

/** The read operation of each document of the catalogue. */
function documentPaths(): Record<string, unknown> {
  return Object.fromEntries(
    DOCUMENT_IDS.map((id) => {
      const { path, contentType, openapi } = DOCUMENTS[id];
      const schema = openapi.schema
        ? schemaOf(openapi.schema)
        : { type: contentType === 'application/json' ? 'object' : 'string' };
      return [
        path,
        {
          get: readOperation(openapi.summary, {
            description: openapi.summary,
            content: { [contentType]: { schema } },
          }),
        },
      ];
    }),
  );
}

/**
 * Builds the OpenAPI 3.1 document from the same zod schemas that validate requests and describe
 * responses, so the documentation cannot drift from the behaviour.
 */
export function buildOpenApiDocument(
  baseUrl: string,
  extraPaths: Record<string, unknown> = {},
): unknown {
  const searchParams = Object.entries(searchFields).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    description: schema.description,
    schema: schemaOf(schema, 'input'),
  }));
  const badRequest = { '400': json(ref('Error'), 'Invalid parameters; `issues` names each one.') };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Customer reviews',
      version: '1.0.0',
      description:
        'Read-only verified customer reviews of one business, with feeds, an MCP server and a WebSub hub. No authentication; an Authorization header is ignored.',
    },
    servers: [{ url: baseUrl }],
    paths: {
      ...documentPaths(),
      '/api/reviews/search': {
        get: {
          summary: 'Search reviews. Filters combine with AND; results newest first.',
          parameters: [...searchParams, ...conditionalParams],
          responses: {
            '200': {
              ...json(ref('SearchResponse'), 'Matching reviews.'),
              headers: conditionalHeaders,
            },
            '304': notModified,
            ...badRequest,
          },
        },
      },
      '/api/reviews/since/{date}': {
        get: {
          summary: 'Reviews dated on or after a day, oldest first.',
          parameters: [
            { name: 'date', in: 'path', required: true, schema: schemaOf(DateParam, 'input') },
            ...Object.entries(SinceQuery.shape).map(([name, schema]) => ({
              name,
              in: 'query',
              required: false,
              description: schema.description,
              schema: schemaOf(schema, 'input'),
            })),
            ...conditionalParams,
          ],
          responses: {
            '200': {
              ...json(ref('SinceResponse'), 'Reviews since the date.'),
              headers: conditionalHeaders,
            },
            '304': notModified,
            ...badRequest,
            '503': {
              ...json(
                ref('Error'),
                'Too many large results (over 2,000 reviews, without `limit`) are being streamed at once (`SINCE_MAX_STREAMS`); retry after `Retry-After` seconds, or page with `limit`.',
              ),
              headers: { 'Retry-After': { schema: { type: 'integer' } } },
            },
          },
        },
      },
      '/healthz': {
        get: {
          summary: 'Readiness.',
          responses: {
            '200': {
              description:
                'Ready: `{ status: "ok", dataVersion, reviews }`, with `stale: { since, reason, newerVersion? }` while the served data could not be refreshed.',
            },
            '503': {
              description:
                'Stuck: the store has held a newer data version that this instance could not publish for `HEALTHZ_STALE_SECONDS` (`status: "stale"`, the same fields).',
            },
          },
        },
      },
      ...extraPaths,
    },
    components: {
      schemas: {
        SearchResponse: schemaOf(SearchResponse),
        SinceResponse: schemaOf(SinceResponse),
        Error: schemaOf(ErrorResponse),
      },
    },
  };
}
