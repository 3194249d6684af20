/**
 * Analyses derived from review texts (the insights' per-text ABSA results), kept so that a restart
 * does not analyse every text again. A cache: deleting it costs only recomputation. Keys are
 * opaque (the insights engine hashes the model version with the text).
 */
export interface AnalysisStore {
  /** The stored analyses (JSON text) of these keys; missing keys are absent from the map. */
  get(keys: readonly string[]): Promise<Map<string, string>>;
  /** Stores analyses (key and JSON text), replacing any stored under the same key. */
  put(entries: readonly (readonly [key: string, analysis: string])[]): Promise<void>;
  /** Number of stored analyses. */
  count(): Promise<number>;
  /** Deletes every analysis whose key is not in `keep`; returns how many. */
  retain(keep: ReadonlySet<string>): Promise<number>;
}
