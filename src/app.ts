import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { HttpError } from './http/errors.js';
import { COMMON_HEADERS, isClientGone, sendError, sendJson } from './http/respond.js';
import { allowedMethods, createRouter, type Route } from './http/router.js';
import type { Logger } from './logger.js';
import { errorBody, isServiceError } from './platform/errors.js';
import { isStoreBusy, isStoreUnavailable } from './store/index.js';

export interface AppDeps {
  routes: readonly Route[];
  logger: Logger;
  /**
   * Given the first word on a path no route knows: answers it (the pages' HTML 404 for a
   * browser) and returns true, or returns false for the JSON 404.
   */
  notFound?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

const PREFLIGHT_HEADERS = {
  ...COMMON_HEADERS,
  'Access-Control-Allow-Headers':
    'Accept, Accept-Encoding, Content-Type, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
  'Access-Control-Max-Age': '86400',
  'Cache-Control': 'public, max-age=86400',
};

/**
 * The 503 of a request that needed the store while it could not answer: its write lock held by
 * another process for too long (`store_busy`), or its database server away (`store_unavailable`).
 */
export function storeUnavailable(err: unknown): HttpError {
  return isStoreBusy(err)
    ? new HttpError(
        503,
        'store_busy',
        'Another process is writing to the store; try again in a moment.',
        undefined,
        { 'Retry-After': '2' },
      )
    : new HttpError(
        503,
        'store_unavailable',
        'The database cannot be reached right now; try again in a moment.',
        undefined,
        { 'Retry-After': '5' },
      );
}

/** `uri-host [ ":" port ]` (RFC 3986: an IP literal, or a reg-name), or empty. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]*)(?::\d*)?$/;

/**
 * Why the request's Host header breaks RFC 9112 §3.2 (a server must answer 400 to a request
 * without one in HTTP/1.1, with more than one, or with an invalid one), or null.
 */
function checkHost(req: IncomingMessage): string | null {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === 'host') count++;
  }
  if (count === 0)
    return req.httpVersion === '1.1' ? 'An HTTP/1.1 request must have a Host header.' : null;
  if (count > 1) return 'A request must have one Host header, not several.';
  return HOST.test(req.headers.host ?? '') ? null : 'The Host header is not a valid host.';
}

function splitTarget(target: string): { rawPath: string; query: string } {
  let t = target;
  if (!t.startsWith('/')) {
    // absolute-form (`GET http://host/path`) or asterisk-form
    try {
      const u = new URL(t);
      t = `${u.pathname}${u.search}`;
    } catch {
      throw new HttpError(400, 'invalid_request', 'The request target is not a valid path.');
    }
  }
  const q = t.indexOf('?');
  return q === -1 ? { rawPath: t, query: '' } : { rawPath: t.slice(0, q), query: t.slice(q + 1) };
}

function decodePath(rawPath: string): string {
  try {
    return decodeURIComponent(rawPath);
  } catch {
    throw new HttpError(400, 'invalid_request', 'The path has malformed percent-encoding.');
  }
}

/**
 * Builds the request listener: routes by exact path (or prefix with one parameter), answers
 * OPTIONS preflights, 400 for an HTTP/1.1 request without Host, 404 for unknown paths and 405
 * with `Allow` for wrong methods, all as JSON (a route may render its own errors: `/mcp`).
 * Every thrown `HttpError` becomes its JSON response; anything else is logged and becomes a
 * generic 500 that reveals nothing.
 */
export function createApp(deps: AppDeps): RequestListener {
  const route = createRouter(deps.routes);
  const { logger } = deps;

  /** Answers an error found before a handler runs: a path with its own error format (`/mcp`) renders it. */
  const reject = (
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    err: HttpError,
  ): void => {
    if (!route.renderError) throw err;
    route.renderError(req, res, err);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const { rawPath, query } = splitTarget(req.url ?? '/');
    const path = decodePath(rawPath);
    const match = route(path);
    // HTTP/1.1 requires one valid Host (RFC 9112 §3.2); node's own check (requireHostHeader,
    // turned off in service.ts) answers an empty 400 that is not JSON, and checks no more.
    const hostProblem = checkHost(req);
    if (hostProblem) {
      const err = new HttpError(400, 'bad_request', hostProblem);
      if (!match) throw err;
      return reject(req, res, match.route, err);
    }
    if (!match) {
      if (deps.notFound?.(req, res)) return;
      throw new HttpError(404, 'not_found', 'No such path. The API is described at /openapi.json.');
    }
    const method = req.method ?? 'GET';
    const handler =
      match.route.methods[method as keyof Route['methods']] ??
      (method === 'HEAD' ? match.route.methods.GET : undefined);
    if (handler) return handler(req, res, { path, query, params: match.params });
    const allow = allowedMethods(match.route).join(', ');
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        ...PREFLIGHT_HEADERS,
        'Access-Control-Allow-Methods': allow,
        Allow: allow,
      });
      res.end();
      return;
    }
    reject(
      req,
      res,
      match.route,
      new HttpError(
        405,
        'method_not_allowed',
        'This method is not allowed on this path.',
        undefined,
        {
          Allow: allow,
        },
      ),
    );
  };

  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown): void => {
    if (isClientGone(req, err)) {
      logger.debug({ code: (err as { code?: unknown }).code }, 'client went away');
      return;
    }
    if (res.headersSent) {
      logger.error({ err }, 'failed after the response started');
      res.destroy();
      return;
    }
    if (err instanceof HttpError) {
      sendError(req, res, err);
      return;
    }
    if (isServiceError(err)) {
      sendJson(req, res, err.status, errorBody(err), { ...err.headers });
      return;
    }
    if (isStoreUnavailable(err)) {
      logger.debug({ method: req.method, url: req.url, err }, 'store unavailable');
      sendError(req, res, storeUnavailable(err));
      return;
    }
    logger.error({ err, method: req.method }, 'unhandled error');
    sendError(req, res, new HttpError(500, 'internal_error', 'Something went wrong on our side.'));
  };

  const debug = logger.isLevelEnabled('debug');
  const logRequest = (req: IncomingMessage, res: ServerResponse, started: number): void => {
    logger.debug(
      { method: req.method, url: req.url, status: res.statusCode, ms: performance.now() - started },
      'request',
    );
  };

  // Handlers that answer from memory run synchronously: no promise per request on the hot path.
  return (req, res) => {
    const started = debug ? performance.now() : 0;
    let pending: void | Promise<void> = undefined;
    try {
      pending = handle(req, res);
    } catch (err) {
      fail(req, res, err);
    }
    if (pending) {
      pending.then(
        () => debug && logRequest(req, res, started),
        (err: unknown) => {
          fail(req, res, err);
          if (debug) logRequest(req, res, started);
        },
      );
    } else if (debug) logRequest(req, res, started);
  };
}
