import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { searchFields } from '../reviews/search-schema.js';
import { FILTER_NAMES, numericParams, parsePageQuery } from './query.js';

describe('the page query', () => {
  it('has the filters of the search, in its order, without limit', () => {
    expect(FILTER_NAMES).toEqual(Object.keys(searchFields).filter((k) => k !== 'limit'));
  });

  it('reads which parameters are numbers from the fields, so a new numeric filter is one too', () => {
    expect(numericParams(searchFields)).toEqual({
      rating: 'integer',
      min_rating: 'number',
      max_rating: 'number',
      limit: 'integer',
    });
    const later = { ...searchFields, min_words: z.number().int().min(1).optional() };
    expect(numericParams(later)).toMatchObject({ min_words: 'integer' });
  });

  it('parses numbers as the search does, and the page', () => {
    expect(parsePageQuery('rating=4&min_rating=3.5&page=2')).toEqual({
      ok: true,
      value: { rating: 4, min_rating: 3.5, page: 2 },
    });
    const bad = parsePageQuery('rating=4.5&page=x');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['rating', 'must be an integer'],
      ['page', 'must be an integer'],
    ]);
  });
});
