/**
 * An endpoint of the read API, declared once: method, path, path and query schemas (zod), summary,
 * responses and handler. The router's entries (`endpointRoutes`: validation and query coercion
 * included, HEAD by the app's fallback to GET) and the OpenAPI document (src/openapi) are both
 * derived from these declarations, so neither can drift from the other.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { toIssues, type Issue } from '../domain/issues.js';
import { invalidRequest } from '../http/errors.js';
import { numericParams } from '../http/query.js';
import { sendRepresentation } from '../http/respond.js';
import type { Handler, RequestContext, Route } from '../http/router.js';
import { parseQueryParams } from '../reviews/search-schema.js';
import { own } from '../platform/dict.js';
import type { Representation } from '../representation/index.js';

/** A query schema: a strict object whose fields are the parameters. */
export type QuerySchema = z.ZodObject;

/** A response body's schema: a component of the document by name, a zod schema, or a JSON schema. */
export type BodySchema =
  | { readonly component: string }
  | { readonly zod: z.ZodType }
  | { readonly json: Readonly<Record<string, unknown>> };

/** One response of an endpoint, as the OpenAPI document describes it. */
export interface ResponseSpec {
  readonly description: string;
  readonly body?: { readonly contentType: string; readonly schema: BodySchema };
  readonly headers?: Readonly<Record<string, unknown>>;
}

/** What the router and the OpenAPI document read of an endpoint. */
export interface EndpointSpec {
  readonly method: 'GET';
  /** The path, with at most one parameter, last: `/api/reviews/since/{date}`. */
  readonly path: string;
  readonly summary: string;
  /** The schema of each path parameter. */
  readonly params?: Readonly<Record<string, z.ZodType>>;
  /** The query's schema: parameters not in it are a 400; numbers are read from its fields. */
  readonly query?: QuerySchema;
  /** A prepared representation: ETag, Last-Modified, 304 and their request headers. */
  readonly conditional?: boolean;
  readonly responses: Readonly<Record<string, ResponseSpec>>;
  /** False for an endpoint the OpenAPI document leaves out (the document itself). */
  readonly documented?: boolean;
}

/** The validated input of a request: the parsed query, the path parameters, the raw query. */
export interface EndpointInput<Q> {
  readonly query: Q;
  readonly params: Readonly<Record<string, string>>;
  /** The query string as it came (without `?`), after it was found valid. */
  readonly rawQuery: string;
}

export type EndpointHandler<C, Q> = (
  ctx: C,
  req: IncomingMessage,
  res: ServerResponse,
  input: EndpointInput<Q>,
) => void | Promise<void>;

/** An endpoint with its handler, which receives the API's context `C` and the validated input. */
export interface Endpoint<C> extends EndpointSpec {
  readonly handle: EndpointHandler<C, unknown>;
  /**
   * The answer already prepared for this exact query string, if any: sent without validating the
   * query again (the handler recorded it after a valid request with the same string, in the same
   * data version). The hot path of a repeated search.
   */
  readonly answered?: (ctx: C, rawQuery: string) => Representation | undefined;
}

type QueryOf<S> = S extends QuerySchema ? z.output<S> : Readonly<Record<string, never>>;

/** Declares an endpoint, its handler typed by the query schema. */
export function defineEndpoint<C, S extends QuerySchema | undefined = undefined>(
  endpoint: EndpointSpec & {
    readonly query?: S;
    readonly handle: EndpointHandler<C, QueryOf<S>>;
    readonly answered?: Endpoint<C>['answered'];
  },
): Endpoint<C> {
  return endpoint as Endpoint<C>;
}

/** The router's path of an endpoint: exact, or a prefix and the name of its one parameter. */
export function routePath(path: string): { path: string; param?: string } {
  const m = /^(.*\/)\{(\w+)\}$/.exec(path);
  return m ? { path: m[1]!, param: m[2]! } : { path };
}

const NO_INPUT: EndpointInput<unknown> = Object.freeze({ query: {}, params: {}, rawQuery: '' });

/**
 * Reads a request's input against the endpoint's schemas: each path parameter, then the query
 * (its numbers written plainly, each parameter once, no unknown one), every problem an issue of
 * one 400 `invalid_request`.
 */
function inputReader(e: EndpointSpec): ((ctx: RequestContext) => EndpointInput<unknown>) | null {
  const params = Object.entries(e.params ?? {});
  const query = e.query;
  if (params.length === 0 && !query) return null;
  const numeric = query ? numericParams(query.shape) : {};
  return (ctx) => {
    const issues: Issue[] = [];
    for (const [name, schema] of params) {
      const parsed = schema.safeParse(own(ctx.params, name) ?? '');
      if (!parsed.success)
        issues.push(...toIssues(parsed.error).map((i) => ({ ...i, path: [name] })));
    }
    let value: unknown = {};
    if (query) {
      const parsed = parseQueryParams(new URLSearchParams(ctx.query), query, numeric);
      if (parsed.ok) value = parsed.value;
      else issues.push(...parsed.issues);
    }
    if (issues.length > 0) throw invalidRequest(issues);
    return { query: value, params: ctx.params, rawQuery: ctx.query };
  };
}

function handlerOf<C>(e: Endpoint<C>, api: C): Handler {
  const read = inputReader(e);
  const answered = e.answered;
  if (read && answered) {
    return (req, res, ctx) => {
      const known = answered(api, ctx.query);
      return known ? sendRepresentation(req, res, known) : e.handle(api, req, res, read(ctx));
    };
  }
  return read
    ? (req, res, ctx) => e.handle(api, req, res, read(ctx))
    : (req, res) => e.handle(api, req, res, NO_INPUT);
}

/** The router's entries of a list of endpoints, their handlers bound to the API's context. */
export function endpointRoutes<C>(endpoints: readonly Endpoint<C>[], api: C): Route[] {
  const routes = new Map<string, Route>();
  for (const e of endpoints) {
    const { path, param } = routePath(e.path);
    let route = routes.get(e.path);
    if (!route) {
      route = param === undefined ? { path, methods: {} } : { path, param, methods: {} };
      routes.set(e.path, route);
    }
    route.methods[e.method] = handlerOf(e, api);
  }
  return [...routes.values()];
}
