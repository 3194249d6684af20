/**
 * What the change feed's end-to-end tests share: the example client of docs/api.md run as a
 * process (`examples/mirror.mjs`), the published dataset to compare its copy with, the writes of
 * a mirror's life (inserts, edits, a prune, a hide and its undo) made by the real commands and
 * ingest, and waiting until every instance serves the store's newest version.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReviewSource, type ReviewSourceInput } from '../../src/domain/review.js';
import { reviewId } from '../../src/domain/ids.js';
import type { Review } from '../../src/domain/review.js';
import { ingest } from '../../src/import/ingest.js';
import { openStore } from '../../src/store/index.js';
import { ingestInAnotherProcess, waitUntil } from './child-service.js';
import { runCommand } from '../import/helpers.js';

const MIRROR = join(import.meta.dirname, '../../examples/mirror.mjs');

/** Runs the example client once (to the end of the feed); returns its copy of the reviews. */
export async function runMirror(
  copyFile: string,
  bases: readonly string[],
): Promise<Record<string, Review>> {
  const child = spawn(process.execPath, [MIRROR, copyFile, ...bases], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`the mirror exited with ${code}`);
  return (JSON.parse(readFileSync(copyFile, 'utf8')) as { reviews: Record<string, Review> })
    .reviews;
}

/** `/reviews.json`'s reviews by id. */
export async function publishedReviews(base: string): Promise<Record<string, Review>> {
  const body = (await (await fetch(`${base}/reviews.json`)).json()) as { reviews: Review[] };
  return Object.fromEntries(body.reviews.map((r) => [r.id, r]));
}

/** Waits until every instance serves the store's newest data version. */
export async function settled(databaseUrl: string, bases: readonly string[]): Promise<void> {
  const store = openStore(databaseUrl);
  let version: number;
  try {
    version = (await store.state()).version;
  } finally {
    await store.close();
  }
  for (const base of bases) {
    await waitUntil(async () => {
      const health = (await (await fetch(`${base}/healthz`)).json()) as { dataVersion: number };
      return health.dataVersion === version;
    }, `${base} to serve version ${version}`);
  }
}

/** Imports `rows` in this process (with `prune`: the reviews of their sources not among them go). */
export async function importRows(
  databaseUrl: string,
  rows: ReviewSourceInput[],
  prune = false,
): Promise<void> {
  const store = openStore(databaseUrl);
  try {
    await ingest(store, { reviews: rows.map((r) => ReviewSource.parse(r)), prune });
  } finally {
    await store.close();
  }
}

/** `dealer-reviews remove <id> [--undo]` as a process on the store at `databaseUrl`. */
export async function remove(databaseUrl: string, id: string, undo = false): Promise<void> {
  const run = await runCommand(
    'remove',
    [id, '--reason', 'private note', ...(undo ? ['--undo'] : [])],
    '',
    {
      DATABASE_URL: databaseUrl,
    },
  );
  if (run.code !== 0) throw new Error(`remove failed: ${run.stderr}`);
}

/**
 * The writes of a mirror's life on a store that holds `rows` (one import of them): two new
 * reviews and an edit, a prune of one review, a hide, and another hide undone.
 */
export async function liveChanges(databaseUrl: string, rows: ReviewSourceInput[]): Promise<void> {
  const ids = rows.map((r) => reviewId(r.source, r.sourceReviewId));
  const fresh = [0, 1].map((i) => ({
    ...rows[i]!,
    sourceReviewId: `new-${i}`,
    datePublished: `2031-01-0${i + 1}T10:00:00Z`,
  }));
  const edited = { ...rows[2]!, reviewBody: 'Edited at the source: the car came back fixed.' };
  expect0(await ingestInAnotherProcess(databaseUrl, [...fresh, edited]));
  // A prune: the import no longer holds rows[3].
  await importRows(
    databaseUrl,
    [...rows.filter((_, i) => i !== 3 && i !== 2), edited, ...fresh],
    true,
  );
  await remove(databaseUrl, ids[4]!);
  await remove(databaseUrl, ids[5]!);
  await remove(databaseUrl, ids[5]!, true);
}

function expect0(code: number): void {
  if (code !== 0) throw new Error(`the import exited with ${code}`);
}
