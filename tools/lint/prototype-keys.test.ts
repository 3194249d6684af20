import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPrototypeKeyLookups } from './prototype-keys.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TSCONFIG = join(ROOT, 'tsconfig.json');

/** Every runtime file of `src` (not the tests, not the store's contract suites). */
function runtimeFiles(): string[] {
  return readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('-contract.ts'))
    .map((f) => join(ROOT, 'src', f));
}

describe('lookups by a name from outside', () => {
  it('no runtime file of src looks a string up in a plain object', () => {
    const found = findPrototypeKeyLookups(runtimeFiles(), TSCONFIG).map(
      (f) => `${f.file.slice(ROOT.length + 1)}:${f.line}: ${f.text}`,
    );
    expect(found).toEqual([]);
  });

  it('finds a plain record read, written or tested with any string, and accepts a Dict or a Map', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prototype-keys-'));
    const file = join(dir, 'sample.ts');
    writeFileSync(
      file,
      [
        'type Dict<T> = { [key: string]: T };',
        "const LABELS: Readonly<Record<string, string>> = { rating: 'Stars' };",
        'const safe: Dict<string> = Object.create(null) as Dict<string>;',
        'const map = new Map<string, string>();',
        "export function label(name: string, known: 'rating'): unknown[] {",
        '  const out: Record<string, number> = {};',
        '  out[name] = 1;',
        '  return [LABELS[name], name in LABELS, LABELS[known], safe[name], map.get(name)];',
        '}',
      ].join('\n'),
    );
    const found = findPrototypeKeyLookups([file], TSCONFIG).map((f) => `${f.line}: ${f.text}`);
    expect(found).toEqual(['7: out[name]', '8: LABELS[name]', '8: name in LABELS']);
  });
});
