import { describe, expect, it } from 'vitest';
import { iterateArray, parseSpan, scanJsonRoot } from './json-scan.js';
import { FILE_INVALID } from './text.js';

/** A file-level import error (`FILE_INVALID`). */
const fileInvalid = expect.objectContaining({ name: 'ServiceError', code: FILE_INVALID });

describe('scanJsonRoot and iterateArray', () => {
  const text = Buffer.from(
    '{\n  "business": { "name": "Núñez \\"B\\" ]}" },\n  "reviews": [\n    {"a": [1, {"b": "}★"}]},\n    2\n  ]\n}\n',
  );

  it('finds top-level members without parsing them', () => {
    const root = scanJsonRoot(text);
    expect(root.kind).toBe('object');
    if (root.kind !== 'object') return;
    expect([...root.members.keys()]).toEqual(['business', 'reviews']);
    expect(parseSpan(text, root.members.get('business')!)).toEqual({ name: 'Núñez "B" ]}' });
    expect(root.members.get('reviews')!.line).toBe(3);
  });

  it('yields each array element decoded, with its index and start line', () => {
    const root = scanJsonRoot(text);
    if (root.kind !== 'object') throw new Error('expected an object');
    const items = [...iterateArray(text, root.members.get('reviews')!)];
    expect(items.map((i) => [i.index, i.line, JSON.parse(i.text)])).toEqual([
      [1, 4, { a: [1, { b: '}★' }] }],
      [2, 5, 2],
    ]);
  });

  it('handles a bare array and an empty one', () => {
    const empty = Buffer.from('[ ]');
    const root = scanJsonRoot(empty);
    expect(root.kind).toBe('array');
    if (root.kind === 'array') expect([...iterateArray(empty, root.span)]).toEqual([]);
  });

  it.each([
    ['{ "reviews": [ {"a": 1}', /unexpected end of file/],
    ['{ "reviews": [] } trailing', /unexpected text after the end/],
    ['"just a string"', /expected '\{' or '\['/],
    ['{ "a" 1 }', /expected ':'/],
  ])('throws a file error naming the problem for %j', (bad, message) => {
    expect(() => scanJsonRoot(Buffer.from(bad))).toThrow(fileInvalid);
    expect(() => scanJsonRoot(Buffer.from(bad))).toThrow(message);
  });
});

describe('issue 15 (fuzz): a raw control character in a key', () => {
  it('is a file error naming the line, not an unexpected error', () => {
    // JSON.parse of the key threw a bare SyntaxError: "import: unexpected error: Bad control ...".
    const buf = Buffer.from('{\n"rev\u0001x":[],"reviews":[]}');
    expect(() => scanJsonRoot(buf)).toThrow(fileInvalid);
    expect(() => scanJsonRoot(buf)).toThrow(/not valid JSON in the value starting at line 2/);
  });
});

describe('iterateArray in any layout (the audit: a one-line file imported in quadratic time)', () => {
  /** The array of `n` small objects, on one line, one per line, or pretty-printed. */
  function document(n: number, layout: 'single-line' | 'lines' | 'pretty'): Buffer {
    const items = Array.from({ length: n }, (_, i) =>
      layout === 'pretty' ? JSON.stringify({ i, t: 'x' }, null, 2) : JSON.stringify({ i }),
    );
    return Buffer.from(`[${items.join(layout === 'single-line' ? ',' : ',\n')}]`);
  }

  /** Counts the bytes that searches for a line break look at (searches for quotes aside). */
  function counted(buf: Buffer): { buf: Buffer; scanned: () => number } {
    let scanned = 0;
    const indexOf = buf.indexOf.bind(buf);
    buf.indexOf = ((value: number, from?: number) => {
      const at = indexOf(value, from);
      if (value === 0x0a) scanned += (at === -1 ? buf.length : at) - (from ?? 0);
      return at;
    }) as Buffer['indexOf'];
    return { buf, scanned: () => scanned };
  }

  it.each(['single-line', 'lines', 'pretty'] as const)(
    '%s: each byte is searched for a line break about once, and every element has its line and end',
    (layout) => {
      const { buf, scanned } = counted(document(2_000, layout));
      const items = [...iterateArray(buf, { start: 0, end: buf.length, line: 1 })];
      expect(items).toHaveLength(2_000);
      expect(scanned()).toBeLessThanOrEqual(2 * buf.length);
      const perItem = layout === 'pretty' ? 4 : layout === 'lines' ? 1 : 0;
      expect(items[1_999]!.line).toBe(1 + 1_999 * perItem);
      expect(items.every((item, i) => i === 0 || item.end > items[i - 1]!.end)).toBe(true);
      expect(buf.toString('utf8', items[1_999]!.end)).toBe(']');
    },
  );
});
