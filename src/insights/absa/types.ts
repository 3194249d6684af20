/** The four polarities of SemEval-2014 Task 4 (subtask 4), in the order the models use. */
export const POLARITIES = ['positive', 'negative', 'neutral', 'conflict'] as const;

/** Sentiment of one aspect category in one sentence. */
export type Polarity = (typeof POLARITIES)[number];

/** One predicted aspect category with its polarity (the `predict` contract). */
export interface AspectPolarity {
  category: string;
  polarity: Polarity;
}

/** An aspect category of a taxonomy: a stable id and a display name. */
export interface AspectCategory {
  id: string;
  name: string;
}
