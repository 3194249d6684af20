import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentences.js';

describe('splitSentences', () => {
  it('returns spans that are verbatim substrings of the review', () => {
    const text = '  Great service!  The wait was long... Mr. Smith fixed it.\nWould return ';
    const spans = splitSentences(text);
    expect(spans.map((s) => s.text)).toEqual([
      'Great service!',
      'The wait was long...',
      'Mr. Smith fixed it.',
      'Would return',
    ]);
    for (const s of spans) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('does not split after initials or a.m.', () => {
    const spans = splitSentences('Ryan F. was great. We came at 9 a.m. and left by noon.');
    expect(spans).toHaveLength(2);
  });

  it('drops spans without letters or digits', () => {
    expect(splitSentences('!!! ... ')).toEqual([]);
  });
});
