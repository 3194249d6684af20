import { z } from 'zod';
import { AggregateRatingSchema } from '../../domain/public-schemas.js';
import { AgentReview, TEXT_CAP } from '../agent.js';

/**
 * The argument and output schemas several tools share (cursors, the shape of a review, the
 * aggregate rating), declared once.
 */

export const cursorField = z
  .string()
  .min(1)
  .max(500)
  .optional()
  .describe(
    'Opaque cursor from a previous call (`nextCursor`) to get the next page; keep the other arguments the same.',
  );

/** What each shape of a review holds, for the `detail` arguments below. */
const SHAPES = {
  compact: `id, date, rating, author, title, text, language and translation (when not English), the owner reply, mentions and a link, with no empty fields (texts over ${TEXT_CAP.toLocaleString('en-US')} characters are cut, saying so)`,
  full: "the whole review record (a text too long for the result's budget is cut, saying so; review://{id} has it all)",
};

/** A `detail` argument whose default is `shape`, described with that default first. */
function detailWithDefault(shape: 'compact' | 'full') {
  const other = shape === 'compact' ? 'full' : 'compact';
  return z
    .enum(['compact', 'full'])
    .default(shape)
    .describe(`${shape} (default): ${SHAPES[shape]}. ${other}: ${SHAPES[other]}.`);
}

/** `detail` of the review lists: compact by default (a page holds many reviews). */
export const detailField = detailWithDefault('compact');

/** `detail` of `get_review`: the full record by default (it is one review asked for by id). */
export const oneReviewDetailField = detailWithDefault('full');

/**
 * A review in a page's output schema: the compact shape, or (detail: full) the full record, given
 * loosely here (its schema is `Review` in /openapi.json) to keep `tools/list` short.
 */
export const ReviewItem = z.union([
  AgentReview,
  z
    .looseObject({
      id: z.string(),
      reviewRating: z.looseObject({ ratingValue: z.number().int() }),
      date: z.string(),
    })
    .describe(
      'detail "full": the whole review record, as GET /api/reviews/search returns it (schema Review in /openapi.json).',
    ),
]);

/** The aggregate rating, defined once in the output schema (`$defs`) and referred to twice. */
export const AggregateRatingRef = AggregateRatingSchema.meta({ id: 'AggregateRating' });

export const listCursorField = cursorField.describe(
  '`nextCursor` of the previous page (long lists are paged; keep the other arguments the same).',
);
