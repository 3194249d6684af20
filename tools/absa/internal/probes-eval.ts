import { predict } from '../../../src/insights/absa/predict.js';
import { missLine, runLabelSet, type LabelSetReport } from './label-set.js';

/**
 * The shipped dealership model on invented US-style sentences never trained on, one file per
 * aspect the survey's Indian English cannot teach: `data-labels/scheduling-probes.jsonl`
 * (arranging a visit: "Scheduling was a nightmare.", "They were booked solid for two weeks.") and
 * `data-labels/staff-probes.jsonl` (how the staff treated the customer: "The service manager was
 * dismissive when I complained."). Each is read as the service reads a sentence, categories
 * detected, not given: a label is found when its category is detected, and right when its
 * polarity is the gold one too.
 */
export type ProbesReport = LabelSetReport<
  'dealership',
  { labels: number; found: number; polarityRight: number }
>;

/** The probe files, by the key of their report in `models/metrics.json`. */
const PROBE_SETS = {
  schedulingProbes: 'scheduling-probes.jsonl',
  staffProbes: 'staff-probes.jsonl',
} as const;

export type ProbesReports = Record<keyof typeof PROBE_SETS, ProbesReport>;

function runProbeSet(figure: keyof typeof PROBE_SETS, record: boolean): ProbesReport {
  const set = {
    model: 'dealership',
    file: PROBE_SETS[figure],
    command: 'npm run -s absa -- probes',
    figure,
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

/** Scores the shipped dealership model on every probe file; `record` stores the reports. */
export function runProbesEval(record: boolean): ProbesReports {
  return {
    schedulingProbes: runProbeSet('schedulingProbes', record),
    staffProbes: runProbeSet('staffProbes', record),
  };
}
