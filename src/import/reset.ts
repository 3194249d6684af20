import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseCommandLine, printUsage, runCommandLine, usageError } from '../cli.js';
import { loadEnv } from '../config.js';
import { withExistingStore, reviewKey, type DataState, type Store } from '../store/index.js';
import { retryConcurrentChanges } from './ingest.js';
import { samplePath } from './sample.js';

export const USAGE = `Usage: dealer-reviews reset --sample-only [--dry-run]

Removes every review of the bundled sample dealership from the store named by DATABASE_URL
(default sqlite:./data/reviews.db), and nothing else: the reviews whose source and source id are
those of sample/dealership.json, the file an empty store is filled from (SAMPLE_DATA). Reviews
imported from real exports stay, and so does the business profile: import yours
(dealer-reviews import <profile.json>) to replace the sample's.

The removal is one new data version, published like an import with --prune: ETags, feeds, the
change feed (a removal for each review) and WebSub notifications follow, and a running service
publishes it within DATA_POLL_MS. Prints one JSON line on stdout. Running it again changes nothing.

Options:
  --sample-only  remove the sample's reviews (the only reset there is)
  --dry-run      count them, change nothing
  -h, --help     this text

See the README, "Going live".`;

const CLI = { name: 'reset', usage: USAGE };

/** What identifies a sample review: its source and its id there (extra keys of the file ignored). */
const SampleKeys = z.object({
  business: z.object({ id: z.string() }),
  reviews: z.array(z.object({ source: z.string(), sourceReviewId: z.string() })),
});

export interface SampleRemoval {
  /** Sample reviews found in the store (and removed, unless it was a dry run). */
  reviews: number;
  /** The new data version, or null when nothing was removed. */
  state: DataState | null;
  /** Whether the stored business profile is still the sample's. */
  sampleBusiness: boolean;
}

/**
 * Removes the reviews of the sample file at `path` from the store in one transaction (as
 * `import --prune` removes those an export no longer holds: a removal in the change feed for
 * each), and bumps the data version when it removed any. With `dryRun`, only counts them.
 */
export function removeSampleReviews(
  store: Store,
  path: string,
  options: { dryRun: boolean; now?: string },
): Promise<SampleRemoval> {
  const sample = SampleKeys.parse(JSON.parse(readFileSync(path, 'utf8')));
  const sampleKeys = new Set(sample.reviews.map((r) => reviewKey(r.source, r.sourceReviewId)));
  const sources = [...new Set(sample.reviews.map((r) => r.source))];
  return retryConcurrentChanges(() =>
    store.transaction(async (tx) => {
      const sampleBusiness = (await tx.getBusiness())?.id === sample.business.id;
      const keep = new Set<string>();
      let found = 0;
      await tx.forEachReview(1000, async (page) => {
        for (const r of page) {
          const key = reviewKey(r.source, r.sourceReviewId);
          if (sampleKeys.has(key)) found++;
          else keep.add(key);
        }
      });
      if (options.dryRun || found === 0) return { reviews: found, state: null, sampleBusiness };
      const removed = await tx.pruneReviews(sources, keep);
      const state = await tx.bumpVersion(options.now ?? new Date().toISOString());
      return { reviews: removed, state, sampleBusiness };
    }),
  );
}

/**
 * `dealer-reviews reset --sample-only [--dry-run]`: removes the sample dealership's reviews. Exit
 * codes: 0 done (or nothing to remove), 1 a failure, 2 bad command line.
 */
export function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(CLI, async () => {
    const args = parseCommandLine(argv, {
      'sample-only': { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
    });
    if (args === null) return printUsage(CLI);
    if (args.positionals.length > 0) throw usageError('takes no arguments');
    if (!args.values['sample-only']) {
      throw usageError('say what to reset: --sample-only (the only reset there is)');
    }
    const dryRun = args.values['dry-run'];
    return withExistingStore(loadEnv(['DATABASE_URL']).DATABASE_URL, async (store) => {
      const result = await removeSampleReviews(store, samplePath(), { dryRun });
      const line = {
        event: dryRun ? 'sample.found' : 'sample.removed',
        reviews: result.reviews,
        version: result.state?.version ?? null,
        sampleBusiness: result.sampleBusiness,
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
      if (result.sampleBusiness) {
        process.stderr.write(
          'reset: the business profile is still the sample dealership: import yours (dealer-reviews import <profile.json>)\n',
        );
      }
      return 0;
    });
  });
}
