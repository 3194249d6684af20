/**
 * The change feed's cursor: opaque to clients, base64url of the store's epoch and a sequence
 * number ("resume after this change"). The same on every instance of one store and across
 * restarts; a cursor of another store (another epoch) is recognised as such.
 */

/** A decoded cursor. */
export interface ChangeCursor {
  readonly epoch: string;
  readonly seq: number;
}

const DECODED = /^([0-9a-f]{16}):(0|[1-9][0-9]{0,15})$/;
const ENCODED = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeChangeCursor(epoch: string, seq: number): string {
  return Buffer.from(`${epoch}:${seq}`).toString('base64url');
}

/** Decodes a cursor; `null` when it is not one (of any store). */
export function decodeChangeCursor(cursor: string): ChangeCursor | null {
  if (!ENCODED.test(cursor)) return null;
  const m = DECODED.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!m) return null;
  const seq = Number(m[2]);
  return Number.isSafeInteger(seq) ? { epoch: m[1]!, seq } : null;
}

/** What a client is told of a cursor of another store's feed (HTTP 410, the MCP tool's error). */
export const CURSOR_EXPIRED_MESSAGE =
  "The cursor is not one of this store's change feed (the store was replaced): start again from /reviews.json (its Changes-Cursor header says where to follow the feed from), or follow the feed from its beginning, without `after`.";

/** The header of `/reviews.json` that holds the feed's cursor as of its data version. */
export const CHANGES_CURSOR_HEADER = 'Changes-Cursor';
