import type { SortKey } from '../../reviews/order.js';
import type { ServiceError } from '../../platform/errors.js';
import { invalidArgument } from './errors.js';

/**
 * The cursors of MCP results, short because an agent pays for each one twice (in
 * `structuredContent` and in the text copy's head line): the sort key of the last review of a
 * page (`20261031.mh3k2f5c.<id>`: the local date, the publication instant in base-36
 * milliseconds, the id), an offset into a list, or the key of the last group of a summary, each
 * followed by a short fingerprint of the filters it belongs to.
 */
const PRINT_CHARS = 10;

const short = (print: string) => print.slice(0, PRINT_CHARS);

/** A cursor after a review's sort key. */
export function keyCursor([date, published, id]: SortKey, print: string): string {
  return `${date.replace(/-/g, '')}.${Date.parse(published).toString(36)}.${id}.${short(print)}`;
}

/** The sort key of a review cursor made for `print`, or `null`. */
export function readKeyCursor(cursor: string, print: string): SortKey | null {
  const m = /^(\d{4})(\d{2})(\d{2})\.([0-9a-z]{1,12})\.([^.]{1,100})\.([^.]+)$/.exec(cursor);
  if (!m || m[6] !== short(print)) return null;
  const ms = parseInt(m[4]!, 36);
  const published = new Date(ms);
  if (!Number.isSafeInteger(ms) || Number.isNaN(published.getTime())) return null;
  return [`${m[1]}-${m[2]}-${m[3]}`, published.toISOString(), m[5]!];
}

/** A cursor at an offset of a list. */
export function offsetCursor(offset: number, print: string): string {
  return `o${offset}.${short(print)}`;
}

/** The offset of a list cursor made for `print`, or `null`. */
export function readOffsetCursor(cursor: string, print: string): number | null {
  const m = /^o(\d{1,9})\.([^.]+)$/.exec(cursor);
  return m && m[2] === short(print) ? Number(m[1]) : null;
}

/** A cursor after a group (of a summary) by its key. */
export function groupCursor(key: string, print: string): string {
  return `g${Buffer.from(key).toString('base64url')}.${short(print)}`;
}

/** The key of a group cursor made for `print`, or `null`. */
export function readGroupCursor(cursor: string, print: string): string | null {
  const m = /^g([A-Za-z0-9_-]{1,400})\.([^.]+)$/.exec(cursor);
  return m && m[2] === short(print) ? Buffer.from(m[1]!, 'base64url').toString('utf8') : null;
}

/**
 * The error of a cursor that does not continue this call: it belongs to another one (`what`:
 * other filters, another tool, data that changed since). It says so, and that the way on is to
 * drop it (a new first page) or to send it with the arguments of the call that returned it.
 */
export function foreignCursor(what: string): ServiceError {
  return invalidArgument(
    'cursor',
    `belongs to another call (${what}): drop cursor to start again from the first page, or send it with the arguments of the call that returned it`,
  );
}
