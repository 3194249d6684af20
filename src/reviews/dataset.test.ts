import { describe, expect, it } from 'vitest';
import { testBusiness } from '../../test/helpers/fixtures.js';
import { computeAggregate } from '../domain/aggregate.js';
import { Business } from '../domain/business.js';
import type { Review } from '../domain/review.js';
import { reviewRecord } from '../../test/helpers/records.js';
import { ReviewsDocumentWriter, toPublicBusiness } from './dataset.js';

const reviews: Review[] = [
  reviewRecord({ key: 'a', rating: 5, body: 'Très bien — 5★ 🚗' }),
  reviewRecord({ key: 'b', rating: 2, body: null }),
  reviewRecord({ key: 'c', rating: 4, body: 'Fine.' }),
];
const texts = reviews.map((r) => JSON.stringify(r));
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

describe('ReviewsDocumentWriter', () => {
  it('writes /reviews.json as the reviews come, the head last, with the offset of each review', () => {
    const business = Business.parse(testBusiness());
    const writer = new ReviewsDocumentWriter(business, texts.length, bytes);
    for (const t of texts) writer.add(t);
    const aggregate = computeAggregate(reviews);
    const doc = writer.finish(aggregate);
    const text = Buffer.from(doc.body).toString();
    expect(text).toBe(
      `{"business":${JSON.stringify(toPublicBusiness(business))},"aggregateRating":${JSON.stringify(aggregate)},"reviews":[${texts.join(',')}]}`,
    );
    // A view into a shared buffer, which the build worker still reads after handing it over.
    expect(doc.body.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(doc.body.byteOffset).toBeGreaterThan(0);
    const body = Buffer.from(doc.body.buffer, doc.body.byteOffset, doc.body.byteLength);
    texts.forEach((t, i) => {
      expect(body.subarray(doc.starts[i], doc.ends[i]).toString()).toBe(t);
    });
  });

  it('writes an empty list', () => {
    const writer = new ReviewsDocumentWriter(null, 0, 0);
    const doc = writer.finish(computeAggregate([]));
    expect(JSON.parse(Buffer.from(doc.body).toString())).toEqual({
      business: null,
      aggregateRating: computeAggregate([]),
      reviews: [],
    });
  });

  it('refuses reviews that are more or longer than announced, or fewer', () => {
    const longer = new ReviewsDocumentWriter(null, 3, bytes - 1);
    expect(() => texts.forEach((t) => longer.add(t))).toThrow(/longer than announced/);
    const more = new ReviewsDocumentWriter(null, 2, bytes);
    expect(() => texts.forEach((t) => more.add(t))).toThrow(/more than 2 reviews/);
    const fewer = new ReviewsDocumentWriter(null, 3, bytes);
    fewer.add(texts[0]!);
    expect(() => fewer.finish(computeAggregate(reviews))).toThrow(/1 of 3 reviews/);
  });
});
