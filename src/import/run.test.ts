import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withTempStore } from '../../test/helpers/temp-store.js';
import type { Store } from '../store/index.js';
import { runImport } from './run.js';

let dir: string;
let store: Store;

withTempStore('run-import-', (opened, folder) => {
  store = opened;
  dir = folder;
});

/** A Google reviews file of `n` reviews, every byte on one line. */
function oneLineFile(n: number): string {
  const reviews = Array.from({ length: n }, (_, i) => ({
    reviewId: `one-line-${i}`,
    reviewer: { displayName: 'Ann B.' },
    starRating: 'FIVE',
    comment: `Visit ${i}: quick oil change, friendly staff.`,
    createTime: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
  }));
  const path = join(dir, 'reviews.json');
  writeFileSync(path, JSON.stringify({ reviews }));
  return path;
}

describe('runImport progress', () => {
  it('moves through a file on one line as its rows are read (it showed 100 % from the start)', async () => {
    const fractions: number[] = [];
    const summary = await runImport(store, {
      path: oneLineFile(3_500),
      onProgress: (p) => fractions.push(p.fraction),
    });
    expect(summary.inserted).toBe(3_500);
    expect(fractions.length).toBeGreaterThanOrEqual(3);
    expect(fractions[0]).toBeGreaterThan(0.2);
    expect(fractions[0]).toBeLessThan(0.4);
    for (let i = 1; i < fractions.length; i++)
      expect(fractions[i]).toBeGreaterThan(fractions[i - 1]!);
  });
});
