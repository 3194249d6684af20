import { describe, expect, it } from 'vitest';
import { cachedAnalyzer } from './analyzer.js';

describe('cachedAnalyzer', () => {
  it('analyses each text once across versions, and forgets texts no longer published', () => {
    const seen: string[] = [];
    const analyze = cachedAnalyzer((text) => {
      seen.push(text);
      return { sentences: [{ start: 0, end: text.length, aspects: [] }] };
    });
    analyze('a');
    analyze('b');
    analyze('a');
    expect(seen).toEqual(['a', 'b']);
    // No more entries than texts: nothing is dropped (the cache stays bounded by the texts).
    analyze.retain(['b', 'c']);
    expect(analyze.size).toBe(2);
    analyze.retain(['b']);
    expect(analyze.size).toBe(1);
    analyze('b');
    analyze('c');
    analyze('a');
    expect(seen).toEqual(['a', 'b', 'c', 'a']);
  });

  it('warms the cache in slices, yielding to the event loop between them', async () => {
    const seen: string[] = [];
    const analyze = cachedAnalyzer((text) => {
      seen.push(text);
      return { sentences: [] };
    });
    analyze('a');
    let turns = 0;
    const tick = (): void => {
      turns++;
      if (turns < 100) setImmediate(tick);
    };
    setImmediate(tick);
    // A zero-length slice yields after every analysed text.
    expect(await analyze.warm(['a', 'b', 'c', 'b', 'd'], 0)).toBe(3);
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    expect(turns).toBeGreaterThanOrEqual(2);
    analyze('d');
    expect(seen).toHaveLength(4);
  });
});
