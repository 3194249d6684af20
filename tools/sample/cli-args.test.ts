import { describe, expect, it } from 'vitest';
import { CliError, DEFAULT_OUT, parseCliArgs } from './cli-args.js';
import { DEFAULT_OPTIONS } from './generate.js';

describe('parseCliArgs', () => {
  it('defaults to the committed sample', () => {
    expect(parseCliArgs([])).toEqual({
      seed: DEFAULT_OPTIONS.seed,
      count: DEFAULT_OPTIONS.count,
      out: DEFAULT_OUT,
      jobs: 1,
      help: false,
    });
  });

  it('reads --seed, --count and --out', () => {
    expect(
      parseCliArgs(['--seed', '7', '--count', '1000000', '--out', '/tmp/x.json']),
    ).toMatchObject({
      seed: 7,
      count: 1_000_000,
      out: '/tmp/x.json',
    });
    expect(parseCliArgs(['--out=-']).out).toBe('-');
  });

  it.each([
    [['--count', '0']],
    [['--count', '1e6']],
    [['--count', '-5']],
    [['--seed', '4294967296']],
    [['--seed', 'abc']],
    [['--out', '']],
    [['--jobs', '0']],
    [['--bogus']],
    [['extra']],
  ])('rejects %j with a CliError', (argv) => {
    expect(() => parseCliArgs(argv)).toThrow(CliError);
  });
});
