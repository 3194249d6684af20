import { predict } from '../../../src/insights/absa/predict.js';
import { evaluate, toScores, type Scores } from '../training/index.js';
import { missLine, runLabelSet, type LabelSetReport } from './label-set.js';

/**
 * The shipped MAMS model on `data-labels/restaurant-contrast.jsonl`: invented sentences, each with
 * two aspects of opposite polarity ("The waiter was rude but the food was delicious."), the kind
 * of sentence every MAMS sentence is. Polarity is judged with the gold categories given.
 */
export type ContrastReport = LabelSetReport<'mams-acsa', { judgements: number; scores: Scores }>;

/** Scores the shipped MAMS model on the contrast sentences; `record` stores the report. */
export function runContrastEval(record: boolean): ContrastReport {
  const set = {
    model: 'mams-acsa',
    file: 'restaurant-contrast.jsonl',
    command: 'npm run -s absa -- contrast',
    figure: 'contrastSet',
  } as const;
  return runLabelSet(
    set,
    (model, sentences) => {
      const misses = sentences.flatMap((s) => {
        const categories = s.aspects.map((a) => a.category);
        const read = predict(model, s.text, categories);
        return s.aspects.flatMap((a, i) => {
          const polarity = read[i]!.polarity;
          return polarity === a.polarity
            ? []
            : [missLine(s.text, a.category, polarity, a.polarity)];
        });
      });
      const judgements = sentences.reduce((n, s) => n + s.aspects.length, 0);
      return { judgements, scores: toScores(evaluate(model, sentences)), misses };
    },
    record,
  );
}
