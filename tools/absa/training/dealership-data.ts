import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
  /**
   * The labels train category detection only. Set on the survey lines labelled whole (issue 32,
   * sixth pass): their polarities are all the survey's suggestions, negative, and as polarity
   * examples they taught the model that any mention of the work or the staff is a complaint.
   */
  detectionOnly?: boolean;
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
    out[record.split].push({
      id,
      text,
      aspects,
      ...(record.detectionOnly && { detectionOnly: true }),
    });
  }
  return out;
}

/**
 * Reads hand-written seed sentences (`data-labels/dealership-seed.jsonl`: `{text, aspects,
 * detectionOnly?}` written by the annotator, not taken from any data set). They cover phrasings and
 * categories the labelled reviews lack and are used for training only, never for scoring. A seed
 * marked `detectionOnly` teaches which aspect a phrasing is about and leaves its polarity, and the
 * aspect's polarity balance, alone.
 */
export function readSeedLabels(path: string): LabelledSentence[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const r = JSON.parse(l) as {
        text: string;
        aspects: [string, Polarity][];
        detectionOnly?: boolean;
      };
      const aspects = r.aspects.map(([category, polarity]) => ({ category, polarity }));
      return {
        id: `seed#${i + 1}`,
        text: r.text,
        aspects,
        ...(r.detectionOnly && { detectionOnly: true }),
      };
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

const TRANSFER_PREFIX = 'transfer:';

/** Whether a sentence is a restaurant transfer sentence ({@link restaurantPolarityTransfer}). */
export function isTransfer(s: Pick<LabelledSentence, 'id'>): boolean {
  return s.id.startsWith(TRANSFER_PREFIX);
}

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
    return [{ id: `${TRANSFER_PREFIX}${s.id}`, text: s.text, aspects, weight, polarityOnly: true }];
  });
}

/**
 * Hand labels read for one category only: each sentence is an example of `category` (positive when
 * its label names it, negative otherwise) at `weight`, and says nothing of the other categories
 * (`unlabelled`), so the weak labels of the same lines keep deciding those.
 */
export function oneCategoryLabels(
  sentences: readonly LabelledSentence[],
  category: string,
  categories: readonly string[],
  weight: number,
): LabelledSentence[] {
  const unlabelled = categories.filter((c) => c !== category);
  return sentences.map((s) => ({
    ...s,
    aspects: s.aspects.filter((a) => a.category === category),
    weight,
    unlabelled,
  }));
}
