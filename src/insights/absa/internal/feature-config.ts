/** Which features the models extract; stored in each model file. */
export interface FeatureConfig {
  /** Character n-gram lengths inside words, e.g. `[3, 5]`, or `null` for none. */
  charNgrams: [number, number] | null;
  /** Add word-cluster features (needs `models/word-clusters.json`). */
  clusters: boolean;
  /** Scale every feature bag to unit Euclidean length. */
  normalize: boolean;
  /** Minimum detection weight that makes a word an anchor of a category for polarity. */
  anchorThreshold: number;
  /** Scale of the mean word vector added to detection features (0 or absent: none). */
  vectors?: number;
  /**
   * Detection also reads each clause as a sentence of its own: a category's log-odds are the
   * highest of the sentence's and, for each clause, this weight times the clause's plus the rest
   * times the sentence's (0 or absent: the sentence alone). Praise of one aspect lowers another's
   * odds in the same sentence ("the advisor was great but the wait was awful": wait time 0.22,
   * "the wait was awful" alone 0.85); a clause alone, out of context, is read wrong too often.
   */
  clauseDetection?: number;
  /**
   * The clause reading of detection also breaks a run-on sentence where a subject pronoun starts
   * its next clause (`startsRunOnClause`, run-on.ts): survey answers run two topics together with no punctuation.
   * Detection only: the polarity features keep the sentence's punctuation clauses.
   */
  runOnClauses?: boolean;
  /** Scale of the mean word vector of the category's clause in polarity features (0: none). */
  polarityVectors?: number;
  /**
   * Add the classes of the durations the sentence names (`durationClasses`: up to 45 minutes, up
   * to 100, up to four hours, longer) among polarity features, alone and with the category.
   */
  durations?: boolean;
  /** Add lexicon features from the vector-induced sentiment scores. */
  induced?: boolean;
  /**
   * Words at most this many tokens from an anchor of the category: their n-grams (also conjoined
   * with the category) and lexicon scores among polarity features (0 or absent: none). The window
   * reads what is said next to the aspect when the clause holds several aspects.
   */
  polarityWindow?: number;
  /**
   * Pretrained sentence-encoder features: the encoder's id (`internal/sentence-encoder.ts`), the
   * scale of the sentence's embedding among detection features, that of the embedding of the
   * category's clause (the sentence when no clause is found) among polarity features (0: none),
   * and that of the whole sentence's embedding among polarity features too (absent or 0: none).
   */
  sentenceEmbedding?: {
    encoder: string;
    detect: number;
    polarity: number;
    polaritySentence?: number;
  };
}
