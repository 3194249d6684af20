import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Representation } from '../snapshot/types.js';
import { evaluatePreconditions } from './conditional.js';
import type { HttpError } from './errors.js';
import { chooseCoding, type Coding } from './negotiate.js';

/** Headers on every response: CORS for any origin, and no MIME sniffing. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, Last-Modified, Link, Retry-After',
  'X-Content-Type-Options': 'nosniff',
});

/** Cache policy of data responses: a CDN may keep them a minute, then revalidate. */
export const DATA_CACHE_CONTROL =
  'public, max-age=60, stale-while-revalidate=60, stale-if-error=86400';

function codedEtag(etag: string, coding: Coding): string {
  return coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`;
}

/**
 * Sends a prepared representation for a GET or HEAD: content coding from Accept-Encoding
 * (with `Vary`), conditional requests per RFC 9110 (304 with the validators and no body, 412 for
 * failed If-Match), and `Content-Length` on HEAD as on GET.
 */
export function sendRepresentation(
  req: IncomingMessage,
  res: ServerResponse,
  rep: Representation,
): void {
  const available: Coding[] = [];
  const br = rep.encoded('br');
  const gz = rep.encoded('gzip');
  if (br) available.push('br');
  if (gz) available.push('gzip');
  const coding = chooseCoding(req.headers['accept-encoding'], available);
  const etag = codedEtag(rep.etag, coding);
  const headers: Record<string, string | number> = {
    ...COMMON_HEADERS,
    'Cache-Control': DATA_CACHE_CONTROL,
    ...rep.headers,
    Vary: 'Accept-Encoding',
    ETag: etag,
    'Last-Modified': rep.lastModified,
  };
  const outcome = evaluatePreconditions(req.headers, {
    etag,
    equivalent: [rep.etag, codedEtag(rep.etag, 'gzip'), codedEtag(rep.etag, 'br')],
    lastModifiedMs: rep.lastModifiedMs,
  });
  if (outcome === 'not-modified') {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  if (outcome === 'failed') {
    sendJson(req, res, 412, {
      error: 'precondition_failed',
      message: 'The representation does not match the request preconditions.',
    });
    return;
  }
  const body = coding === 'br' ? br! : coding === 'gzip' ? gz! : rep.body;
  headers['Content-Type'] = rep.contentType;
  headers['Content-Length'] = body.length;
  if (coding !== 'identity') headers['Content-Encoding'] = coding;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Sends a small JSON document that is not cached (errors, health). */
export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  value: unknown,
  extra: Record<string, string> = {},
): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'Cache-Control': 'no-store',
    ...extra,
    'Content-Type': 'application/json',
    'Content-Length': body.length,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Renders an `HttpError` as `{ error, message, issues? }`. */
export function sendError(req: IncomingMessage, res: ServerResponse, err: HttpError): void {
  const payload: Record<string, unknown> = { error: err.code, message: err.message };
  if (err.issues) payload.issues = err.issues;
  sendJson(req, res, err.status, payload, err.headers);
}
