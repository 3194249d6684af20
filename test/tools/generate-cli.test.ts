import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTool } from '../helpers/tools.js';

const dir = mkdtempSync(join(tmpdir(), 'generate-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the generate CLI', () => {
  it('writes the same bytes with one thread or two', () => {
    const run = (jobs: number): Buffer => {
      const out = join(dir, `cli-${jobs}.json`);
      const r = runTool('sample/cli', [
        '--seed',
        '9',
        '--count',
        '12000',
        '--jobs',
        String(jobs),
        '--out',
        out,
      ]);
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(out);
    };
    const one = run(1);
    expect(run(2).equals(one)).toBe(true);
  });

  it('rejects a bad argument with exit code 2 and the usage', () => {
    const r = runTool('sample/cli', ['--count', 'lots']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--count must be an integer[\s\S]*usage:/);
  });
});
