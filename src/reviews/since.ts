import type { SortKey } from './order.js';
import { firstBefore, positionAfterKey } from './search.js';
import type { SearchIndex } from './search-index.js';

/** A page of the reviews dated on or after a day, oldest first. */
export interface SincePage {
  /** How many reviews are dated on or after the day. */
  total: number;
  /** Positions (published order is newest first), oldest first. */
  positions: number[];
  /** The sort key to continue after, or `null` when this page ends the result. */
  next: SortKey | null;
}

/**
 * The reviews dated on or after `since`, oldest first (date, then datePublished, then id, all
 * ascending), `limit` at a time; `after` continues from a page's `next` key, even when the review
 * with that key is gone. The same rule for `GET /api/reviews/since/{date}` and MCP.
 */
export function sincePage(
  index: SearchIndex,
  since: string,
  limit: number,
  after?: SortKey,
): SincePage {
  const total = firstBefore(index, since);
  // Oldest first: positions total-1 down to 0; a cursor resumes just newer than its key.
  const start = after ? Math.min(total, positionAfterKey(index, after, true)) - 1 : total - 1;
  const positions: number[] = [];
  for (let p = start; p >= 0 && positions.length < limit; p--) positions.push(p);
  const last = positions.at(-1);
  return {
    total,
    positions,
    next: last !== undefined && last > 0 ? index.key(last) : null,
  };
}
