import { createHash } from 'node:crypto';
import type { SortKey } from './order.js';

/** A fingerprint of the arguments a cursor belongs to (everything but the cursor itself). */
export function fingerprint(args: Record<string, unknown>): string {
  const { cursor: _cursor, ...rest } = args;
  const sorted = Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('base64url').slice(0, 16);
}

/** An opaque cursor: the sort key of the last item returned and the arguments' fingerprint. */
export function encodeCursor(key: SortKey, print: string): string {
  return Buffer.from(JSON.stringify([key, print])).toString('base64url');
}

/** Decodes a cursor; `null` when it is malformed or was made for other arguments. */
export function decodeCursor(cursor: string, print: string): SortKey | null {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(value) || value.length !== 2 || value[1] !== print) return null;
    const key = value[0] as unknown;
    if (!Array.isArray(key) || key.length !== 3 || !key.every((k) => typeof k === 'string'))
      return null;
    return key as unknown as SortKey;
  } catch {
    return null;
  }
}
