import type { IncomingMessage, ServerResponse } from 'node:http';
import { OPENAPI_PATH } from '../../catalogue.js';
import type { Business } from '../../domain/business.js';
import { COMMON_HEADERS, sendJson } from '../../http/respond.js';
import { errorBody, ServiceError, type Issue } from '../../platform/errors.js';
import { renderErrorPage } from './error-page.js';
import type { Site } from './layout.js';
import { HTML } from './render-cache.js';

/**
 * The errors of the pages: the `ServiceError`s they throw, and their one renderer. A page's fault
 * is a `ServiceError` like any other (the API's code and status; the headers it needs); what only
 * the HTML page tells (which thing is missing, the links it offers) rides along as `page`. The
 * renderer answers a browser with the friendly HTML page and a program that asks for JSON with
 * the API's JSON error `{ error, message, issues? }`.
 */

/** A link the error page offers (a staff member's full name, the last page). */
export interface Choice {
  label: string;
  href: string;
}

/** What the HTML error page says beyond the error's status and issues. */
export interface PageHint {
  /** 404: no page at this address (the default), no such review, or past the last page. */
  readonly missing?: 'page' | 'review' | 'results';
  /** 404 past the last page: a link to the last page there is. */
  readonly last?: Choice;
  /** 400 of a first name several staff members share: a link per full name. */
  readonly choices?: readonly Choice[];
}

/** A fault of the pages: a `ServiceError`, with what its HTML page tells. */
export type PageError = ServiceError & { readonly page?: PageHint };

function pageError(error: ServiceError, page?: PageHint): PageError {
  return page === undefined ? error : Object.assign(error, { page });
}

/** The 400 of a query the pages cannot use (the API's `invalid_request`). */
export function invalidQuery(issues: readonly Issue[], choices?: readonly Choice[]): PageError {
  return pageError(
    new ServiceError('invalid_request', 'The request has invalid parameters.', {
      status: 400,
      ...(issues.length > 0 ? { issues } : {}),
    }),
    choices === undefined ? undefined : { choices },
  );
}

/** The 404 of a page, a review or a page of results that is not there. */
export function pageNotFound(missing: 'page' | 'review' | 'results', last?: Choice): PageError {
  return pageError(
    new ServiceError('not_found', `No such page. The API is described at ${OPENAPI_PATH}.`, {
      status: 404,
    }),
    last === undefined ? { missing } : { missing, last },
  );
}

/** The 503 of a page whose data is not ready yet (the insights of a version being analysed). */
export function notReady(): PageError {
  return new ServiceError('unavailable', 'Not ready yet; try again in a moment.', {
    status: 503,
    headers: { 'Retry-After': '5' },
  });
}

/** A program that asks for JSON and not HTML. */
function wantsJson(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? '';
  return /\bapplication\/(?:[\w.+-]*\+)?json\b/i.test(accept) && !/\btext\/html\b/i.test(accept);
}

/** Answers a `ServiceError` on a page's path. */
export type ErrorRenderer = (req: IncomingMessage, res: ServerResponse, error: PageError) => void;

/**
 * The renderer of the pages' errors: for a program that asks for JSON (and not HTML), the API's
 * JSON error, as on every path; for anyone else, the HTML error page (never cached) with the
 * pages' security headers (`pageHeaders`) and the error's own (`Retry-After`).
 */
export function createErrorRenderer(
  site: Site,
  pageHeaders: Readonly<Record<string, string>>,
  business: () => Business | null,
): ErrorRenderer {
  return (req, res, error) => {
    if (wantsJson(req)) return sendJson(req, res, error.status, errorBody(error), error.headers);
    const body = Buffer.from(renderErrorPage(site, business(), error));
    res.writeHead(error.status, {
      ...COMMON_HEADERS,
      ...pageHeaders,
      ...error.headers,
      'Cache-Control': 'no-store',
      'Content-Type': HTML,
      'Content-Length': body.length,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
