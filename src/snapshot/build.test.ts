import { describe, expect, it } from 'vitest';
import { testBusiness } from '../../test/helpers/fixtures.js';
import { reviewRecord } from '../../test/helpers/records.js';
import { serviceUrls } from '../catalogue.js';
import { Business } from '../domain/business.js';
import { serializeReview } from '../domain/serialize.js';
import { SearchIndex } from '../reviews/search-index.js';
import { buildVersion, readFacts } from './build.js';

describe('issue 28: the insights read the reviews in the order of the search index', () => {
  it('gives the insights the review of each index position, so aspect lists are positions', async () => {
    // Stored in no particular order, with dates shared by several reviews.
    const records = Array.from({ length: 60 }, (_, i) =>
      reviewRecord({
        key: `r${(i * 37) % 60}`,
        date: `2025-0${1 + (i % 5)}-${String(1 + (i % 7)).padStart(2, '0')}`,
        rating: 1 + (i % 5),
        body: `Review ${i}.`,
      }),
    );
    const { built, text } = buildVersion(
      {
        state: { version: 1, changedAt: '2025-06-01T00:00:00.000Z' },
        business: Business.parse(testBusiness()),
        reviews: records.map(serializeReview),
      },
      { urls: serviceUrls('https://reviews.example.com'), hub: false },
    );
    const index = new SearchIndex(built.index);
    const facts = await readFacts(text);
    expect(facts).toHaveLength(60);
    expect(facts.map((f) => f.id)).toEqual(facts.map((_, pos) => index.id(pos)));
  });
});
