import { predict } from '../../../src/insights/absa/predict.js';
import { missLine, runLabelSet, type LabelSetReport } from './label-set.js';

/**
 * The shipped dealership model on `data-labels/scheduling-probes.jsonl`: invented US-style
 * sentences about arranging a visit ("Scheduling was a nightmare.", "They were booked solid for
 * two weeks."), never trained on. Each is read as the service reads a sentence, categories
 * detected, not given: a label is found when its category is detected, and right when its
 * polarity is the gold one too.
 */
export type ProbesReport = LabelSetReport<
  'dealership',
  { labels: number; found: number; polarityRight: number }
>;

/** Scores the shipped dealership model on the scheduling probes; `record` stores the report. */
export function runProbesEval(record: boolean): ProbesReport {
  const set = {
    model: 'dealership',
    file: 'scheduling-probes.jsonl',
    command: 'npm run -s absa -- probes',
    figure: 'schedulingProbes',
  } as const;
  return runLabelSet(
    set,
    (model, sentences) => {
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
      const labels = sentences.reduce((n, s) => n + s.aspects.length, 0);
      return { labels, found, polarityRight, misses };
    },
    record,
  );
}
