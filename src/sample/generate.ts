import type { ReviewSourceInput } from '../domain/review.js';
import { dealerRaterAuthor, googleAuthor } from './authors.js';
import { composeEnglish, type Written } from './compose-en.js';
import { composeSpanish } from './compose-es.js';
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
const DEALERRATER_STREAM = 0xfffffff0;

/**
 * Yields the sample's reviews oldest first, one at a time, so any count streams in constant
 * memory. Each review draws from its own random stream (seed and index), so changing how one
 * review is written leaves the others as they were; only the timeline and DealerRater's
 * increasing ids are drawn in sequence.
 */
export function* generateReviews(options: GenerateOptions): Generator<ReviewSourceInput> {
  const { seed, count } = options;
  const ids = createRng(seed, DEALERRATER_STREAM);
  const spread = Math.max(1, Math.floor(800_000 / Math.max(1, count)));
  let drId = 1_041_226 + (mix32(seed, 7) % 5000);
  let index = 0;
  for (const t of postingTimes(createRng(seed, TIMELINE_STREAM), count)) {
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
      drId += 1 + ids.int(0, 2 * spread);
      id = { sourceReviewId: String(drId), sourceUrl: dealerRaterReviewUrl(drId), title: writeTitle(rng, v, written) };
    }
    yield buildRow(rng, v, id, author, written, reply);
    index++;
  }
}
