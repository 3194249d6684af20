import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, type ServiceError } from '../platform/errors.js';
import type { Representation } from '../representation/index.js';
import { evaluatePreconditions, notModifiedHeaders } from './conditional.js';
import { chooseCoding, type Coding } from './negotiate.js';

/** Headers on every response: CORS for any origin, and no MIME sniffing. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, Last-Modified, Link, Retry-After, Changes-Cursor',
  'X-Content-Type-Options': 'nosniff',
});

/** Cache policy of data responses: a CDN may keep them a minute, then revalidate. */
export const DATA_CACHE_CONTROL =
  'public, max-age=60, stale-while-revalidate=60, stale-if-error=86400';

function codedEtag(etag: string, coding: Coding): string {
  return coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`;
}

interface HeaderSet {
  etag: string;
  /** The tags of the representation's other codings (the same content). */
  equivalent: readonly string[];
  /** The 304's: those fields of `ok` that RFC 9110 and CORS ask a 304 to repeat. */
  notModified: Record<string, string | number>;
  ok: Record<string, string | number>;
}

/** Response headers per representation and coding, built once and reused by every request. */
const headerSets = new WeakMap<Representation, Map<Coding, HeaderSet>>();

function headerSet(rep: Representation, coding: Coding, body: Buffer): HeaderSet {
  let sets = headerSets.get(rep);
  if (!sets) {
    sets = new Map();
    headerSets.set(rep, sets);
  }
  let set = sets.get(coding);
  if (!set) {
    const etag = codedEtag(rep.etag, coding);
    const ok: Record<string, string | number> = {
      ...COMMON_HEADERS,
      'Cache-Control': DATA_CACHE_CONTROL,
      ...rep.headers,
      Vary: 'Accept-Encoding',
      ETag: etag,
      'Last-Modified': rep.lastModified,
      'Content-Type': rep.contentType,
      'Content-Length': body.length,
    };
    if (coding !== 'identity') ok['Content-Encoding'] = coding;
    const equivalent = [rep.etag, codedEtag(rep.etag, 'gzip'), codedEtag(rep.etag, 'br')];
    set = { etag, equivalent, notModified: notModifiedHeaders(ok), ok };
    sets.set(coding, set);
  }
  return set;
}

/**
 * Sends a prepared representation for a GET or HEAD: content coding from Accept-Encoding
 * (with `Vary`), conditional requests per RFC 9110 (304 with no body and only the fields of
 * `notModifiedHeaders`, 412 for failed If-Match), and `Content-Length` on HEAD as on GET. Header
 * sets are prepared once per representation, so a request costs a lookup and a write.
 */
export function sendRepresentation(
  req: IncomingMessage,
  res: ServerResponse,
  rep: Representation,
): void {
  // Negotiate first, then ask for the bytes: a coding is made only when a client wants it.
  const accept = req.headers['accept-encoding'];
  let coding = accept ? chooseCoding(accept, ['br', 'gzip']) : 'identity';
  let body = coding === 'identity' ? rep.body : rep.encoded(coding);
  if (!body) {
    coding = chooseCoding(accept, [coding === 'br' ? 'gzip' : 'br']);
    body = coding === 'identity' ? rep.body : rep.encoded(coding);
    if (!body) {
      coding = 'identity';
      body = rep.body;
    }
  }
  const set = headerSet(rep, coding, body);
  const h = req.headers;
  if (h['if-none-match'] || h['if-modified-since'] || h['if-match'] || h['if-unmodified-since']) {
    const outcome = evaluatePreconditions(h, {
      etag: set.etag,
      equivalent: set.equivalent,
      lastModifiedMs: rep.lastModifiedMs,
    });
    if (outcome === 'not-modified') {
      res.writeHead(304, set.notModified);
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
  }
  res.writeHead(200, set.ok);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * True when `err` only says that the client went away (it closed the connection before sending
 * its whole request, or before the answer): nothing to answer, nothing the service did wrong.
 */
export function isClientGone(req: IncomingMessage, err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    (req.destroyed || req.socket.destroyed) &&
    (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'EPIPE')
  );
}

/** Sends a small JSON document that is not cached (errors, health). */
export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  value: unknown,
  extra: Readonly<Record<string, string>> = {},
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

/** Renders a `ServiceError` on the API's surface: JSON `{ error, message, issues? }`, not cached. */
export function sendError(req: IncomingMessage, res: ServerResponse, err: ServiceError): void {
  sendJson(req, res, err.status, errorBody(err), err.headers);
}
