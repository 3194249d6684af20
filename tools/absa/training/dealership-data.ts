import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitSentences } from '../../../src/insights/absa/sentences.js';
import type { Polarity } from '../../../src/insights/absa/types.js';
import type { LabelledSentence } from './datasets.js';

/** One hand label, stored by reference: the text stays in the shared data folder. */
interface LabelRecord {
  file: string;
  /** DealerRater review id (for `dealerrater-mckaig/*.jsonl`). */
  review?: string;
  /** 1-based line number (for the survey files). */
  line?: number;
  start: number;
  end: number;
  /** First 12 hex digits of the SHA-256 of the sentence text, to detect changed sources. */
  sha256: string;
  aspects: [string, Polarity][];
  split: 'train' | 'test';
}

/** The hand-labelled dealership sentences, split into the fixed train and test parts. */
export interface DealershipLabels {
  train: LabelledSentence[];
  test: LabelledSentence[];
}

function sourceText(dataDir: string, record: LabelRecord, cache: Map<string, string[]>): string {
  let lines = cache.get(record.file);
  if (!lines) {
    lines = readFileSync(join(dataDir, record.file), 'utf8').split('\n');
    cache.set(record.file, lines);
  }
  if (record.line !== undefined) return lines[record.line - 1] ?? '';
  const row = lines.find(
    (l) => l.startsWith('{') && (JSON.parse(l) as { id: string }).id === record.review,
  );
  return row ? (JSON.parse(row) as { text: string }).text : '';
}

/**
 * Reads the hand labels (`data-labels/dealership-sentences.jsonl`) and resolves each reference
 * against the shared data folder, checking that the sentence is still the one that was labelled.
 */
export function readDealershipLabels(labelsPath: string, dataDir: string): DealershipLabels {
  const cache = new Map<string, string[]>();
  const out: DealershipLabels = { train: [], test: [] };
  for (const line of readFileSync(labelsPath, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const record = JSON.parse(line) as LabelRecord;
    const text = sourceText(dataDir, record, cache).slice(record.start, record.end);
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
    const id = `${record.file}#${record.review ?? record.line}@${record.start}`;
    if (hash !== record.sha256) throw new Error(`label source changed: ${id}`);
    const aspects = record.aspects.map(([category, polarity]) => ({ category, polarity }));
    out[record.split].push({ id, text, aspects });
  }
  return out;
}

/** Survey question number to the dealership category it asks about. */
export const SURVEY_QUESTION_CATEGORY: Record<number, string> = {
  1: 'scheduling',
  2: 'scheduling',
  3: 'staff-communication',
  4: 'vehicle-cleanliness',
  5: 'quality-of-work',
  6: 'facility-amenities',
  7: 'facility-amenities',
  8: 'wait-time',
  9: 'price-value',
  10: 'follow-up',
};

/** One survey comment (a line of `dealer-service-survey-in/dev/qN.txt`). */
export interface SurveyComment {
  question: number;
  /** `dealer-service-survey-in/dev/qN.txt#line` (1-based), as the hand labels name lines. */
  key: string;
  text: string;
  /** In the held-out part: every 4th non-empty line of its file, never trained on. */
  heldOut: boolean;
  /** Says only that nothing needs improving: it carries no aspect (see {@link nothingToImprove}). */
  nothingToImprove: boolean;
}

/** Every `HELD_OUT_EVERY`th non-empty line of each survey file is held out of training. */
export const HELD_OUT_EVERY = 4;

const NOTHING =
  /^(no improvement|nothing( to improve| needs? (to be )?improv\w*)?$|none$|no comments?$|no suggestions?$|(all|everything) (are|is) (fine|good|ok)$)/;

/**
 * Whether a comment only says nothing needs improving: after lower-casing and keeping only letters
 * and spaces, it starts with "no improvement" ("no improvement require", "no improvement require
 * all are fine", "no improvement requires because ...": an answer without a complaint), or it is
 * exactly "nothing", "nothing to improve", "none", "no comment(s)", "no suggestion(s)", "all are
 * fine", "everything is good" (or fine, ok). Such comments carry no aspect: they are neither weak
 * labels nor scored.
 */
export function nothingToImprove(text: string): boolean {
  const words = text
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();
  return NOTHING.test(words);
}

/**
 * The survey comments of the development files, in file order, each with its question, whether it
 * is held out (every {@link HELD_OUT_EVERY}th non-empty line of its file, counting from the first)
 * and whether it says nothing needs improving.
 */
export function surveyComments(dataDir: string): SurveyComment[] {
  const out: SurveyComment[] = [];
  for (let q = 1; q <= 10; q++) {
    const file = `dealer-service-survey-in/dev/q${q}.txt`;
    let nonEmpty = 0;
    readFileSync(join(dataDir, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        if (!text.trim()) return;
        nonEmpty++;
        out.push({
          question: q,
          key: `${file}#${i + 1}`,
          text,
          heldOut: nonEmpty % HELD_OUT_EVERY === 0,
          nothingToImprove: nothingToImprove(text),
        });
      });
  }
  return out;
}

/** How weak survey labels are made (see {@link trainingPartWeakLabels}). */
export interface WeakLabelOptions {
  /** Training weight of a weak sentence as a positive example of its question's category. */
  weight: number;
  /** Its weight as a negative example of the other categories (default `weight`). */
  negativeWeight?: number;
  /** Comments taken per question, in file order (default all). */
  maxLinesPerQuestion?: number;
  /** Categories a weak label says nothing about: not trained on, as positives or negatives. */
  unlabelled?: readonly string[];
  /**
   * Give every question the same total weight: a comment of question q weighs
   * `weight * (comments / 10) / comments of q` (and its negative weight likewise), so the 1,000
   * comments about charges do not drown the 100 about arranging the appointment.
   */
  balanced?: boolean;
}

/**
 * Weak labels from the training part of the survey's development files (issue 32's candidate
 * model, not shipped: see docs/benchmarks.md): every sentence of a
 * comment gets the category its question asks about. They train detection only: their polarity
 * (negative, as the survey asks what should be improved) is a guess, so the polarity model never
 * sees them. Held-out comments, comments saying nothing needs improving and the lines in `exclude`
 * (`file#line`, the hand-labelled ones) are skipped.
 */
export function trainingPartWeakLabels(
  dataDir: string,
  exclude: ReadonlySet<string>,
  options: WeakLabelOptions,
): LabelledSentence[] {
  const { weight, negativeWeight = weight, unlabelled = [] } = options;
  const max = options.maxLinesPerQuestion ?? Infinity;
  const taken = new Map<number, number>();
  const kept = surveyComments(dataDir).filter((c) => {
    if (c.heldOut || c.nothingToImprove || exclude.has(c.key)) return false;
    const n = taken.get(c.question) ?? 0;
    taken.set(c.question, n + 1);
    return n < max;
  });
  const count = (q: number): number => kept.filter((c) => c.question === q).length;
  const scale = new Map([...taken.keys()].map((q) => [q, kept.length / 10 / count(q)]));
  return kept.flatMap((c) => {
    const k = options.balanced ? scale.get(c.question)! : 1;
    const category = SURVEY_QUESTION_CATEGORY[c.question]!;
    return splitSentences(c.text).map((s) => ({
      id: `${c.key}@${s.start}`,
      text: s.text,
      aspects: [{ category, polarity: 'negative' as const }],
      weight: weight * k,
      ...(negativeWeight !== weight ? { negativeWeight: negativeWeight * k } : {}),
      detectionOnly: true,
      ...(unlabelled.length > 0 ? { unlabelled } : {}),
    }));
  });
}

const SATISFIED = /\b(no improvement|all (are |is )?(fine|good|ok)|satisfied|nothing to improve)\b/;

/**
 * Weak labels from ALL of the survey's development files, held-out part included (what the shipped
 * model trains on; see docs/benchmarks.md, issue 32, for why it was not replaced yet): every sentence of a comment gets the category
 * its question asks about. They train detection only: their polarity (negative, as the survey asks
 * what should be improved) is a guess, so the polarity model never sees them.
 * Comments saying nothing needs improving are skipped, and so are the lines in `exclude`
 * (`file#line`, the hand-labelled ones); at most `maxLinesPerQuestion` comments are taken from each
 * file, in file order. Each weak sentence carries the given training weight; the `unlabelled`
 * categories are ones its label says nothing about (not trained on either way).
 */
export function weakSurveyLabels(
  dataDir: string,
  exclude: ReadonlySet<string>,
  weight: number,
  maxLinesPerQuestion = Infinity,
  unlabelled: readonly string[] = [],
): LabelledSentence[] {
  const out: LabelledSentence[] = [];
  for (let q = 1; q <= 10; q++) {
    const file = `dealer-service-survey-in/dev/q${q}.txt`;
    const lines = readFileSync(join(dataDir, file), 'utf8').split('\n');
    let taken = 0;
    lines.forEach((text, i) => {
      if (!text.trim() || SATISFIED.test(text) || exclude.has(`${file}#${i + 1}`)) return;
      if (taken++ >= maxLinesPerQuestion) return;
      for (const s of splitSentences(text)) {
        const aspects = [{ category: SURVEY_QUESTION_CATEGORY[q]!, polarity: 'negative' as const }];
        out.push({
          id: `${file}#${i + 1}@${s.start}`,
          text: s.text,
          aspects,
          weight,
          detectionOnly: true,
          ...(unlabelled.length > 0 ? { unlabelled } : {}),
        });
      }
    });
  }
  return out;
}

/**
 * Reads hand-written seed sentences (`data-labels/dealership-seed.jsonl`: `{text, aspects}` written
 * by the annotator, not taken from any data set). They cover phrasings and categories the labelled
 * reviews lack and are used for training only, never for scoring.
 */
export function readSeedLabels(path: string): LabelledSentence[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const r = JSON.parse(l) as { text: string; aspects: [string, Polarity][] };
      const aspects = r.aspects.map(([category, polarity]) => ({ category, polarity }));
      return { id: `seed#${i + 1}`, text: r.text, aspects };
    });
}

/**
 * Restaurant category to the dealership category whose sentiment it resembles most. Restaurant
 * `service` is left out: it mixes staff behaviour with speed ("we waited 40 minutes" is a negative
 * service sentence), which taught the staff category that waiting is the staff's fault.
 */
export const RESTAURANT_TO_DEALERSHIP: Record<string, string> = {
  staff: 'staff-communication',
  price: 'price-value',
  ambience: 'facility-amenities',
  place: 'facility-amenities',
  food: 'quality-of-work',
  menu: 'sales-experience',
  'anecdotes/miscellaneous': 'overall',
  miscellaneous: 'overall',
};

/**
 * Restaurant sentences (SemEval-2014, MAMS) relabelled into dealership categories, to teach the
 * polarity model general sentiment ("awful", "too long", "came out cold") that the few hundred
 * dealership sentences cannot. Polarity only and down-weighted: the categories are analogies.
 */
export function restaurantPolarityTransfer(
  sources: readonly LabelledSentence[],
  weight: number,
): LabelledSentence[] {
  return sources.flatMap((s) => {
    const aspects = s.aspects.flatMap((a) => {
      const category = RESTAURANT_TO_DEALERSHIP[a.category];
      return category ? [{ ...a, category }] : [];
    });
    if (aspects.length === 0) return [];
    return [{ id: `transfer:${s.id}`, text: s.text, aspects, weight, polarityOnly: true }];
  });
}
