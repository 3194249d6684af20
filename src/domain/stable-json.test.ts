import { describe, expect, it } from 'vitest';
import { stableJson } from './stable-json.js';

describe('stableJson', () => {
  it('writes object keys in sorted order at every depth', () => {
    expect(stableJson({ b: 1, a: { d: [3, { f: 1, e: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"e":2,"f":1}]},"b":1}',
    );
    expect(stableJson({ b: 1, a: 2 })).toBe(stableJson({ a: 2, b: 1 }));
  });

  it('agrees with JSON.stringify on values whose keys are already sorted', () => {
    const values: unknown[] = [
      null,
      true,
      0,
      -1.5,
      'a "quoted" \u2028 line',
      [],
      {},
      [[], [{}], [1, [2, [3]]]],
      { a: [null, 'x'], b: { c: { d: false } } },
    ];
    for (const v of values) expect(stableJson(v)).toBe(JSON.stringify(v));
  });

  it('leaves out undefined members and writes undefined array items as null', () => {
    expect(stableJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
    expect(stableJson(undefined)).toBe('null');
  });

  it('writes values nested far deeper than the call stack allows', () => {
    const depth = 100_000;
    const arrays = JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as unknown;
    expect(stableJson(arrays)).toBe(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
    const objects = JSON.parse(`${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`) as unknown;
    expect(stableJson(objects)).toBe(`${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`);
  });
});
