import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeReview, loadModel, type AbsaModel } from '../../../src/insights/absa/index.js';
import { changeWindows, twoProportionTest } from '../../../src/insights/index.js';
import { DEFAULT_OPTIONS, sampleTimes, type GenerateOptions } from '../../sample/generate.js';
import { createRng } from '../../sample/prng.js';
import { sampleVisit } from '../../sample/visit.js';
import type { Visit } from '../../sample/visit-types.js';
import { repoRoot } from '../../paths.js';

/** The generator's topic to the dealership category that should read it (themes: the guideline). */
const TOPIC_CATEGORY: Record<string, string> = {
  staff: 'staff-communication',
  'waiting-room': 'facility-amenities',
  loaner: 'facility-amenities',
  shuttle: 'facility-amenities',
};

export type Side = 'positive' | 'negative' | 'neutral';

/** How a model reads one category of the sample, review by review, against the generator's plan. */
export interface SampleAspectScore {
  category: string;
  /** Reviews whose plan has the category. */
  planned: number;
  /** … of which the model finds the category in some sentence. */
  found: number;
  recall: number;
  /** Reviews whose plan lacks the category but where the model finds it. */
  unplanned: number;
  /** Of the found planned reviews, those whose polarity matches the plan's. */
  polarityAgreement: number;
}

/** A review's share of complaints about one aspect, in the last 90 days and the 365 before. */
export interface ShareChange {
  recent: { reviews: number; negative: number };
  before: { reviews: number; negative: number };
  z: number;
}

/** `absa sample-eval`'s report. */
export interface SampleEvalReport {
  command: string;
  modelVersion: string;
  /** English reviews with text of a length class the composer writes in full (not `tiny`). */
  reviews: number;
  aspects: SampleAspectScore[];
  /** The sample's built-in story: wait-time complaints rise after two technicians leave. */
  waitTimeChange: { planned: ShareChange; read: ShareChange };
}

/** A review's polarity for one category: negative if any part is, else positive if any, else neutral. */
function combined(polarities: readonly string[]): Side | null {
  if (polarities.length === 0) return null;
  if (polarities.some((p) => p === 'negative' || p === 'neg')) return 'negative';
  if (polarities.some((p) => p === 'positive' || p === 'pos')) return 'positive';
  return 'neutral';
}

/** The generator's visits of a sample (what each review was planned to say), in review order. */
export function sampleVisits(options: GenerateOptions): Visit[] {
  const visits: Visit[] = [];
  for (const t of sampleTimes(options)) {
    const index = visits.length;
    visits.push(sampleVisit(createRng(options.seed, index + 1), index, t));
  }
  return visits;
}

/** A visit's plan by dealership category: negative if any opinion is, else positive if any. */
export function planOf(v: Visit): Map<string, Side> {
  const plan = new Map<string, string[]>();
  for (const op of v.opinions) {
    const category = TOPIC_CATEGORY[op.topic] ?? op.topic;
    plan.set(category, [...(plan.get(category) ?? []), op.polarity]);
  }
  return new Map([...plan].map(([category, polarities]) => [category, combined(polarities)!]));
}

const pct = (x: number, n: number): number => Math.round((x / Math.max(1, n)) * 10000) / 100;

function shareChange(rows: readonly { side: 'recent' | 'before'; polarity: Side | null }[]) {
  const count = (side: 'recent' | 'before') => {
    const mentioned = rows.filter((r) => r.side === side && r.polarity !== null);
    return {
      reviews: mentioned.length,
      negative: mentioned.filter((r) => r.polarity === 'negative').length,
    };
  };
  const recent = count('recent');
  const before = count('before');
  const { z } = twoProportionTest(recent.negative, recent.reviews, before.negative, before.reviews);
  return { recent, before, z: Math.round(z * 100) / 100 };
}

/**
 * Scores a dealership model on the bundled sample against what the sample's generator planned
 * each review to say (`Visit.opinions`: topic and polarity), review by review: per category, the
 * share of reviews planned to mention it where the model finds it, the reviews where it finds it
 * unplanned, and how often the polarity matches; and the planted rise of wait-time complaints
 * (the share of wait-time reviews that complain, last 90 days against the 365 before, as the
 * insights' `changes` test it). The plan is what the composer was asked to write, so a mention it
 * phrased vaguely still counts as planned: recall is a lower bound of the model's. Only English
 * reviews with text are scored, and not one-liners (`tiny`), which say less than their plan.
 */
export function sampleEval(model: AbsaModel): Omit<SampleEvalReport, 'command'> {
  const file = join(repoRoot(), 'sample', 'dealership.json');
  const reviews = (
    JSON.parse(readFileSync(file, 'utf8')) as {
      reviews: { reviewBody?: string | null; datePublished: string }[];
    }
  ).reviews;
  const visits = sampleVisits(DEFAULT_OPTIONS);
  const newest = reviews.reduce((m, r) => (r.datePublished > m ? r.datePublished : m), '');
  const { recentFrom, beforeFrom } = changeWindows(newest.slice(0, 10));
  const categories = model.categories.map((c) => c.id);
  const scores = new Map(
    categories.map((category) => [
      category,
      { category, planned: 0, found: 0, unplanned: 0, agree: 0 },
    ]),
  );
  const wait: { side: 'recent' | 'before'; planned: Side | null; read: Side | null }[] = [];
  let scored = 0;
  reviews.forEach((review, i) => {
    const v = visits[i]!;
    if (!review.reviewBody || v.language !== 'en' || v.length === 'tiny') return;
    scored++;
    const read = new Map<string, string[]>();
    for (const s of analyzeReview(model, review.reviewBody).sentences) {
      for (const a of s.aspects)
        read.set(a.category, [...(read.get(a.category) ?? []), a.polarity]);
    }
    const plan = planOf(v);
    for (const category of categories) {
      const s = scores.get(category)!;
      const planned = plan.get(category) ?? null;
      const found = combined(read.get(category) ?? []);
      if (planned === null) {
        if (found !== null) s.unplanned++;
        continue;
      }
      s.planned++;
      if (found === null) continue;
      s.found++;
      if (found === planned) s.agree++;
    }
    const day = review.datePublished.slice(0, 10);
    const side = day >= recentFrom ? 'recent' : day >= beforeFrom ? 'before' : null;
    if (side) {
      wait.push({
        side,
        planned: plan.get('wait-time') ?? null,
        read: combined(read.get('wait-time') ?? []),
      });
    }
  });
  return {
    modelVersion: model.version,
    reviews: scored,
    aspects: [...scores.values()]
      .filter((s) => s.planned > 0)
      .map(({ category, planned, found, unplanned, agree }) => ({
        category,
        planned,
        found,
        recall: pct(found, planned),
        unplanned,
        polarityAgreement: pct(agree, found),
      })),
    waitTimeChange: {
      planned: shareChange(wait.map((w) => ({ side: w.side, polarity: w.planned }))),
      read: shareChange(wait.map((w) => ({ side: w.side, polarity: w.read }))),
    },
  };
}

/** `absa sample-eval`: the shipped dealership model on the bundled sample (seconds). */
export function runSampleEval(): SampleEvalReport {
  return { command: 'npm run -s absa -- sample-eval', ...sampleEval(loadModel('dealership')) };
}
