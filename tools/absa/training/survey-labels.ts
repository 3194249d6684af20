import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitSentences } from '../../../src/insights/absa/sentences.js';
import type { LabelledSentence } from './datasets.js';

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
  /** In the held-out quarter (by default every 4th non-empty line of its file), never trained on. */
  heldOut: boolean;
  /** Says only that nothing needs improving: it carries no aspect (see {@link nothingToImprove}). */
  nothingToImprove: boolean;
}

/** Every `HELD_OUT_EVERY`th non-empty line of each survey file is held out of training. */
export const HELD_OUT_EVERY = 4;

const NOTHING =
  /^(no improvement|nothing( to improve| needs? (to be )?improv\w*)?$|none$|no comments?$|no suggestions?$|(all|everything) (are|is) (fine|good|ok)$)/;

/** The interviewer's note that the respondent gave no answer ("respondent did not answer how to improve"). */
const NO_ANSWER =
  /^respondent (did not|was not|not|ca n ?t|can ?not|could not)( able to)? (answer|suggest)\w*( (how|what|on|any\w*)( [a-z]+){0,4})?$/;

/**
 * Whether a comment only says nothing needs improving: after lower-casing and keeping only letters
 * and spaces, it starts with "no improvement" ("no improvement require", "no improvement require
 * all are fine", "no improvement requires because ...": an answer without a complaint), or it is
 * exactly "nothing", "nothing to improve", "none", "no comment(s)", "no suggestion(s)", "all are
 * fine", "everything is good" (or fine, ok); or it is the interviewer's note that the respondent
 * gave no answer ("respondent did not answer how to improve", "respondent could not suggest
 * anything"). Such comments carry no aspect: they are neither weak labels nor scored.
 */
export function nothingToImprove(text: string): boolean {
  const words = text
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();
  return NOTHING.test(words) || NO_ANSWER.test(words);
}

/**
 * The survey comments of the development files, in file order, each with its question, whether it
 * is held out and whether it says nothing needs improving. The held-out part is a quarter: the
 * `quarter`th of every {@link HELD_OUT_EVERY} non-empty lines of each file. Quarter 0 (every
 * fourth line, counting from the first) is the fixed part the shipped model never trains on;
 * quarters 1 to 3 rotate it for `absa survey-cv`.
 */
export function surveyComments(dataDir: string, quarter = 0): SurveyComment[] {
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
          heldOut: (nonEmpty + quarter) % HELD_OUT_EVERY === 0,
          nothingToImprove: nothingToImprove(text),
        });
      });
  }
  return out;
}

/**
 * Words of washing and cleaning. Question 4 asks about the car's condition *and* cleanliness on
 * return: its comments that name none of these speak of the condition ("they should check the car
 * properly before handing it over"), which is the work's result, so they are weak labels of
 * quality of work as well (see {@link surveyWeakLabels}).
 */
const CLEANING =
  /\b(wash\w*|clean\w*|dirt\w*|dust\w*|polish\w*|vacuum\w*|stain\w*|mud\w*|interior|wip\w*|shin\w*|water|mats?|smell\w*|tidy|spotless|foam|hygien\w*|scratch\w*|dent\w*|grease|seat covers?)\b/;

/** The categories a comment's question makes a weak label of. */
export function weakCategories(comment: Pick<SurveyComment, 'question' | 'text'>): string[] {
  const category = SURVEY_QUESTION_CATEGORY[comment.question]!;
  if (comment.question === 4 && !CLEANING.test(comment.text.toLowerCase())) {
    return [category, 'quality-of-work'];
  }
  return [category];
}

/**
 * Words of informing and explaining, what `staff-communication` is about (labelling guideline).
 * Comments answering other questions use them too ("they should inform how much time it takes",
 * under the waiting question): such a sentence speaks of the staff's communication as well.
 * "Tell" and "told" are left out: they mostly report what was said ("they told me two hours").
 */
const INFORMING =
  /\b(inform\w*|explain\w*|explanation|update\w*|convey\w*|guid\w*|brief\w*|clarif\w*)\b/;

/**
 * The categories one sentence of a comment is a weak label of: its comment's
 * ({@link weakCategories}), and `staff-communication` too when the sentence speaks of informing
 * or explaining.
 */
export function weakSentenceCategories(
  comment: Pick<SurveyComment, 'question' | 'text'>,
  sentence: string,
): string[] {
  const categories = weakCategories(comment);
  if (!categories.includes('staff-communication') && INFORMING.test(sentence.toLowerCase())) {
    return [...categories, 'staff-communication'];
  }
  return categories;
}

/**
 * Weak labels from the training part of the survey's development files: every sentence of a
 * comment gets the categories its question and its words say it is about
 * ({@link weakSentenceCategories}), with `weight`;
 * the `unlabelled` categories are ones a weak label says nothing about. They train detection only:
 * their polarity (negative, as the survey asks what should be improved) is a guess, so the polarity
 * model never sees them. Held-out comments (never trained on: they are the survey evaluation),
 * comments saying nothing needs improving and the lines in `exclude` (`file#line`, the
 * hand-labelled ones) are skipped. `quarter` is the held-out quarter ({@link surveyComments}).
 */
export function surveyWeakLabels(
  dataDir: string,
  exclude: ReadonlySet<string>,
  weight: number,
  unlabelled: readonly string[] = [],
  quarter = 0,
): LabelledSentence[] {
  return surveyComments(dataDir, quarter)
    .filter((c) => !c.heldOut && !c.nothingToImprove && !exclude.has(c.key))
    .flatMap((c) =>
      splitSentences(c.text).map((s) => ({
        id: `${c.key}@${s.start}`,
        text: s.text,
        aspects: weakSentenceCategories(c, s.text).map((category) => ({
          category,
          polarity: 'negative' as const,
        })),
        weight,
        detectionOnly: true,
        ...(unlabelled.length > 0 ? { unlabelled } : {}),
      })),
    );
}
