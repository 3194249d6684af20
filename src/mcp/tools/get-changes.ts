import { z } from 'zod';
import type { Review } from '../../domain/review.js';
import { CURSOR_EXPIRED_MESSAGE } from '../../reviews/change-cursor.js';
import { ChangeCursorParam } from '../../reviews/changes-schema.js';
import {
  fitPage,
  jsonBytes,
  pageTokens,
  shapeReview,
  structuredBudget,
  type AgentReview,
} from '../agent.js';
import { reviewText, type TextBuilder } from '../text-copy.js';
import { PAGE_OVERHEAD_BYTES } from './paging.js';
import { detailField } from './schemas.js';
import type { ToolContext, ToolDefinition } from './types.js';

/**
 * `get_changes`: the change feed of GET /api/reviews/changes (the same entries and the same
 * cursors), paged to the tools' size budget.
 */

const ChangesInput = z.strictObject({
  after: ChangeCursorParam.optional().describe(
    '`nextCursor` of the previous call; without it, the beginning.',
  ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .describe('Changes per page (1-100, default 20).'),
  detail: detailField.describe('compact (default) or full, as in search_reviews.'),
});

const Removal = z.object({
  seq: z.number().int(),
  type: z.literal('removal'),
  id: z.string(),
  removedAt: z.string(),
  reason: z.enum(['deleted', 'hidden']),
});
type Removal = z.infer<typeof Removal>;

// The review loosely (its shapes are search_reviews'), so that `tools/list` stays short.
const Upsert = z.object({
  seq: z.number().int(),
  type: z.literal('upsert'),
  review: z.looseObject({ id: z.string() }),
});
type Change = { seq: number; type: 'upsert'; review: AgentReview | Review } | Removal;

/** The entries of a page, each with its size and how to cut it to a budget. */
function* entries(ctx: ToolContext, start: number, end: number, detail: 'compact' | 'full') {
  const { snapshot, urls } = ctx;
  const index = snapshot.changes;
  for (let i = start; i < end; i++) {
    const seq = index.seq(i);
    const shape = (review: Review, maxBytes?: number): Change => ({
      seq,
      type: 'upsert',
      review: shapeReview(review, detail, urls.base, maxBytes),
    });
    const review = index.isRemoval(i) ? null : snapshot.review(index.position(i));
    const value: Change = review ? shape(review) : (index.removal(i) as Removal);
    yield {
      seq,
      value,
      bytes: jsonBytes(value),
      shrink: (max: number) => (review ? shape(review, max) : value),
    };
  }
}

function changesText(head: string, changes: readonly Change[]): TextBuilder {
  return ({ cap }) =>
    [
      head,
      ...changes.map((c) =>
        c.type === 'removal'
          ? `#${c.seq} removed ${c.id} (${c.reason}, ${c.removedAt})`
          : `#${c.seq} published: ${reviewText(c.review, cap)}`,
      ),
    ].join('\n');
}

export const getChanges: ToolDefinition = {
  name: 'get_changes',
  title: 'Changes to the reviews',
  description:
    'The change feed of GET /api/reviews/changes, same cursors: each review once, at its latest change, oldest first: `upsert` (the review now) or `removal` (id, removedAt, reason: deleted or hidden). No `after`: from the beginning; pass `nextCursor` as `after` for more, or later for what changed since.',
  input: ChangesInput,
  output: z.object({
    changes: z.array(z.discriminatedUnion('type', [Upsert, Removal])),
    nextCursor: z.string(),
    more: z.boolean(),
  }),
  run(args, ctx) {
    const { after, limit, detail } = args as z.output<typeof ChangesInput>;
    const index = ctx.snapshot.changes;
    const from = index.resume(after);
    if (from === null) return { error: CURSOR_EXPIRED_MESSAGE };
    const page = index.page(from, limit);
    const cut = fitPage(
      entries(ctx, page.start, page.end, detail),
      limit,
      structuredBudget(pageTokens(limit)) - PAGE_OVERHEAD_BYTES,
      (e) => e.bytes,
      (e, maxBytes) => ({ ...e, value: e.shrink(maxBytes) }),
    );
    const more = cut.more || page.more;
    const nextCursor = index.cursor(cut.more ? cut.taken.at(-1)!.seq : page.next);
    const changes = cut.taken.map((e) => e.value);
    const head = `${changes.length} changes, oldest first; ${more ? `more with after=${nextCursor}` : `none after them for now; later, ask again with after=${nextCursor}`}.`;
    return { structured: { changes, nextCursor, more }, text: changesText(head, changes) };
  },
};
