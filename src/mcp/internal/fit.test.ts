import { describe, expect, it } from 'vitest';
import { fitStrings, jsonBytes, prefixChars, prefixWithin, stringBytes } from './fit.js';

describe('bytes on the wire', () => {
  it('counts a string as JSON writes it: escapes, UTF-8 and surrogate pairs', () => {
    for (const s of ['plain', 'a "q" \\ b', '\u0001\n\t', '刹车', '🚗x', '\ud800lone', '']) {
      expect(stringBytes(s), s).toBe(Buffer.byteLength(JSON.stringify(s)) - 2);
    }
  });

  it('cuts to a byte budget without splitting a pair, and never over it', () => {
    const s = 'ab刹🚗"\u0001c';
    for (let max = 0; max <= stringBytes(s); max++) {
      const p = prefixWithin(s, max);
      expect(stringBytes(p)).toBeLessThanOrEqual(max);
      expect(s.startsWith(p)).toBe(true);
      expect(p.at(-1)).not.toBe('\ud83d');
    }
    expect(prefixWithin(s, 1_000)).toBe(s);
    expect(prefixChars('a🚗', 2)).toBe('a');
  });
});

describe('fitStrings', () => {
  const rules = {
    weight: (key: string) => (key === 'text' ? 4 : key === 'name' || key === 'names[]' ? 1 : 0),
    mark: (shown: number, total: number) => `…[${shown}/${total}]`,
  };
  const value = {
    id: 'id-that-stays',
    text: 'x'.repeat(5_000),
    name: 'n'.repeat(500),
    names: ['short', 'm'.repeat(400)],
  };

  it('returns a value that fits as it is, and never changes the original', () => {
    expect(fitStrings(value, 1_000_000, rules)).toBe(value);
    const cut = fitStrings(value, 2_000, rules);
    expect(value.text).toHaveLength(5_000);
    expect(cut).not.toBe(value);
  });

  it('cuts the longest strings to fit, by weight, each with its mark; ids and short strings stay', () => {
    for (const max of [4_000, 2_000, 600]) {
      const cut = fitStrings(value, max, rules);
      expect(jsonBytes(cut)).toBeLessThanOrEqual(max);
      expect(cut.id).toBe('id-that-stays');
      expect(cut.text).toMatch(/^x*…\[\d+\/5000\]$/);
      expect(cut.names[0]).toBe('short');
      // The text keeps about four times what the name keeps.
      const kept = (s: string) => s.indexOf('…');
      expect(kept(cut.text)).toBeGreaterThanOrEqual(kept(cut.name) * 3);
    }
  });

  it('applies a cap on characters first, marking what it cut with the whole length', () => {
    const cut = fitStrings({ text: 'y'.repeat(3_000), name: 'ok' }, Infinity, {
      ...rules,
      maxChars: (key: string) => (key === 'text' ? 1_500 : undefined),
    });
    expect(cut.text).toBe(`${'y'.repeat(1_500)}…[1500/3000]`);
    expect(cut.name).toBe('ok');
  });
});
