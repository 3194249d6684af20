import { describe, expect, it } from 'vitest';
import { findSharedQuotes } from '../../tools/lint/shared-quotes.js';
import { repoRoot, requireSharedData } from '../../tools/paths.js';

describe('the repository', () => {
  it('quotes no sentence of the shared evaluation data', () => {
    // A quotation is nine words in a row of one of its sentences, anywhere in a tracked file
    // (docs, tests, labelled data, the sample); see tools/lint/shared-quotes.ts.
    expect(findSharedQuotes(repoRoot(), requireSharedData())).toEqual([]);
  });
});
