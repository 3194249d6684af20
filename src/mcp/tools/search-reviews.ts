import { z } from 'zod';
import { fingerprint } from '../../reviews/cursor.js';
import { checkSearchRanges, searchFields } from '../../reviews/search-schema.js';
import { runSearch } from '../../reviews/search.js';
import { insightsPending } from '../../reviews/aspect-index.js';
import { reviewsText } from '../text-copy.js';
import { keyCursor } from '../internal/cursor.js';
import { invalidParams } from '../internal/errors.js';
import { unknownName } from './did-you-mean.js';
import { afterCursor, filtersOf, reviewPage } from './paging.js';
import { cursorField, detailField, ReviewItem } from './schemas.js';
import type { ToolDefinition } from './types.js';

/** `search_reviews`: the reviews matching filters (those of GET /api/reviews/search), paged. */

const SearchToolInput = z
  .strictObject({ ...searchFields, detail: detailField, cursor: cursorField })
  .superRefine(checkSearchRanges);

export const searchReviews: ToolDefinition = {
  name: 'search_reviews',
  title: 'Search reviews',
  description:
    'Search the reviews (the rules of GET /api/reviews/search). Optional filters, combined with AND: rating, min_rating, max_rating, since, until, query, mentions_technician, mentions_service (id from list_services), aspect and polarity (what a review is about, whatever its words: aspect wait-time with polarity negative is the complaints about waiting; counts match get_insights), limit (1-100, default 20). Newest first; `total` counts all matches; a page ends at `limit` or its size budget (about 375 tokens per review asked for): pass `nextCursor` back as `cursor` with the same filters. detail: compact (default) or full.',
  input: SearchToolInput,
  output: z.object({
    count: z.number().int(),
    total: z.number().int(),
    limit: z.number().int(),
    reviews: z.array(ReviewItem),
    nextCursor: z.string().nullable(),
  }),
  run(args, ctx) {
    const filters = args as z.output<typeof SearchToolInput>;
    const unknown = unknownName(ctx, filters);
    if (unknown) return { error: unknown };
    if ((filters.aspect ?? filters.polarity) !== undefined && !ctx.snapshot.aspects) {
      return { error: insightsPending().message };
    }
    const outcome = runSearch(ctx.snapshot.index, filters, afterCursor(args), ctx.snapshot.aspects);
    if (!outcome.ok) {
      const first = outcome.issues[0]!;
      throw invalidParams(
        `Invalid arguments: ${first.path.join('.')}: ${first.message}`,
        outcome.issues,
      );
    }
    const { hits } = outcome;
    const page = reviewPage(ctx, hits.positions, filters.limit, filters.detail);
    const more = page.more || hits.more;
    const nextCursor =
      more && page.last !== undefined
        ? keyCursor(ctx.snapshot.index.key(page.last), fingerprint(filtersOf(args)))
        : null;
    const head = `${page.reviews.length} of ${hits.total} matching reviews, newest first${nextCursor ? `; more with cursor ${nextCursor}` : ''}.`;
    return {
      structured: {
        count: page.reviews.length,
        total: hits.total,
        limit: filters.limit,
        reviews: page.reviews,
        nextCursor,
      },
      text: reviewsText(head, page.reviews),
    };
  },
};
