import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { gbpChunks } from '../../tools/bench/import-data.js';
import { fixture, importJson, readPublished, spawnCli, tempDir } from './helpers.js';

let dir: string;
let cleanup: () => void;

beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

it('leaves the published data exactly as before when the import is killed with SIGKILL mid-way', async () => {
  const db = join(dir, 'reviews.db');
  await importJson([fixture('business.json')], db);
  await importJson([fixture('takeout')], db);
  const before = await readPublished(db);

  const big = join(dir, 'big.json');
  writeFileSync(big, [...gbpChunks(60_000, 7)].join(''));
  const child = spawnCli([big, '--progress'], db);
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    child.on('close', (code, signal) => res({ code, signal })),
  );
  // The first progress line is printed after the first batch is written, inside the transaction.
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (/import: .* rows/.test(stderr) && child.exitCode === null) child.kill('SIGKILL');
  });
  const { code, signal } = await exited;
  expect(stderr).toMatch(/import: .*[\d,]+ rows/);
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });

  const after = await readPublished(db);
  expect(after.version).toBe(before.version);
  expect(after.reviews).toEqual(before.reviews);
  expect(after.business).toEqual(before.business);

  // The store is not left locked: the next import runs and finds nothing new.
  const again = await importJson([fixture('takeout')], db);
  expect(again.summary).toMatchObject({ unchanged: 5, inserted: 0, version: null });
});
