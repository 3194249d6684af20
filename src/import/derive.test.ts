import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testBusiness, testReviews } from '../../test/helpers/fixtures.js';
import { Business } from '../domain/business.js';
import { ReviewSource } from '../domain/review.js';
import { compileMentionMatcher } from '../mentions/index.js';
import { DERIVATION_VERSION, deriveReview } from './derive.js';

/**
 * What the current derivation makes of a fixed set of sources: the hash of every public record.
 * When it changes, stored records of the older output must be derived again, which happens only
 * if `DERIVATION_VERSION` moves: bump it, then record the new pair here.
 */
const RECORDED = { version: 1, hash: '0n6f0LZ_acO_oHrcEVHHn9sHcRFgPcU0csOU0yqnNRM' };

function derivedHash(): string {
  const business = Business.parse(testBusiness());
  const ctx = {
    business,
    matcher: compileMentionMatcher(business),
    now: '2026-01-01T00:00:00.000Z',
  };
  const hash = createHash('sha256');
  for (const input of testReviews(90)) {
    hash.update(deriveReview(ReviewSource.parse(input), ctx).publicJson).update('\n');
  }
  return hash.digest('base64url');
}

describe('the derivation version', () => {
  it('moves whenever the derived records change', () => {
    expect(
      { version: DERIVATION_VERSION, hash: derivedHash() },
      'deriveReview gives other records than the recorded ones: bump DERIVATION_VERSION (src/import/derive.ts) so that stored records are derived again, then record the new version and hash',
    ).toEqual(RECORDED);
  });

  it('is stamped on every derived record', () => {
    const business = Business.parse(testBusiness());
    const ctx = {
      business,
      matcher: compileMentionMatcher(business),
      now: '2026-01-01T00:00:00.000Z',
    };
    const stored = deriveReview(ReviewSource.parse(testReviews(1)[0]), ctx);
    expect(stored.derivedVersion).toBe(DERIVATION_VERSION);
  });
});
