import { describe, expect, it } from 'vitest';
import { ASPECT_IDS } from '../domain/aspects.js';
import { parseSearchParams, parseQueryParams, SinceQuery } from './search-schema.js';

const pathsOf = (query: string): unknown[] => {
  const parsed = parseSearchParams(new URLSearchParams(query));
  return parsed.ok ? [] : parsed.issues.map((i) => i.path[0]);
};

describe('issue 15 (fuzz): parameter names a plain object already has', () => {
  it.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'])(
    'refuses %s as an unknown parameter, like any other',
    (name) => {
      // `__proto__=x` was assigned to `{}`, which drops it: the search answered 200.
      expect(pathsOf(`${name}=x`)).toEqual([name]);
      expect(pathsOf(`rating=5&${name}=`)).toEqual([name]);
      const since = parseQueryParams(new URLSearchParams(`${name}=1`), SinceQuery, {
        limit: 'integer',
      });
      expect(since.ok).toBe(false);
    },
  );

  it('still refuses such a name given twice as a duplicate', () => {
    expect(pathsOf('__proto__=a&__proto__=b')).toEqual(['__proto__']);
  });
});

describe('issue 15 (fuzz): since after until', () => {
  it('is one issue on since when both are real dates', () => {
    expect(pathsOf('since=2024-02-01&until=2024-01-31')).toEqual(['since']);
  });

  it.each([
    ['an impossible until', 'since=2023-03-01&until=2023-02-29', ['until']],
    ['a malformed-looking until', 'since=2024-02-01&until=0000-00-00', ['until']],
    ['an impossible since', 'since=2024-02-30&until=2024-02-01', ['since']],
  ])('is not reported beside %s (one issue per problem)', (_name, query, paths) => {
    // The range check compared the text of an impossible date and blamed since as well.
    expect(pathsOf(query)).toEqual(paths);
  });
});

describe('issue 28: max_rating, aspect and polarity', () => {
  it('reads max_rating as a number, and refuses it below min_rating (one issue, on max_rating)', () => {
    expect(parseSearchParams(new URLSearchParams('max_rating=2.5&min_rating=2'))).toMatchObject({
      ok: true,
      value: { max_rating: 2.5, min_rating: 2 },
    });
    expect(pathsOf('max_rating=2&min_rating=3')).toEqual(['max_rating']);
    expect(pathsOf('max_rating=0')).toEqual(['max_rating']);
    expect(pathsOf('max_rating=5.5')).toEqual(['max_rating']);
    expect(pathsOf('max_rating=x')).toEqual(['max_rating']);
    // An out-of-range bound is its own problem, not also the range's.
    expect(pathsOf('max_rating=2&min_rating=9')).toEqual(['min_rating']);
    expect(pathsOf('max_rating=3&min_rating=3')).toEqual([]);
  });

  it('refuses an unknown aspect with a message that lists the known ids', () => {
    const parsed = parseSearchParams(new URLSearchParams('aspect=wait_time'));
    expect(parsed.ok).toBe(false);
    const issue = !parsed.ok ? parsed.issues[0]! : null;
    expect(issue?.path).toEqual(['aspect']);
    for (const id of ASPECT_IDS) expect(issue?.message).toContain(id);
    expect(issue?.message).not.toContain('wait_time');
    expect(pathsOf('aspect=wait-time&polarity=negative')).toEqual([]);
    expect(pathsOf('polarity=bad')).toEqual(['polarity']);
  });
});
