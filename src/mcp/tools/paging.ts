import type { Review } from '../../domain/review.js';
import { fingerprint } from '../../reviews/cursor.js';
import type { SortKey } from '../../reviews/search.js';
import type { Snapshot } from '../../snapshot/types.js';
import {
  DEFAULT_RESULT_TOKENS,
  fitPage,
  jsonBytes,
  pageTokens,
  shapeReview,
  structuredBudget,
  TEXT_CUT,
  type AgentReview,
} from '../agent.js';
import {
  foreignCursor,
  offsetCursor,
  readGroupCursor,
  readKeyCursor,
  readOffsetCursor,
} from '../internal/cursor.js';
import { fitStrings } from '../internal/fit.js';
import type { ToolContext } from './types.js';

/**
 * Paging the tools' results: the cursors (bound to the filters they were made for) and the pages
 * cut to a result's size budget (reviews, groups of a summary, lists of staff and services).
 */

/** The arguments a cursor is bound to: the filters, not the page size or the shape. */
export function filtersOf(args: Record<string, unknown>): Record<string, unknown> {
  const { cursor: _c, limit: _l, detail: _d, ...filters } = args;
  return filters;
}

/** What a cursor refused by a tool may have been made for. */
const OTHER_FILTERS = 'other filters, or another tool';

export function afterCursor(args: Record<string, unknown>): SortKey | undefined {
  if (typeof args.cursor !== 'string') return undefined;
  const key = readKeyCursor(args.cursor, fingerprint(filtersOf(args)));
  if (!key) throw foreignCursor(OTHER_FILTERS);
  return key;
}

/** What a page's structured content holds besides its reviews (counts, the cursor). */
export const PAGE_OVERHEAD_BYTES = 400;

/**
 * The reviews at some positions, in the shape asked for, cut to the budget of `limit` (a review
 * larger than the whole budget has its longest texts cut, saying so).
 */
export function reviewPage(
  ctx: ToolContext,
  positions: Iterable<number>,
  limit: number,
  detail: 'compact' | 'full',
): { reviews: (AgentReview | Review)[]; last: number | undefined; more: boolean } {
  const base = ctx.urls.base;
  const items = (function* () {
    for (const pos of positions) {
      const review = ctx.snapshot.review(pos);
      const value = shapeReview(review, detail, base);
      yield { pos, review, value, bytes: jsonBytes(value) };
    }
  })();
  const { taken, more } = fitPage(
    items,
    limit,
    structuredBudget(pageTokens(limit)) - PAGE_OVERHEAD_BYTES,
    (i) => i.bytes,
    (i, maxBytes) => ({ ...i, value: shapeReview(i.review, detail, base, maxBytes) }),
  );
  return { reviews: taken.map((i) => i.value), last: taken.at(-1)?.pos, more };
}

export function afterGroup(cursor: string, print: string): string {
  const key = readGroupCursor(cursor, print);
  if (key === null) throw foreignCursor(OTHER_FILTERS);
  return key;
}

function listOffset(cursor: string, print: string): number {
  const offset = readOffsetCursor(cursor, print);
  if (offset === null) throw foreignCursor(`${OTHER_FILTERS}, or data that changed since`);
  return offset;
}

/**
 * A page of a list (staff, services) within the default budget: as many items as fit, the
 * count of all and a cursor for the rest. Lists are short on a real roster; this bounds the
 * largest a business profile and the sources' tags may make (thousands of names).
 */
export function listPage<T>(
  items: readonly T[],
  args: Record<string, unknown>,
  snapshot: Snapshot,
): { taken: T[]; total: number; nextCursor: string | null } {
  const print = fingerprint({ ...filtersOf(args), version: snapshot.state.version });
  const offset = typeof args.cursor === 'string' ? listOffset(args.cursor, print) : 0;
  const { taken, more } = fitPage(
    items.slice(offset),
    Number.MAX_SAFE_INTEGER,
    structuredBudget(DEFAULT_RESULT_TOKENS) - PAGE_OVERHEAD_BYTES,
    jsonBytes,
    (item, maxBytes) =>
      fitStrings(item, maxBytes, {
        weight: (k) => (k === 'name' ? 4 : k === 'synonyms[]' ? 1 : 0),
        mark: () => TEXT_CUT,
      }),
  );
  return {
    taken,
    total: items.length,
    nextCursor: more ? offsetCursor(offset + taken.length, print) : null,
  };
}
