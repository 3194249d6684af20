/**
 * Scores staff-name detection of `src/mentions` on DealerRater reviews whose staff tags are
 * known (the evaluation file in `../shared/data`, read at run time, never copied). The gold is
 * computed by an independent rule written here, not by the matcher; docs/benchmarks.md explains
 * it and how it was checked by hand.
 */
import { readFileSync } from 'node:fs';
import type { StaffMember } from '../../src/domain/business.js';
import { compileMentionMatcher } from '../../src/mentions/index.js';

/** One evaluation review: its text and the names of the employees tagged on it. */
export interface EvalReview {
  id: string;
  title: string;
  text: string;
  tagged: string[];
}

/** Reads the JSON-lines evaluation file (`{ id, title, text, employees: [{ name }] }`). */
export function readEvalReviews(path: string): EvalReview[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const r = JSON.parse(l) as {
        id: string;
        title?: string;
        text?: string;
        employees?: { name: string }[];
      };
      return {
        id: String(r.id),
        title: r.title ?? '',
        text: r.text ?? '',
        tagged: [...new Set((r.employees ?? []).map((e) => e.name))],
      };
    });
}

/** Optimal-string-alignment distance (Levenshtein plus adjacent transpositions). */
export function osaDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’]\p{L}+)*/gu) ?? []).map((w) =>
    w.replace(/['’]s$/, ''),
  );
}

/** First and last name of a tagged name, without a quoted nickname (`Adrian "AJ" Cortes`). */
function nameParts(name: string): { first: string; last: string | null } {
  const plain = name.replace(/["“”][^"“”]*["“”]/g, ' ');
  const parts = words(plain);
  return { first: parts[0] ?? '', last: parts.length > 1 ? parts[parts.length - 1]! : null };
}

function sameName(word: string, name: string): boolean {
  if (word === name) return true;
  return word.length >= 5 && name.length >= 5 && osaDistance(word, name) <= 1;
}

/**
 * The gold rule: an employee is named in a review when its title or text holds their first
 * name, or their first and last name in a row, in any case, with a possessive or not, or either
 * name misspelt by one edit when both the word and the name have five letters or more.
 */
export function isNamedIn(name: string, review: Pick<EvalReview, 'title' | 'text'>): boolean {
  const { first, last } = nameParts(name);
  const ws = words(`${review.title}\n${review.text}`);
  for (let i = 0; i < ws.length; i++) {
    if (sameName(ws[i]!, first)) return true;
    if (last !== null && ws[i] === first && ws[i + 1] !== undefined && sameName(ws[i + 1]!, last)) {
      return true;
    }
  }
  return false;
}

/** Precision, recall and their counts. */
export interface Score {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  f1: number;
}

function score(tp: number, fp: number, fn: number): Score {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { truePositives: tp, falsePositives: fp, falseNegatives: fn, precision, recall, f1 };
}

/** The evaluation's outcome: the strict score against tagged-and-named employees, and more. */
export interface MentionEval {
  reviews: number;
  tags: number;
  roster: number;
  gold: number;
  /** Against the gold: tagged employees named in their review. */
  strict: Score;
  /** Against every roster member named in the review, tagged or not. */
  named: Score;
  /** Per-review differences from the strict gold, for reading. */
  errors: { id: string; missed: string[]; extra: string[] }[];
}

/** Builds the roster from every tagged name in the file (role `other`), as docs/benchmarks.md says. */
export function rosterOf(reviews: readonly EvalReview[]): StaffMember[] {
  const names = [...new Set(reviews.flatMap((r) => r.tagged))].sort();
  return names.map((name, i) => ({
    id: `staff-${i + 1}`,
    name,
    role: 'other',
    active: true,
    aliases: [],
  }));
}

/** Runs the matcher on every review (text only, no tags) and scores it against both golds. */
export function evaluateMentions(reviews: readonly EvalReview[]): MentionEval {
  const roster = rosterOf(reviews);
  const matcher = compileMentionMatcher({ staff: roster, services: [] });
  const t = { tp: 0, fp: 0, fn: 0 };
  const n = { tp: 0, fp: 0, fn: 0 };
  let gold = 0;
  const errors: MentionEval['errors'] = [];
  for (const r of reviews) {
    const found = new Set(
      matcher.match({ name: r.title, reviewBody: r.text }).technicians.map((m) => m.name),
    );
    const strict = new Set(r.tagged.filter((name) => isNamedIn(name, r)));
    const named = new Set(roster.map((s) => s.name).filter((name) => isNamedIn(name, r)));
    gold += strict.size;
    for (const name of found) {
      if (strict.has(name)) t.tp++;
      else t.fp++;
      if (named.has(name)) n.tp++;
      else n.fp++;
    }
    for (const name of strict) if (!found.has(name)) t.fn++;
    for (const name of named) if (!found.has(name)) n.fn++;
    const missed = [...strict].filter((x) => !found.has(x));
    const extra = [...found].filter((x) => !strict.has(x));
    if (missed.length + extra.length > 0) errors.push({ id: r.id, missed, extra });
  }
  return {
    reviews: reviews.length,
    tags: reviews.reduce((k, r) => k + r.tagged.length, 0),
    roster: roster.length,
    gold,
    strict: score(t.tp, t.fp, t.fn),
    named: score(n.tp, n.fp, n.fn),
    errors,
  };
}
