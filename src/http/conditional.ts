import type { IncomingHttpHeaders } from 'node:http';
import { dict, type Dict } from '../platform/dict.js';

/** The validators of the selected representation. */
export interface Validators {
  /** Quoted strong entity tag sent with the response. */
  etag: string;
  /** Other quoted entity tags that denote the same content (its other content codings). */
  equivalent: readonly string[];
  /** Last modification, in milliseconds since the epoch. */
  lastModifiedMs: number;
}

export type PreconditionOutcome = 'proceed' | 'not-modified' | 'failed';

interface EntityTag {
  weak: boolean;
  opaque: string;
}

const ETAG_RE = /^\s*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/;

/** Parses an `If-Match` / `If-None-Match` field: `*`, or a list of entity tags; `null` if malformed. */
function parseEtagList(value: string): '*' | EntityTag[] | null {
  if (value.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  let rest = value;
  while (rest.trim() !== '') {
    const m = ETAG_RE.exec(rest);
    if (!m) return null;
    tags.push({ weak: m[1] !== undefined, opaque: m[2]! });
    rest = rest.slice(m[0].length);
  }
  return tags;
}

function parseHttpDate(value: string | undefined): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

function denotesCurrent(opaque: string, v: Validators): boolean {
  return opaque === v.etag || v.equivalent.includes(opaque);
}

/**
 * Evaluates the preconditions of a GET or HEAD in the order of RFC 9110 section 13.2.2:
 * If-Match (strong comparison), else If-Unmodified-Since; then If-None-Match (weak comparison,
 * `*` included), else If-Modified-Since. A malformed If-None-Match is ignored; a malformed
 * If-Match fails, as no representation can match it.
 */
export function evaluatePreconditions(
  headers: IncomingHttpHeaders,
  v: Validators,
): PreconditionOutcome {
  const ifMatch = headers['if-match'];
  const ifNoneMatch = headers['if-none-match'];
  // The common revalidation (the client sends back the one tag it holds): no parsing needed.
  if (ifNoneMatch === v.etag && ifMatch === undefined && !headers['if-unmodified-since']) {
    return 'not-modified';
  }
  const lastModifiedSec = Math.floor(v.lastModifiedMs / 1000);
  if (ifMatch !== undefined) {
    const list = parseEtagList(ifMatch);
    if (list === null) return 'failed';
    if (list !== '*' && !list.some((t) => !t.weak && denotesCurrent(t.opaque, v))) return 'failed';
  } else {
    const since = parseHttpDate(headers['if-unmodified-since']);
    if (since !== null && lastModifiedSec > Math.floor(since / 1000)) return 'failed';
  }
  if (ifNoneMatch !== undefined) {
    const list = parseEtagList(ifNoneMatch);
    if (list === '*') return 'not-modified';
    if (list !== null && list.some((t) => denotesCurrent(t.opaque, v))) return 'not-modified';
    return 'proceed';
  }
  const modifiedSince = parseHttpDate(headers['if-modified-since']);
  if (modifiedSince !== null && lastModifiedSec <= Math.floor(modifiedSince / 1000)) {
    return 'not-modified';
  }
  return 'proceed';
}

/**
 * The fields a 304 repeats from the 200 it stands for, in lower case. RFC 9110 §15.4.5: a 304
 * carries those of Content-Location, Date (Node adds it), ETag, Vary, Cache-Control and Expires
 * that the 200 would, and SHOULD NOT carry other representation metadata unless it guides cache
 * updates. CORS needs Access-Control-Allow-Origin for a script to see the 304 at all, and
 * Access-Control-Expose-Headers for it to read the ETag. Two more stay, each kept by a test of the
 * interface: Last-Modified (clients that revalidate with If-Modified-Since keep the date current)
 * and Link (WebSub discovery: the hub and self of a topic, on every answer a subscriber sees).
 */
const NOT_MODIFIED_FIELDS: ReadonlySet<string> = new Set([
  'content-location',
  'etag',
  'vary',
  'cache-control',
  'expires',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'last-modified',
  'link',
]);

/** The headers of a 304 from those of the 200 it stands for (see `NOT_MODIFIED_FIELDS`). */
export function notModifiedHeaders<V>(ok: Readonly<Record<string, V>>): Record<string, V> {
  const kept: Dict<V> = dict();
  for (const [name, value] of Object.entries(ok)) {
    if (NOT_MODIFIED_FIELDS.has(name.toLowerCase())) kept[name] = value;
  }
  return kept;
}
