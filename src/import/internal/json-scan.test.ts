import { describe, expect, it } from 'vitest';
import { iterateArray, parseSpan, scanJsonRoot } from './json-scan.js';
import { FileError } from './text.js';

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
  ])('throws a FileError naming the problem for %j', (bad, message) => {
    expect(() => scanJsonRoot(Buffer.from(bad))).toThrow(FileError);
    expect(() => scanJsonRoot(Buffer.from(bad))).toThrow(message);
  });
});

describe('issue 15 (fuzz): a raw control character in a key', () => {
  it('is a FileError naming the line, not an unexpected error', () => {
    // JSON.parse of the key threw a bare SyntaxError: "import: unexpected error: Bad control ...".
    const buf = Buffer.from('{\n"rev\u0001x":[],"reviews":[]}');
    expect(() => scanJsonRoot(buf)).toThrow(FileError);
    expect(() => scanJsonRoot(buf)).toThrow(/not valid JSON in the value starting at line 2/);
  });
});
