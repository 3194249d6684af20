import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  readLexiconSupplement,
  readVaderLexicon,
  serviceLexiconPath,
  vaderLexiconPath,
  withSupplement,
} from './lexicon.js';

const dir = mkdtempSync(join(tmpdir(), 'lexicon-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function supplement(text: string): string {
  const path = join(dir, `s${Math.random().toString(36).slice(2)}.tsv`);
  writeFileSync(path, text);
  return path;
}

describe('readLexiconSupplement', () => {
  it('reads word and valence lines and skips comments and blank lines', () => {
    const path = supplement('# a comment\nnightmare\t-2.7\n\nspotless\t2.3\n');
    expect(readLexiconSupplement(path)).toEqual({ nightmare: -2.7, spotless: 2.3 });
  });

  it.each([
    ['a valence outside [-4, 4]', 'awful\t-5\n'],
    ['a missing valence', 'awful\n'],
    ['an empty valence', 'awful\t\n'],
    ['an upper-case word', 'Awful\t-2\n'],
    ['a third column', 'awful\t-2\t0.5\n'],
  ])('rejects %s, naming the line', (_, text) => {
    expect(() => readLexiconSupplement(supplement(`# header\n${text}`))).toThrow(/:2: expected/);
  });

  it('takes the names of object properties as plain words', () => {
    expect(readLexiconSupplement(supplement('constructor\t0.5\n'))).toEqual({ constructor: 0.5 });
  });

  it('rejects a word listed twice', () => {
    expect(() => readLexiconSupplement(supplement('smooth\t1.6\nsmooth\t1.5\n'))).toThrow(
      /:2: "smooth" is listed twice/,
    );
  });
});

describe('withSupplement', () => {
  it('adds the words, sorted with the lexicon', () => {
    const merged = withSupplement({ bad: -2.5, good: 1.9 }, { awful: -2, fine: 0.8 });
    expect(Object.entries(merged)).toEqual([
      ['awful', -2],
      ['bad', -2.5],
      ['fine', 0.8],
      ['good', 1.9],
    ]);
  });

  it('never changes a word the lexicon holds', () => {
    expect(() => withSupplement({ good: 1.9 }, { good: 3 })).toThrow(/already holds: good/);
  });

  it('the service lexicon only adds words VADER lacks', () => {
    const vader = readVaderLexicon(vaderLexiconPath());
    const service = readLexiconSupplement(serviceLexiconPath());
    expect(Object.keys(service).length).toBeGreaterThan(50);
    expect(Object.keys(withSupplement(vader, service))).toHaveLength(
      Object.keys(vader).length + Object.keys(service).length,
    );
  });
});
