import { describe, expect, it } from 'vitest';
import { MAMS_CATEGORIES, SEMEVAL14_CATEGORIES } from '../../src/insights/absa/index.js';
import { runTool } from '../helpers/tools.js';

const POLARITIES = ['positive', 'negative', 'neutral', 'conflict'];

function parseLines(
  stdout: string,
): { id: unknown; categories: { category: string; polarity: string }[] }[] {
  return stdout
    .trim()
    .split('\n')
    .map(
      (l) => JSON.parse(l) as { id: unknown; categories: { category: string; polarity: string }[] },
    );
}

describe('absa predict', { timeout: 120_000 }, () => {
  it('writes one JSON line per input line, detecting categories when none are given', () => {
    const input = [
      { id: 'a', text: 'The sushi was fresh but the waiter ignored us for twenty minutes.' },
      { id: 7, text: 'Prices are reasonable.' },
    ];
    const run = runTool(
      'absa/cli',
      ['predict', '--model', 'semeval14-restaurants'],
      input.map((l) => JSON.stringify(l)).join('\n'),
    );
    expect(run.status).toBe(0);
    const out = parseLines(run.stdout);
    expect(out.map((o) => o.id)).toEqual(['a', 7]);
    const ids = SEMEVAL14_CATEGORIES.map((c) => c.id);
    for (const o of out) {
      expect(Object.keys(o).sort()).toEqual(['categories', 'id']);
      expect(o.categories.length).toBeGreaterThan(0);
      for (const c of o.categories) {
        expect(ids).toContain(c.category);
        expect(POLARITIES).toContain(c.polarity);
      }
    }
    expect(out[0]!.categories.map((c) => c.category)).toEqual(
      expect.arrayContaining(['food', 'service']),
    );
    expect(out[1]!.categories).toContainEqual({ category: 'price', polarity: 'positive' });
  });

  it('predicts exactly the given categories, in their order', () => {
    const line = {
      id: 'm1',
      text: 'The staff were lovely although the food came out cold.',
      categories: ['food', 'staff', 'miscellaneous'],
    };
    const run = runTool(
      'absa/cli',
      ['predict', '--model', 'mams-acsa'],
      `${JSON.stringify(line)}\n`,
    );
    expect(run.status).toBe(0);
    const [out] = parseLines(run.stdout);
    expect(out!.categories.map((c) => c.category)).toEqual(line.categories);
    expect(MAMS_CATEGORIES.map((c) => c.id)).toEqual(expect.arrayContaining(line.categories));
    for (const c of out!.categories) expect(POLARITIES).toContain(c.polarity);
  });

  it('works for the dealership model', () => {
    const run = runTool(
      'absa/cli',
      ['predict', '--model', 'dealership'],
      '{"id":"d","text":"They charged me twice what they quoted."}\n',
    );
    expect(run.status).toBe(0);
    expect(parseLines(run.stdout)[0]!.categories).toContainEqual({
      category: 'price-value',
      polarity: 'negative',
    });
  });

  it('exits non-zero with nothing extra on stdout for bad input', () => {
    for (const bad of [
      'not json',
      '{"text":"no id"}',
      '{"id":1,"text":"x","categories":["nope"]}',
    ]) {
      const run = runTool('absa/cli', ['predict', '--model', 'semeval14-restaurants'], `${bad}\n`);
      expect(run.status).not.toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/line 1/);
    }
  });

  it('answers long inputs in order, batch after batch, and stops at a bad line after the good ones', () => {
    const good = Array.from({ length: 70 }, (_, i) =>
      JSON.stringify({ id: i, text: i % 2 ? 'The pasta was cold.' : `Table ${i} waited an hour.` }),
    );
    const run = runTool(
      'absa/cli',
      ['predict', '--model', 'semeval14-restaurants'],
      [...good, 'not json', good[0]].join('\n'),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/line 71/);
    const out = parseLines(run.stdout);
    expect(out.map((o) => o.id)).toEqual(good.map((_, i) => i));
    expect(out[1]!.categories).toContainEqual({ category: 'food', polarity: 'negative' });
  });

  it('rejects an unknown model', () => {
    const run = runTool('absa/cli', ['predict', '--model', 'yelp'], '');
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
  });
});
