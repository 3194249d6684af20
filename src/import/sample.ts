import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Business } from '../domain/business.js';
import { ReviewSource } from '../domain/review.js';
import type { Store } from '../store/index.js';
import { ingest, retryConcurrentChanges, type IngestResult } from './ingest.js';

/** The sample file format: a business profile and its reviews as source rows. */
const SampleFile = z.object({ business: Business, reviews: z.array(ReviewSource) });

/** The repository root: the nearest folder above this module that holds package.json. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the module');
    dir = parent;
  }
  return dir;
}

/** The bundled sample dealership, made by `npm run generate`. */
export function samplePath(): string {
  return join(packageRoot(), 'sample', 'dealership.json');
}

/** Loads a sample-format file (`{ business, reviews }`) into the store in one transaction. */
export async function loadSampleFile(store: Store, path: string): Promise<IngestResult> {
  const data = SampleFile.parse(JSON.parse(readFileSync(path, 'utf8')));
  return ingest(store, { business: data.business, reviews: data.reviews });
}

/**
 * Loads the sample file at `path` into the store if it holds no review; resolves with what it
 * wrote, or `null` when it wrote nothing: the store held reviews, or another process (an instance
 * started at the same time, an import) wrote them first. A load that collides with another writer
 * looks again (`retryConcurrentChanges`): the loser of two instances started together on an empty
 * store finds the sample there and leaves it.
 */
export function loadSampleIntoEmptyStore(store: Store, path: string): Promise<IngestResult | null> {
  return retryConcurrentChanges(async () => {
    if ((await store.countReviews()) > 0) return null;
    const result = await loadSampleFile(store, path);
    return result.state ? result : null;
  });
}
