import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSampleFile } from '../../../src/import/sample.js';
import {
  changeWindows,
  createInsightsEngine,
  twoProportionTest,
} from '../../../src/insights/index.js';
import { orderReviews } from '../../../src/reviews/order.js';
import { openStore } from '../../../src/store/index.js';
import { writeSample } from '../../sample/write-sample.js';
import { planOf, sampleVisits } from './sample-eval.js';

/**
 * Per category: reviews with text whose plan speaks of it (`mentions`) and those planned to
 * complain (`negative`), each as [last 90 days, the 365 days before].
 */
type PlanCounts = Map<string, { mentions: [number, number]; negative: [number, number] }>;

/**
 * What the sample's generator planned its reviews with text to say about each category, in the
 * two periods the insights compare (a plan that complains anywhere about a category counts as a
 * complaint, as a mixed review does in the insights).
 */
function planCounts(file: string, seed: number, count: number): PlanCounts {
  const reviews = (
    JSON.parse(readFileSync(file, 'utf8')) as {
      reviews: { reviewBody?: string | null; datePublished: string }[];
    }
  ).reviews;
  const visits = sampleVisits({ seed, count });
  const newest = reviews.reduce((m, r) => (r.datePublished > m ? r.datePublished : m), '');
  const { recentFrom, beforeFrom } = changeWindows(newest.slice(0, 10));
  const counts: PlanCounts = new Map();
  reviews.forEach((review, i) => {
    const day = review.datePublished.slice(0, 10);
    const side = day >= recentFrom ? 0 : day >= beforeFrom ? 1 : null;
    if (!review.reviewBody || side === null) return;
    for (const [category, polarity] of planOf(visits[i]!)) {
      const c = counts.get(category) ?? { mentions: [0, 0], negative: [0, 0] };
      c.mentions[side]++;
      if (polarity === 'negative') c.negative[side]++;
      counts.set(category, c);
    }
  });
  return counts;
}

/**
 * Whether the plan itself has the claimed change: its share of complaints moved the same way,
 * by the same test at 0.05 without adjustment (generous to the claim: a change the generator made
 * by chance is still in the data).
 */
function planned(counts: PlanCounts, aspect: string, direction: 'better' | 'worse'): boolean {
  const c = counts.get(aspect);
  if (!c || c.mentions[0] === 0 || c.mentions[1] === 0) return false;
  const { z, pValue } = twoProportionTest(
    c.negative[0],
    c.mentions[0],
    c.negative[1],
    c.mentions[1],
  );
  return pValue < 0.05 && (direction === 'worse' ? z > 0 : z < 0);
}

/** One change the insights claim on one generated sample. */
export interface ChangeClaim {
  aspect: string;
  direction: 'better' | 'worse';
  pValue: number;
  adjustedPValue: number;
  /** The generator's plan has this change. */
  planned: boolean;
}

/** `absa change-claims`' report. */
export interface ChangeClaimsReport {
  command: string;
  count: number;
  /** Per seed: the aspects tested (known when something is claimed) and the claims. */
  samples: { seed: number; tested: number | null; claims: ChangeClaim[] }[];
  /** Samples with at least one claim the plan does not hold. */
  withFalseClaim: number;
  /** Claims in all, and those the plan does not hold. */
  claims: number;
  falseClaims: number;
  /** The samples where wait time getting worse (the story's staffing change) is claimed. */
  waitTimeWorse: number;
}

/**
 * Generates the sample at each seed (`count` reviews), computes its insights as the service does
 * (the shipped dealership model, a fresh SQLite store) and sets each change they claim against the
 * generator's plan. Answers how often "got better" / "got worse" is said falsely, and how often
 * the story's one change the reading can see (waits getting worse after two technicians leave,
 * `tools/sample/events.ts`) is claimed.
 */
export async function changeClaims(
  seeds: readonly number[],
  count: number,
): Promise<Omit<ChangeClaimsReport, 'command'>> {
  const samples: ChangeClaimsReport['samples'] = [];
  for (const seed of seeds) {
    const dir = mkdtempSync(join(tmpdir(), 'change-claims-'));
    const store = openStore(`sqlite:${join(dir, 'reviews.db')}`);
    try {
      const file = join(dir, 'sample.json');
      writeSample({ seed, count }, file);
      await loadSampleFile(store, file);
      const plan = planCounts(file, seed, count);
      const dataset = await store.readDataset();
      const insights = createInsightsEngine().compute({
        reviews: orderReviews(dataset.reviews).map((p) => p.review),
        business: dataset.business,
        changedAt: dataset.state.changedAt,
      });
      samples.push({
        seed,
        tested: insights.changes[0]?.test.tested ?? null,
        claims: insights.changes.map((c) => ({
          aspect: c.aspect,
          direction: c.direction,
          pValue: c.test.pValue,
          adjustedPValue: c.test.adjustedPValue,
          planned: planned(plan, c.aspect, c.direction),
        })),
      });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const all = samples.flatMap((s) => s.claims);
  return {
    count,
    samples,
    withFalseClaim: samples.filter((s) => s.claims.some((c) => !c.planned)).length,
    claims: all.length,
    falseClaims: all.filter((c) => !c.planned).length,
    waitTimeWorse: samples.filter((s) =>
      s.claims.some((c) => c.aspect === 'wait-time' && c.direction === 'worse'),
    ).length,
  };
}

/** `absa change-claims`: ten generated samples (seeds 1 to 10) of `count` reviews. */
export async function runChangeClaims(count: number): Promise<ChangeClaimsReport> {
  const seeds = Array.from({ length: 10 }, (_, i) => i + 1);
  return {
    command: `npm run -s absa -- change-claims --count ${count}`,
    ...(await changeClaims(seeds, count)),
  };
}
