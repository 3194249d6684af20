import { z } from 'zod';
import { fingerprint } from '../../reviews/cursor.js';
import { DateParam } from '../../reviews/search-schema.js';
import { sincePage } from '../../reviews/since.js';
import { reviewsText } from '../text-copy.js';
import { keyCursor } from '../internal/cursor.js';
import { afterCursor, filtersOf, reviewPage } from './paging.js';
import { cursorField, detailField, ReviewItem } from './schemas.js';
import type { ToolDefinition } from './types.js';

/** `get_reviews_since`: the reviews dated on or after a day, oldest first, paged. */

const SinceInput = z.strictObject({
  date: DateParam.describe('Local date YYYY-MM-DD; reviews dated on or after it.'),
  limit: z.number().int().min(1).max(500).default(20).describe('Page size (1-500, default 20).'),
  detail: detailField,
  cursor: cursorField,
});

export const getReviewsSince: ToolDefinition = {
  name: 'get_reviews_since',
  title: 'Reviews since a date',
  description:
    'Reviews dated on or after a local date, oldest first (date, then publication time, then id), like GET /api/reviews/since/{date}, paged: `total` counts them all; a page ends at `limit` or at its size budget (about 375 tokens per review asked for); `nextCursor` continues (with the same date).',
  input: SinceInput,
  output: z.object({
    since: z.string(),
    count: z.number().int(),
    total: z.number().int(),
    reviews: z.array(ReviewItem),
    nextCursor: z.string().nullable(),
  }),
  run(args, ctx) {
    const { date, limit, detail } = args as z.output<typeof SinceInput>;
    // The candidates of a page: `limit` at most, then cut to the budget.
    const page = sincePage(ctx.snapshot.index, date, limit, afterCursor(args));
    const cut = reviewPage(ctx, page.positions, limit, detail);
    const next = cut.more && cut.last !== undefined ? ctx.snapshot.index.key(cut.last) : page.next;
    const nextCursor = next ? keyCursor(next, fingerprint(filtersOf(args))) : null;
    const head = `${cut.reviews.length} of ${page.total} reviews dated ${date} or later, oldest first${nextCursor ? `; more with cursor ${nextCursor}` : ''}.`;
    return {
      structured: {
        since: date,
        count: cut.reviews.length,
        total: page.total,
        reviews: cut.reviews,
        nextCursor,
      },
      text: reviewsText(head, cut.reviews),
    };
  },
};
