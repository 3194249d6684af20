/**
 * What a request's first line and Host header say before any route runs: the decoded path and
 * the raw query of its target, and whether its Host header is one RFC 9112 accepts.
 */
import type { IncomingMessage } from 'node:http';
import { ServiceError } from '../platform/errors.js';

export interface RequestTarget {
  /** The decoded path. */
  path: string;
  /** The raw query string without `?` ('' when none). */
  query: string;
}

/**
 * The path (percent-decoded) and raw query of a request target in origin-form (`/path?query`) or
 * absolute-form (`http://host/path`); a 400 `invalid_request` for a target that is neither, or a
 * path with malformed percent-encoding.
 */
export function readTarget(target: string): RequestTarget {
  let t = target;
  if (!t.startsWith('/')) {
    // absolute-form (`GET http://host/path`) or asterisk-form
    try {
      const u = new URL(t);
      t = `${u.pathname}${u.search}`;
    } catch {
      throw new ServiceError('invalid_request', 'The request target is not a valid path.');
    }
  }
  const q = t.indexOf('?');
  const rawPath = q === -1 ? t : t.slice(0, q);
  return { path: decodePath(rawPath), query: q === -1 ? '' : t.slice(q + 1) };
}

function decodePath(rawPath: string): string {
  // Most paths have nothing encoded: no decoding, no new string.
  if (!rawPath.includes('%')) return rawPath;
  try {
    return decodeURIComponent(rawPath);
  } catch {
    throw new ServiceError('invalid_request', 'The path has malformed percent-encoding.');
  }
}

/** `uri-host [ ":" port ]` (RFC 3986: an IP literal, or a reg-name), or empty. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]*)(?::\d*)?$/;

/**
 * The 400 `bad_request` of a request whose Host header breaks RFC 9112 §3.2 (a server must answer
 * 400 to a request without one in HTTP/1.1, with more than one, or with an invalid one), or null.
 * Node's own check (`requireHostHeader`, turned off in service.ts) answers an empty 400 that is
 * not JSON, and checks no more.
 */
export function hostProblem(req: IncomingMessage): ServiceError | null {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    // Compared without a lower-cased copy of every header name.
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  let why: string | null;
  if (count === 0)
    why = req.httpVersion === '1.1' ? 'An HTTP/1.1 request must have a Host header.' : null;
  else if (count > 1) why = 'A request must have one Host header, not several.';
  else why = HOST.test(req.headers.host ?? '') ? null : 'The Host header is not a valid host.';
  return why === null ? null : new ServiceError('bad_request', why);
}
