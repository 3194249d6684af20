import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReviewSource } from '../../src/domain/review.js';
import { generateReviews } from './generate.js';
import { writeSample } from './write-sample.js';

const dir = mkdtempSync(join(tmpdir(), 'sample-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeSample', () => {
  it('writes the same bytes for the same seed, twice', () => {
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    writeSample({ seed: 7, count: 2500 }, a);
    writeSample({ seed: 7, count: 2500 }, b);
    expect(readFileSync(b).equals(readFileSync(a))).toBe(true);
  });

  it('writes different reviews for another seed', () => {
    const a = join(dir, 'c.json');
    const b = join(dir, 'd.json');
    writeSample({ seed: 7, count: 300 }, a);
    writeSample({ seed: 8, count: 300 }, b);
    expect(readFileSync(b).equals(readFileSync(a))).toBe(false);
  });

  it('writes valid JSON with one review per line and reports what it wrote', () => {
    const file = join(dir, 'e.json');
    const result = writeSample({ seed: 3, count: 400 }, file);
    const text = readFileSync(file, 'utf8');
    expect(result).toEqual({ reviews: 400, bytes: Buffer.byteLength(text) });
    expect(JSON.parse(text).reviews).toHaveLength(400);
    expect(text.split('\n')).toHaveLength(400 + 4);
  });
});

describe('generateReviews', () => {
  it('yields exactly the count asked for, oldest first, each a valid import row', () => {
    const rows = [...generateReviews({ seed: 11, count: 5000 })];
    expect(rows).toHaveLength(5000);
    const parsed = rows.map((r) => ReviewSource.parse(r));
    for (let i = 1; i < parsed.length; i++) {
      expect(parsed[i]!.datePublished >= parsed[i - 1]!.datePublished, `row ${i}`).toBe(true);
    }
    const keys = new Set(parsed.map((r) => `${r.source}:${r.sourceReviewId}`));
    expect(keys.size).toBe(5000);
  });

  it('streams: the first reviews of a million come out without generating the rest', () => {
    const it = generateReviews({ seed: 5, count: 1_000_000 });
    const first = [it.next().value, it.next().value, it.next().value] as ReviewSource[];
    expect(first.every((r) => r.datePublished.startsWith('2023-07-01'))).toBe(true);
  });

  it('spreads a larger count over the same window, with more reviews per day', () => {
    const rows = [...generateReviews({ seed: 2, count: 20_000 })];
    expect(rows[0]!.datePublished.slice(0, 10)).toBe('2023-07-01');
    expect(rows.at(-1)!.datePublished.slice(0, 10)).toBe('2026-10-31');
  });
});
