/**
 * The request listener: the dispatcher (src/http/dispatch.ts) behind one error boundary that
 * renders every fault by the surface of its route, a debug log line per request, and the
 * request metrics' observation when they are on.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createDispatcher, type NotFound } from './http/dispatch.js';
import { internalError, storeUnavailable } from './http/errors.js';
import { isClientGone, sendError } from './http/respond.js';
import type { Route } from './http/router.js';
import type { Logger } from './logger.js';
import { isServiceError, type ServiceError } from './platform/errors.js';
import { isStoreUnavailable } from './store/index.js';

export interface AppDeps {
  routes: readonly Route[];
  logger: Logger;
  /**
   * Given the first word on a path no route knows: answers it (the pages' HTML 404 for a
   * browser) and returns true, or returns false for the JSON 404.
   */
  notFound?: NotFound;
  /**
   * Told of each request once its handler is done (a stream's once it has started or ended, as
   * its handler returns): its route as declared (null: none), method, status and duration.
   */
  observe?: (route: Route | null, method: string | undefined, status: number, s: number) => void;
}

type Fail = (req: IncomingMessage, res: ServerResponse, err: unknown) => void;

/**
 * The error boundary: a `ServiceError` is rendered by its route's `renderError` (JSON
 * `{ error, message, issues? }` by default); the store away is its 503; anything else is logged
 * and becomes a generic 500 that reveals nothing. A client gone, or an answer already started,
 * gets nothing more.
 */
function errorBoundary(logger: Logger, routeOf: (req: IncomingMessage) => Route | undefined): Fail {
  const toServiceError = (req: IncomingMessage, err: unknown): ServiceError => {
    // The store's own faults first: whatever type the store gives them, their answer is this 503.
    if (isStoreUnavailable(err)) {
      logger.debug({ method: req.method, url: req.url, err }, 'store unavailable');
      return storeUnavailable(err);
    }
    if (isServiceError(err)) return err;
    logger.error({ err, method: req.method }, 'unhandled error');
    return internalError(err);
  };
  return (req, res, err) => {
    if (isClientGone(req, err)) {
      logger.debug({ code: (err as { code?: unknown }).code }, 'client went away');
      return;
    }
    if (res.headersSent) {
      logger.error({ err }, 'failed after the response started');
      res.destroy();
      return;
    }
    const render = routeOf(req)?.renderError ?? sendError;
    render(req, res, toServiceError(req, err));
  };
}

/**
 * Builds the request listener: routes by exact path (or prefix with one parameter), answers
 * OPTIONS preflights, 400 for an HTTP/1.1 request without Host, 404 for unknown paths and 405
 * with `Allow` for wrong methods; every error is rendered by the boundary (`errorBoundary`).
 * Handlers that answer from memory run synchronously: no promise per request on the hot path.
 */
export function createApp(deps: AppDeps): RequestListener {
  const { logger, observe } = deps;
  const { dispatch, routeOf, matched } = createDispatcher(deps.routes, deps.notFound);
  const fail = errorBoundary(logger, routeOf);
  const debug = logger.isLevelEnabled('debug');
  const timed = debug || observe !== undefined;
  const done = (req: IncomingMessage, res: ServerResponse, route: Route | null, t0: number) => {
    const ms = performance.now() - t0;
    observe?.(route, req.method, res.statusCode, ms / 1000);
    if (debug) {
      logger.debug({ method: req.method, url: req.url, status: res.statusCode, ms }, 'request');
    }
  };
  return (req, res) => {
    const started = timed ? performance.now() : 0;
    let pending: void | Promise<void> = undefined;
    try {
      pending = dispatch(req, res);
    } catch (err) {
      fail(req, res, err);
    }
    const route = observe ? matched() : null;
    if (pending) {
      pending.then(
        () => timed && done(req, res, route, started),
        (err: unknown) => {
          fail(req, res, err);
          if (timed) done(req, res, route, started);
        },
      );
    } else if (timed) done(req, res, route, started);
  };
}
