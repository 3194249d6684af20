import { z } from 'zod';
import { DEFAULT_RESULT_TOKENS, shapeReview, structuredBudget } from '../agent.js';
import { reviewsText } from '../text-copy.js';
import { oneReviewDetailField, ReviewItem } from './schemas.js';
import type { ToolDefinition } from './types.js';

/** `get_review`: one review by id, cut to the result's budget. */

export const getReview: ToolDefinition = {
  name: 'get_review',
  title: 'Get one review',
  description:
    'One review by its id (the `id` field of any review): the full record by default, or the compact shape. A text too long for the result (reviews may hold 20,000 characters) is cut, saying so; the resource review://{id} holds the whole record.',
  input: z.strictObject({
    id: z.string().min(1).max(100).describe('The review id.'),
    detail: oneReviewDetailField,
  }),
  output: z.object({ review: ReviewItem }),
  run(args, ctx) {
    const pos = ctx.snapshot.index.positionOf(String(args.id));
    if (pos < 0) return { error: 'No review has this id.' };
    const review = shapeReview(
      ctx.snapshot.review(pos),
      args.detail as 'compact' | 'full',
      ctx.urls.base,
      structuredBudget(DEFAULT_RESULT_TOKENS) - 32,
    );
    return { structured: { review }, text: reviewsText('One review.', [review]) };
  },
};
