import { loadModel } from '../../../src/insights/absa/index.js';
import { predict } from '../../../src/insights/absa/predict.js';
import { recordFigures } from './absa-cv.js';
import { missLine, readLabelSet, type LabelSetReport } from './label-set.js';

/**
 * The shipped dealership model on `data-labels/scheduling-probes.jsonl`: invented US-style
 * sentences about arranging a visit ("Scheduling was a nightmare.", "They were booked solid for
 * two weeks."), never trained on. Each is read as the service reads a sentence, categories
 * detected, not given: a label is found when its category is detected, and right when its
 * polarity is the gold one too.
 */
export interface ProbesReport extends LabelSetReport<'dealership'> {
  labels: number;
  found: number;
  polarityRight: number;
}

/** Scores the shipped dealership model on the scheduling probes; `record` stores the report. */
export function runProbesEval(record: boolean): ProbesReport {
  const model = loadModel('dealership');
  const sentences = readLabelSet('scheduling-probes.jsonl');
  let found = 0;
  let polarityRight = 0;
  const misses = sentences.flatMap((s) => {
    const read = predict(model, s.text);
    return s.aspects.flatMap((a) => {
      const aspect = read.find((r) => r.category === a.category);
      if (aspect) found++;
      if (aspect?.polarity === a.polarity) {
        polarityRight++;
        return [];
      }
      return [missLine(s.text, a.category, aspect?.polarity ?? 'not found', a.polarity)];
    });
  });
  const report: ProbesReport = {
    model: 'dealership',
    modelVersion: model.version,
    command: 'npm run -s absa -- probes',
    sentences: sentences.length,
    labels: sentences.reduce((n, s) => n + s.aspects.length, 0),
    found,
    polarityRight,
    misses,
  };
  if (record) recordFigures('dealership', 'schedulingProbes', report);
  return report;
}
