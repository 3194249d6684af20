import { loadModel } from '../../../src/insights/absa/index.js';
import { predict } from '../../../src/insights/absa/predict.js';
import { evaluate, toScores, type Scores } from '../training/index.js';
import { recordFigures } from './absa-cv.js';
import { missLine, readLabelSet, type LabelSetReport } from './label-set.js';

/**
 * The shipped MAMS model on `data-labels/restaurant-contrast.jsonl`: invented sentences, each with
 * two aspects of opposite polarity ("The waiter was rude but the food was delicious."), the kind
 * of sentence every MAMS sentence is. Polarity is judged with the gold categories given.
 */
export interface ContrastReport extends LabelSetReport<'mams-acsa'> {
  judgements: number;
  scores: Scores;
}

/** Scores the shipped MAMS model on the contrast sentences; `record` stores the report. */
export function runContrastEval(record: boolean): ContrastReport {
  const model = loadModel('mams-acsa');
  const sentences = readLabelSet('restaurant-contrast.jsonl');
  const misses = sentences.flatMap((s) => {
    const read = predict(
      model,
      s.text,
      s.aspects.map((a) => a.category),
    );
    return s.aspects.flatMap((a, i) => {
      const polarity = read[i]!.polarity;
      return polarity === a.polarity ? [] : [missLine(s.text, a.category, polarity, a.polarity)];
    });
  });
  const report: ContrastReport = {
    model: 'mams-acsa',
    modelVersion: model.version,
    command: 'npm run -s absa -- contrast',
    sentences: sentences.length,
    judgements: sentences.reduce((n, s) => n + s.aspects.length, 0),
    scores: toScores(evaluate(model, sentences)),
    misses,
  };
  if (record) recordFigures('mams-acsa', 'contrastSet', report);
  return report;
}
