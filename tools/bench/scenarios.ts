/**
 * Every scenario of `npm run bench`, in one module that `run.ts` loads once its command line
 * holds (`--help` and a refused argument load none of them: about 1.5 s of CPU less).
 */
export { benchAgentTasks } from './agent-tasks.js';
export { benchEngines, stopEngines } from './engines.js';
export { table } from './harness.js';
export { benchHotpath } from './hotpath.js';
export { benchHttp } from './http.js';
export { benchInsights } from './insights.js';
export { benchMcp, benchMcpBatches } from './mcp.js';
export { benchMetricsScrape } from './metrics.js';
export { benchPages } from './pages.js';
export { benchReads } from './reads.js';
export { benchMigrate, benchNotify, benchScale } from './scale.js';
export { benchSlowReaders } from './slow-readers.js';
export { benchSoak } from './soak.js';
export { benchStalls } from './stalls.js';
export { benchWebSub } from './websub.js';
export { benchWebSubFanout } from './websub-fanout.js';
