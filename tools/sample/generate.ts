import type { ReviewSourceInput } from '../../src/domain/review.js';
import { dealerRaterAuthor, googleAuthor } from './authors.js';
import { composeEnglish, type Written } from './compose-en.js';
import { composeSpanish } from './compose-es.js';
import type { LocalDateTime } from './local-time.js';
import { createRng, mix32 } from './prng.js';
import { writeReply } from './response.js';
import { buildRow, type RowIdentity } from './review-row.js';
import { dealerRaterReviewUrl, googleReviewId, googleReviewUrl } from './source-ids.js';
import { postingTimes } from './timeline.js';
import { writeTitle } from './title.js';
import { sampleVisit } from './visit.js';

/** What to generate: the seed fixes every byte; the count spreads over the same window. */
export interface GenerateOptions {
  seed: number;
  count: number;
}

/** The seed and size of the committed sample (`sample/dealership.json`). */
export const DEFAULT_OPTIONS: GenerateOptions = { seed: 20261031, count: 1800 };

const TIMELINE_STREAM = 0;

/**
 * A DealerRater review id for the review at `index`: increasing with the index and never
 * repeated (each index owns a block of `spread` ids and takes one of them), so ids look like
 * DealerRater's site-wide sequence without depending on the reviews before.
 */
function dealerRaterId(seed: number, count: number, index: number): number {
  const spread = Math.max(1, Math.floor(2_400_000 / Math.max(1, count)));
  return (
    1_041_226 + (mix32(seed, 7) % 5000) + index * spread + (mix32(seed ^ 0xd1, index) % spread)
  );
}

/**
 * Writes the review at one position of the sample, posted at `t`. It depends only on the seed,
 * the count and the index, never on the reviews before it, so any slice of the sample can be
 * made on its own (the parallel writer relies on it) and editing how one review is written
 * leaves the others byte-for-byte as they were.
 */
export function reviewAt(
  options: GenerateOptions,
  index: number,
  t: LocalDateTime,
): ReviewSourceInput {
  const { seed, count } = options;
  const rng = createRng(seed, index + 1);
  const v = sampleVisit(rng, index, t);
  const hispanic = v.language === 'es' || rng.chance(0.12);
  const author =
    v.source === 'google' ? googleAuthor(rng, hispanic, v.day) : dealerRaterAuthor(rng, hispanic);
  const written: Written | null = v.ratingOnly
    ? null
    : v.language === 'es'
      ? composeSpanish(v, rng)
      : composeEnglish(v, rng);
  const reply = writeReply(rng, v, written, author);
  let id: RowIdentity;
  if (v.source === 'google') {
    const g = googleReviewId(seed, index);
    id = { sourceReviewId: g.id, sourceUrl: googleReviewUrl(g.id, g.inner), title: null };
  } else {
    const dr = dealerRaterId(seed, count, index);
    id = {
      sourceReviewId: String(dr),
      sourceUrl: dealerRaterReviewUrl(dr),
      title: writeTitle(rng, v, written),
    };
  }
  return buildRow(rng, v, id, author, written, reply);
}

/** The posting times of the sample, oldest first, streamed (see `postingTimes`). */
export function sampleTimes(options: GenerateOptions): Generator<LocalDateTime> {
  return postingTimes(createRng(options.seed, TIMELINE_STREAM), options.count);
}

/**
 * Yields the sample's reviews oldest first, one at a time, so any count streams in constant
 * memory.
 */
export function* generateReviews(options: GenerateOptions): Generator<ReviewSourceInput> {
  let index = 0;
  for (const t of sampleTimes(options)) yield reviewAt(options, index++, t);
}
