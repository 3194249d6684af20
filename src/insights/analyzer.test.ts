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
    analyze.retain(['b', 'c']);
    expect(analyze.size).toBe(1);
    analyze('b');
    analyze('c');
    expect(seen).toEqual(['a', 'b', 'c']);
  });
});
