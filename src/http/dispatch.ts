/**
 * From a request to its route's handler: the target read, the route found, the Host checked,
 * then the handler of the method (HEAD falls back to GET), the CORS preflight of OPTIONS, or the
 * 405 with `Allow`. Every refusal is a thrown `ServiceError`; the error boundary renders it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodNotAllowed, noSuchPath } from './errors.js';
import { hostProblem, readTarget } from './request-target.js';
import { COMMON_HEADERS } from './respond.js';
import { allowedMethods, createRouter, type Route } from './router.js';

const PREFLIGHT_HEADERS = {
  ...COMMON_HEADERS,
  'Access-Control-Allow-Headers':
    'Accept, Accept-Encoding, Content-Type, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
  'Access-Control-Max-Age': '86400',
  'Cache-Control': 'public, max-age=86400',
};

/**
 * Given the first word on a path no route knows: answers it (the pages' HTML 404 for a browser)
 * and returns true, or returns false for the JSON 404.
 */
export type NotFound = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface Dispatcher {
  /** Answers a request, or throws (or rejects with) the error to render. */
  dispatch(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
  /** The route of a request, if its target is valid and a route knows it (its error surface). */
  routeOf(req: IncomingMessage): Route | undefined;
  /**
   * The route the last `dispatch` call found (null: none), read right after it returns or
   * throws: what the request metrics label a request with, at the cost of one assignment.
   */
  matched(): Route | null;
}

function sendPreflight(res: ServerResponse, allow: string): void {
  res.writeHead(204, { ...PREFLIGHT_HEADERS, 'Access-Control-Allow-Methods': allow, Allow: allow });
  res.end();
}

/** The dispatcher of a route table: exact paths, or a prefix with one parameter. */
export function createDispatcher(routes: readonly Route[], notFound?: NotFound): Dispatcher {
  const find = createRouter(routes);
  let last: Route | null = null;
  const dispatch = (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    last = null;
    const { path, query } = readTarget(req.url ?? '/');
    const match = find(path);
    last = match?.route ?? null;
    const refused = hostProblem(req);
    if (refused) throw refused;
    if (!match) {
      if (notFound?.(req, res)) return;
      throw noSuchPath();
    }
    const method = req.method ?? 'GET';
    const { methods } = match.route;
    const handler =
      methods[method as keyof Route['methods']] ?? (method === 'HEAD' ? methods.GET : undefined);
    if (handler) return handler(req, res, { path, query, params: match.params });
    const allow = allowedMethods(match.route).join(', ');
    if (method === 'OPTIONS') return sendPreflight(res, allow);
    throw methodNotAllowed(allow);
  };
  // Read again only when a request failed, so that the hot path keeps no state per request.
  const routeOf = (req: IncomingMessage): Route | undefined => {
    try {
      return find(readTarget(req.url ?? '/').path)?.route;
    } catch {
      return undefined;
    }
  };
  return { dispatch, routeOf, matched: () => last };
}
