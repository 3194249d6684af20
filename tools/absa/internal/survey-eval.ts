import { analyzeReview, loadModel, type AbsaModel } from '../../../src/insights/absa/index.js';
import { dealershipData, evaluate, toScores, type Scores } from '../training/index.js';
import {
  HELD_OUT_EVERY,
  SURVEY_QUESTION_CATEGORY,
  surveyComments,
  type SurveyComment,
} from '../training/survey-labels.js';
import { quotePolarity, type QuotePolarity } from './quote-eval.js';
import { requireSharedData, sharedDataDir } from '../../paths.js';

/** The survey lines (`file#line`) among hand-labelled sentences: what training has seen. */
export function labelledLines(sentences: readonly { id: string }[]): Set<string> {
  return new Set(sentences.map((s) => s.id.split('@')[0]!));
}

/** Survey recall of one question (or of all of them): counts and percentages of scored comments. */
export interface SurveyRecall {
  comments: number;
  /** Comments with the question's category in at least one sentence. */
  withQuestionAspect: number;
  /** Comments with no aspect at all in any sentence. */
  withoutAspect: number;
  recall: number;
  noAspectShare: number;
}

/** The survey evaluation of a dealership model on the held-out survey comments. */
export interface SurveyReport {
  rule: string;
  /** Held-out comments not scored: saying nothing needs improving, or hand-labelled for training. */
  skipped: { nothingToImprove: number; trainedOn: number };
  perQuestion: (SurveyRecall & { question: number; category: string })[];
  /** Pooled over all scored comments. */
  overall: SurveyRecall;
}

/** `x` of `n` as a percentage with two decimals (0 when `n` is 0). */
export const pct = (x: number, n: number): number => Math.round((x / Math.max(1, n)) * 10000) / 100;

/** The recall of several disjoint sets of comments taken together. */
export function pooledRecall(parts: readonly SurveyRecall[]): SurveyRecall {
  const sum = (key: 'comments' | 'withQuestionAspect' | 'withoutAspect'): number =>
    parts.reduce((total, p) => total + p[key], 0);
  const comments = sum('comments');
  return {
    comments,
    withQuestionAspect: sum('withQuestionAspect'),
    withoutAspect: sum('withoutAspect'),
    recall: pct(sum('withQuestionAspect'), comments),
    noAspectShare: pct(sum('withoutAspect'), comments),
  };
}

/** The categories a model finds in a comment, in any of its sentences. */
export function foundCategories(model: AbsaModel, text: string): Set<string> {
  return new Set(
    analyzeReview(model, text).sentences.flatMap((s) => s.aspects.map((a) => a.category)),
  );
}

function recallOf(found: readonly Set<string>[], category: (i: number) => string): SurveyRecall {
  const withQuestionAspect = found.filter((f, i) => f.has(category(i))).length;
  const withoutAspect = found.filter((f) => f.size === 0).length;
  return {
    comments: found.length,
    withQuestionAspect,
    withoutAspect,
    recall: pct(withQuestionAspect, found.length),
    noAspectShare: pct(withoutAspect, found.length),
  };
}

/**
 * Scores a dealership model on the held-out survey comments the way issue 32 defines it: each
 * comment (all its sentences, as `analyzeReview` splits it) should get the category its question
 * asks about (`SURVEY_QUESTION_CATEGORY`), and should get some aspect. Held-out comments that say
 * nothing needs improving, or that are in `trainedOn` (hand-labelled train lines, `file#line`), are
 * skipped and counted. `quarter` is the held-out quarter (`surveyComments`; 0, the fixed one, for
 * the shipped model).
 */
export function surveyRecall(
  model: AbsaModel,
  trainedOn: ReadonlySet<string>,
  quarter = 0,
): SurveyReport {
  const heldOut = surveyComments(sharedDataDir(), quarter).filter((c) => c.heldOut);
  const scored: SurveyComment[] = heldOut.filter(
    (c) => !c.nothingToImprove && !trainedOn.has(c.key),
  );
  const found = scored.map((c) => foundCategories(model, c.text));
  const category = (i: number): string => SURVEY_QUESTION_CATEGORY[scored[i]!.question]!;
  const perQuestion = Object.keys(SURVEY_QUESTION_CATEGORY).map((key) => {
    const question = Number(key);
    const idx = scored.flatMap((c, i) => (c.question === question ? [i] : []));
    const r = recallOf(
      idx.map((i) => found[i]!),
      (j) => category(idx[j]!),
    );
    return { question, category: SURVEY_QUESTION_CATEGORY[question]!, ...r };
  });
  return {
    rule:
      `every ${HELD_OUT_EVERY}th non-empty line of each dev/qN.txt` +
      (quarter === 0 ? '' : `, from non-empty line ${HELD_OUT_EVERY - quarter}`),
    skipped: {
      nothingToImprove: heldOut.filter((c) => c.nothingToImprove).length,
      trainedOn: heldOut.filter((c) => !c.nothingToImprove && trainedOn.has(c.key)).length,
    },
    perQuestion,
    overall: recallOf(found, category),
  };
}

/**
 * `absa survey-eval`: the shipped dealership model (`models/dealership.json`) on the held-out
 * survey comments, its detection precision on the hand-labelled test third, and how often the
 * aspect evidence it would quote there has the wrong polarity (with the evidence's confidence floor
 * and without it). Half a minute, no training.
 */
export function runSurveyEval(): {
  command: string;
  modelVersion: string;
  surveyHeldOut: SurveyReport;
  testSplit: Scores & { sentences: number };
  /** The aspect evidence's polarity errors on the test third, with the floor and without. */
  quotePolarity: QuotePolarity[];
} {
  requireSharedData();
  const model = loadModel('dealership');
  const { gold, test } = dealershipData({ weakWeight: 0, transferWeight: 0, seed: false });
  return {
    command: 'npm run -s absa -- survey-eval',
    modelVersion: model.version,
    surveyHeldOut: surveyRecall(model, labelledLines(gold)),
    testSplit: { ...toScores(evaluate(model, test)), sentences: test.length },
    quotePolarity: [quotePolarity(model, test), quotePolarity(model, test, 0)],
  };
}
