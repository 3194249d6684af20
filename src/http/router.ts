import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceError } from '../platform/errors.js';

/** What a handler receives besides the raw request and response. */
export interface RequestContext {
  /** The decoded path. */
  path: string;
  /** The raw query string without `?` ('' when none). */
  query: string;
  /** Path parameters of prefix routes (`date` for `/api/reviews/since/{date}`). */
  params: Record<string, string>;
}

export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  ctx: RequestContext,
) => void | Promise<void>;

/**
 * Renders a `ServiceError` on a route's surface: the API's JSON `{ error, message, issues? }` by
 * default (`sendError`), JSON-RPC on `/mcp`, an HTML page for the pages.
 */
export type ErrorRenderer = (req: IncomingMessage, res: ServerResponse, err: ServiceError) => void;

/**
 * A route, the router's entry: an exact path, or a prefix followed by one path parameter. HEAD is
 * answered by the GET handler unless the route declares its own.
 */
export interface Route {
  path: string;
  /** When set, `path` is a prefix and the rest of the path is this parameter. */
  param?: string;
  methods: Partial<Record<'GET' | 'HEAD' | 'POST' | 'DELETE' | 'OPTIONS', Handler>>;
  /**
   * Renders every `ServiceError` answered on this path: those of the service before a handler
   * runs (405, 400 without Host) and those a handler throws, when the path has its own error
   * format (`/mcp`, the HTML pages). By default: the JSON `{ error, message, issues? }`.
   */
  renderError?: ErrorRenderer;
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

/** Finds the route of a decoded path: exact paths first, then the longest prefix. */
export function createRouter(routes: readonly Route[]): (path: string) => Match | null {
  const exact = new Map<string, Route>();
  const prefixes = routes
    .filter((r) => r.param !== undefined)
    .sort((a, b) => b.path.length - a.path.length);
  for (const r of routes) if (r.param === undefined) exact.set(r.path, r);
  return (path) => {
    const route = exact.get(path);
    if (route) return { route, params: {} };
    for (const p of prefixes) {
      if (path.startsWith(p.path))
        return { route: p, params: { [p.param!]: path.slice(p.path.length) } };
    }
    return null;
  };
}

/** The methods a route answers, for `Allow` (HEAD comes with GET). */
export function allowedMethods(route: Route): string[] {
  const methods = Object.keys(route.methods);
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  if (!methods.includes('OPTIONS')) methods.push('OPTIONS');
  return methods;
}
