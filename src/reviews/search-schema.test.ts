import { describe, expect, it } from 'vitest';
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
