import { serviceUrls } from '../../src/catalogue.js';
import { Business } from '../../src/domain/business.js';
import type { Review } from '../../src/domain/review.js';
import { serializeReview } from '../../src/domain/serialize.js';
import { buildSnapshot } from '../../src/snapshot/index.js';
import type { Snapshot } from '../../src/snapshot/types.js';
import { testBusiness } from './fixtures.js';

/**
 * A published data version of the test business and these reviews, served at
 * https://reviews.example.com without a hub, with a small response cache.
 */
export function testSnapshot(
  state: { version: number; changedAt: string },
  reviews: readonly Review[],
): Snapshot {
  return buildSnapshot(
    {
      state,
      business: Business.parse(testBusiness()),
      reviews: reviews.map(serializeReview),
    },
    {
      urls: serviceUrls('https://reviews.example.com'),
      hub: false,
      responseCache: { maxEntries: 10, maxBytes: 1_000_000 },
    },
  );
}
