import { join } from 'node:path';
import { modelFromFile, type AbsaModel } from '../../../src/insights/absa/index.js';
import {
  dealershipData,
  ensureTrainingEmbeddings,
  readDealershipLabels,
  repoRoot,
  SURVEY_QUESTION_CATEGORY,
  trainConfig,
  trainModel,
} from '../training/index.js';
import { HELD_OUT_EVERY, surveyComments } from '../training/survey-labels.js';
import { requireSharedData, sharedDataDir } from '../../paths.js';
import { recordFigures } from './absa-cv.js';
import {
  foundCategories,
  pct,
  pooledRecall,
  surveyRecall,
  type SurveyRecall,
  type SurveyReport,
} from './survey-eval.js';

/**
 * The questions whose training lines issue 32's sixth pass labelled whole, sentence by sentence,
 * by what they say (docs/absa-labelling-guideline.md). Their held-out comments' hand labels say
 * how many of them are about the question's aspect at all.
 */
const LABELLED_WHOLE = [1, 3, 5];

/**
 * For one question, its held-out comments that have hand labels: how many the labels say are about
 * the question's aspect (the most a model that follows the guideline can find), and how many of
 * those the model finds it in.
 */
export interface LabelledCeiling {
  question: number;
  category: string;
  /** Held-out comments with hand labels (each of their sentences labelled). */
  labelled: number;
  /** Of those, the comments whose hand labels hold the question's category. */
  aboutQuestion: number;
  aboutQuestionShare: number;
  /** Of `aboutQuestion`, the comments the model gives the question's category. */
  found: number;
  foundShare: number;
}

/** What `absa survey-cv` prints. */
export interface SurveyCvReport {
  command: string;
  /** One dealership model per quarter, trained without it and scored on it. */
  quarters: {
    quarter: number;
    modelVersion: string;
    survey: SurveyReport;
    labelled: LabelledCeiling[];
  }[];
  /** The four quarters together: every survey comment, each scored by a model that never saw it. */
  pooled: {
    perQuestion: (SurveyRecall & { question: number; category: string })[];
    overall: SurveyRecall;
    labelled: LabelledCeiling[];
  };
}

/** The survey lines' hand-label categories by line (`file#line`), all sentences together. */
function handLabelsByLine(): Map<string, Set<string>> {
  const labels = readDealershipLabels(
    join(repoRoot(), 'data-labels', 'dealership-sentences.jsonl'),
    sharedDataDir(),
  );
  const byLine = new Map<string, Set<string>>();
  for (const s of [...labels.train, ...labels.test]) {
    const line = s.id.split('@')[0]!;
    const categories = byLine.get(line) ?? new Set<string>();
    for (const a of s.aspects) categories.add(a.category);
    byLine.set(line, categories);
  }
  return byLine;
}

function labelledCeiling(
  model: AbsaModel,
  quarter: number,
  hand: ReadonlyMap<string, ReadonlySet<string>>,
): LabelledCeiling[] {
  const comments = surveyComments(sharedDataDir(), quarter).filter(
    (c) => c.heldOut && !c.nothingToImprove && hand.has(c.key),
  );
  return LABELLED_WHOLE.map((question) => {
    const category = SURVEY_QUESTION_CATEGORY[question]!;
    const mine = comments.filter((c) => c.question === question);
    const about = mine.filter((c) => hand.get(c.key)!.has(category));
    const found = about.filter((c) => foundCategories(model, c.text).has(category)).length;
    return ceilingOf(question, mine.length, about.length, found);
  });
}

function ceilingOf(
  question: number,
  labelled: number,
  aboutQuestion: number,
  found: number,
): LabelledCeiling {
  return {
    question,
    category: SURVEY_QUESTION_CATEGORY[question]!,
    labelled,
    aboutQuestion,
    aboutQuestionShare: pct(aboutQuestion, labelled),
    found,
    foundShare: pct(found, aboutQuestion),
  };
}

/**
 * `absa survey-cv`: issue 32's survey recall on every survey comment rather than on the fixed
 * quarter. For each quarter of the survey's development lines, a dealership model is trained as
 * the shipped one is, but without that quarter (its hand-labelled lines included), and scored on
 * it; the four quarters are then pooled. For questions 1, 3 and 5, whose training lines are
 * labelled whole by hand, it also reports how many held-out comments their hand labels say are
 * about the question's aspect. About 80 s of training a quarter; quarter 0's model differs from the
 * shipped one only by its 31 hand-labelled lines. With `save`, a run of all four quarters is
 * recorded in `models/metrics.json` as `dealership.surveyCv`.
 */
export async function runSurveyCv(
  quarters: readonly number[],
  save = false,
): Promise<SurveyCvReport> {
  requireSharedData();
  const config = trainConfig('dealership');
  const hand = handLabelsByLine();
  const results: SurveyCvReport['quarters'] = [];
  for (const quarter of quarters) {
    const { train } = dealershipData({ surveyQuarter: quarter });
    await ensureTrainingEmbeddings(config, train);
    const file = trainModel(train, config);
    const model = modelFromFile(file, config.clusters, config.vectors);
    process.stderr.write(`survey-cv: quarter ${quarter} trained (${file.version})\n`);
    results.push({
      quarter,
      modelVersion: file.version,
      survey: surveyRecall(model, new Set(), quarter),
      labelled: labelledCeiling(model, quarter, hand),
    });
  }
  const perQuestion = Object.keys(SURVEY_QUESTION_CATEGORY).map((key, i) => ({
    question: Number(key),
    category: SURVEY_QUESTION_CATEGORY[Number(key)]!,
    ...pooledRecall(results.map((r) => r.survey.perQuestion[i]!)),
  }));
  const labelled = LABELLED_WHOLE.map((question, i) => {
    const parts = results.map((r) => r.labelled[i]!);
    const sum = (k: 'labelled' | 'aboutQuestion' | 'found'): number =>
      parts.reduce((total, p) => total + p[k], 0);
    return ceilingOf(question, sum('labelled'), sum('aboutQuestion'), sum('found'));
  });
  const all = quarters.length === HELD_OUT_EVERY;
  const report: SurveyCvReport = {
    command: `npm run -s absa -- survey-cv${all ? '' : ` --quarters ${quarters.join(',')}`}`,
    quarters: results,
    pooled: {
      perQuestion,
      overall: pooledRecall(results.map((r) => r.survey.overall)),
      labelled,
    },
  };
  if (save) {
    if (!all) throw new Error('only a run of all four quarters is recorded');
    recordFigures('dealership', 'surveyCv', report);
  }
  return report;
}
