/** Insights: the public surface of `src/insights` (the ABSA models live in `./absa`). */
export { createInsightsEngine } from './engine.js';
export type { InsightsEngine } from './engine.js';
export { computeInsights } from './build.js';
export type { InsightsInput, InsightsMethod, InsightsResult } from './build.js';
export { Insights } from './schema.js';
export { quoteKey } from './internal/evidence.js';
export { ASPECT_EVIDENCE_MIN_CONFIDENCE, aspectEvidenceAllowed } from './internal/tally.js';
export { changeWindows, twoProportionTest } from './internal/changes.js';
export type { Polarity } from './analyzer.js';
export { renderReport } from './report.js';
