import { describe, expect, it } from 'vitest';
import { sourceRow } from '../../test/helpers/records.js';
import { EDIT_GRACE_MS, editedAt, sameAuthoredContent } from './edits.js';

const PUBLISHED = '2025-03-01T12:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(PUBLISHED) + ms).toISOString();

describe('editedAt', () => {
  it('is null for a review whose dateModified is its datePublished', () => {
    expect(editedAt({ datePublished: PUBLISHED, dateModified: PUBLISHED })).toBeNull();
  });

  it('is null within the grace period, and the edit time past it', () => {
    expect(EDIT_GRACE_MS).toBe(300_000);
    const atGrace = later(EDIT_GRACE_MS);
    expect(editedAt({ datePublished: PUBLISHED, dateModified: atGrace })).toBeNull();
    const past = later(EDIT_GRACE_MS + 1);
    expect(editedAt({ datePublished: PUBLISHED, dateModified: past })).toBe(past);
    const months = later(200 * 86_400_000);
    expect(editedAt({ datePublished: PUBLISHED, dateModified: months })).toBe(months);
  });
});

describe('sameAuthoredContent', () => {
  const base = sourceRow('a', {
    name: 'Good visit',
    reviewBody: 'Fine.',
    ownerResponse: { text: 'Thanks!', dateModified: null },
  });

  it('is true when only what is not the reviewer’s changed: the reply, the verification, the department, the translation, the link', () => {
    const other = {
      ...base,
      ownerResponse: { text: 'Thank you, come again.', dateModified: PUBLISHED },
      verification: { level: 'transaction-matched' as const, checkedAt: PUBLISHED },
      department: 'service' as const,
      reviewBodyTranslated: 'Bien.',
      sourceUrl: 'https://example.com/r/a',
    };
    expect(sameAuthoredContent(base, other)).toBe(true);
  });

  it.each([
    ['the rating', { reviewRating: { ratingValue: 2 } }],
    ['the title', { name: 'Bad visit' }],
    ['the text', { reviewBody: 'Fine. UPDATE: not fine.' }],
    ['the text removed', { reviewBody: null }],
    ['a category rating', { subRatings: { ...nullSubRatings(), quality: 3 } }],
    ['the recommendation', { recommendsDealer: false }],
    [
      'the staff tagged',
      { taggedStaff: [{ name: 'Sarah Lopez', via: 'tagged' as const, rating: 5 }] },
    ],
  ])('is false when %s changed', (_what, change) => {
    expect(sameAuthoredContent(base, { ...base, ...change })).toBe(false);
  });

  it('reads a field a stored row of an older version lacks as empty', () => {
    const old = { ...base } as Partial<typeof base>;
    delete old.taggedStaff;
    delete old.subRatings;
    expect(sameAuthoredContent(old as typeof base, base)).toBe(true);
  });
});

function nullSubRatings() {
  return {
    customerService: null,
    quality: null,
    friendliness: null,
    pricing: null,
    overallExperience: null,
  };
}
