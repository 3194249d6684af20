import { loadConfig } from '../config.js';
import { orderReviews } from '../snapshot/build.js';
import { openStore } from '../store/index.js';
import { createInsightsEngine } from './engine.js';
import { renderReport } from './report.js';

/**
 * `npm run insights [-- --json]`: computes the insights of the data in DATABASE_URL and prints
 * them as tables (or as the JSON document) for operators. Uses the per-text analyses stored in
 * the same database (by the service, or by an earlier run).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const store = openStore(config.databaseUrl);
  try {
    const dataset = await store.readDataset();
    const reviews = orderReviews(dataset).map((p) => p.review);
    // The analyses the service stored are reused (and new ones stored), so this is quick on a
    // database the service has already published.
    const engine = createInsightsEngine({
      analyses: store.analyses,
      onStoreError: (err) =>
        console.error(`insights: stored analyses unavailable (${String(err)}); analysing all`),
    });
    const insights = await engine.computeInSlices({
      reviews,
      business: dataset.business,
      changedAt: dataset.state.changedAt,
    });
    if (process.argv.includes('--json'))
      process.stdout.write(`${JSON.stringify(insights, null, 2)}\n`);
    else process.stdout.write(renderReport(insights, dataset.business?.name ?? null));
  } finally {
    await store.close();
  }
}

main().catch((err: unknown) => {
  console.error(`insights: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
