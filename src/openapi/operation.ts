/**
 * The OpenAPI 3.1 path items of the API's endpoint declarations (src/api/endpoint.ts): parameters
 * from their path and query schemas, responses from their response specs, and the conditional
 * request headers, validators and 304 of prepared representations.
 */
import { z } from 'zod';
import type { BodySchema, EndpointSpec, ResponseSpec } from '../api/endpoint.js';
import { dict, own, type Dict } from '../platform/dict.js';

export type JsonSchema = Record<string, unknown>;

/** The JSON schema of a zod schema, without `$schema`. */
export function schemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

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

function bodySchema(schema: BodySchema): JsonSchema {
  if ('component' in schema) return { $ref: `#/components/schemas/${schema.component}` };
  if ('zod' in schema) return schemaOf(schema.zod);
  return { ...schema.json };
}

function response(spec: ResponseSpec): JsonSchema {
  const out: JsonSchema = { description: spec.description };
  if (spec.body)
    out.content = { [spec.body.contentType]: { schema: bodySchema(spec.body.schema) } };
  if (spec.headers) out.headers = spec.headers;
  return out;
}

function parameters(e: EndpointSpec): JsonSchema[] {
  const params = Object.entries(e.params ?? {}).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema: schemaOf(schema, 'input'),
  }));
  const query = Object.entries(e.query?.shape ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    description: (schema as z.ZodType).description,
    schema: schemaOf(schema as z.ZodType, 'input'),
  }));
  return [...params, ...query, ...(e.conditional ? conditionalParams : [])];
}

/** The operation of one endpoint. */
function operation(e: EndpointSpec): JsonSchema {
  const { '200': ok, ...others } = e.responses;
  const responses: Dict<unknown> = dict();
  if (ok) {
    responses['200'] = e.conditional
      ? { ...response(ok), headers: conditionalHeaders }
      : response(ok);
    if (e.conditional) responses['304'] = notModified;
  }
  for (const [status, spec] of Object.entries(others)) responses[status] = response(spec);
  const params = parameters(e);
  return params.length > 0
    ? { summary: e.summary, parameters: params, responses }
    : { summary: e.summary, responses };
}

/** The `paths` of the documented endpoints, keyed by their OpenAPI path, in their order. */
export function endpointPaths(endpoints: readonly EndpointSpec[]): Record<string, unknown> {
  const paths: Dict<Dict<unknown>> = dict();
  for (const e of endpoints) {
    if (e.documented === false) continue;
    const item = own(paths, e.path) ?? (paths[e.path] = dict());
    item[e.method.toLowerCase()] = operation(e);
  }
  return paths;
}
