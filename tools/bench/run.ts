import { parseCommandLine, printUsage, runCommandLine, usageError } from '../../src/cli.js';
import type * as Scenarios from './scenarios.js';

const SCENARIOS = [
  'http',
  'hotpath',
  'import',
  'startup',
  'etag',
  'notify',
  'reads',
  'migrate',
  'insights',
  'mcp',
  'mcp-batches',
  'agent-tasks',
  'pages',
  'stalls',
  'slow-readers',
  'websub',
  'websub-fanout',
  'soak',
  'metrics',
] as const;

const USAGE = `Usage: npm run bench [-- <scenario>...]

Runs the benchmarks and prints Markdown tables; with no scenario, all but migrate, slow-readers,
soak, websub-fanout and metrics.
Scenarios: ${SCENARIOS.join(', ')}.

Environment: BENCH_SIZES (default 1000,100000), BENCH_DURATION (seconds per load, default 10),
BENCH_ENGINES (default sqlite; sqlite,postgres), BENCH_SCALE_COUNT (default 100000),
BENCH_INSIGHTS_COUNT (default 10000), BENCH_WEBSUB_SUBSCRIBERS (default 1000,10000),
BENCH_WEBSUB_INSTANCES (default 1), BENCH_WEBSUB_FANOUT_REVIEWS (default 100000),
BENCH_WEBSUB_FANOUT_SUBSCRIBERS (default 20 per topic), BENCH_SLOW_COUNT (default 100000),
BENCH_SLOW_READERS (default 128), BENCH_SLOW_CODING (default br), BENCH_SLOW_WINDOW_MS (the
service's floor window, default 30000), BENCH_SLOW_SECONDS, BENCH_HOTPATH_COUNT (default 1000),
BENCH_HOTPATH_ROUNDS (default 3), BENCH_HOTPATH_METRICS (on: the service with METRICS_PORT),
BENCH_METRICS_COUNT (default 100000), BENCH_METRICS_SCRAPES (default 200). Figures and how to read them: docs/benchmarks.md.

Options:
  -h, --help   this text`;

const CLI = { name: 'bench', usage: USAGE };

/**
 * `npm run bench [-- http|hotpath|import|startup|etag|notify|reads|migrate|insights|mcp|mcp-batches|agent-tasks|pages|stalls|websub|websub-fanout|soak]`:
 * runs the benchmarks and prints Markdown tables. Sizes come from
 * BENCH_SIZES (default "1000,100000"); each load runs BENCH_DURATION seconds (default 10). The
 * WebSub subscriber counts come from BENCH_WEBSUB_SUBSCRIBERS (default "1000,10000"), the
 * instances sharing the hub's work from BENCH_WEBSUB_INSTANCES (default 1). `http`, `websub` and
 * `import`/`startup`/`etag` (one scenario: BENCH_SCALE_COUNT reviews, default 100,000) and `notify`
 * (BENCH_NOTIFY_CHANGES changes, default 10, to BENCH_NOTIFY_COUNT reviews, default 1,000) run on
 * each engine of BENCH_ENGINES (default "sqlite"; see engines.ts). `reads` (only when named) loads
 * an instance on each engine in turns, BENCH_READS_ROUNDS rounds (default 4), at each of
 * BENCH_SIZES.
 */
async function main(which: ReadonlySet<string>, scenarios: typeof Scenarios): Promise<void> {
  const all = which.size === 0;
  const sizes = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
  const engines = scenarios.benchEngines();
  const run: Run = { which, all, sizes, engines, scenarios };
  await readScenarios(run);
  await mcpAndPageScenarios(run);
  await underLoadScenarios(run);
  await webSubScenarios(run);
}

/** What each group of scenarios needs: the named ones (none: all), the sizes and the engines. */
interface Run {
  which: ReadonlySet<string>;
  all: boolean;
  sizes: number[];
  engines: ReturnType<typeof Scenarios.benchEngines>;
  scenarios: typeof Scenarios;
}

/** The read API: http, hotpath, import/startup/etag, notify, and reads and migrate when named. */
async function readScenarios({ which, all, sizes, engines, scenarios }: Run): Promise<void> {
  const { benchHotpath, benchHttp, benchMigrate, benchNotify, benchReads, benchScale, table } =
    scenarios;
  if (all || which.has('http')) {
    console.log('## HTTP read API\n');
    for (const engine of engines)
      for (const size of sizes) console.log(await benchHttp(size, engine));
  }
  if (all || which.has('hotpath')) {
    console.log('## Hot path: the service against a bare node:http server\n');
    const count = Number(process.env.BENCH_HOTPATH_COUNT ?? 1_000);
    console.log(await benchHotpath(count, Number(process.env.BENCH_HOTPATH_ROUNDS ?? 3)));
  }
  if (all || which.has('import') || which.has('startup') || which.has('etag')) {
    console.log('## Import, start-up and commit → ETag per engine\n');
    const count = Number(process.env.BENCH_SCALE_COUNT ?? 100_000);
    const rows = [];
    for (const engine of engines) rows.push(await benchScale(engine, count));
    console.log(table(rows));
  }
  if (all || which.has('notify')) {
    console.log('## Commit → notice and → ETag on two instances\n');
    const count = Number(process.env.BENCH_NOTIFY_COUNT ?? 1_000);
    const rounds = Number(process.env.BENCH_NOTIFY_CHANGES ?? 10);
    const rows = [];
    for (const engine of engines) rows.push(...(await benchNotify(engine, count, rounds)));
    console.log(table(rows));
  }
  // Needs both engines (a throwaway PostgreSQL cluster): only when named.
  if (which.has('reads')) {
    console.log('## Request rates per engine, in turns\n');
    const rounds = Number(process.env.BENCH_READS_ROUNDS ?? 4);
    for (const size of sizes) {
      console.log(`### ${size.toLocaleString('en-US')} reviews\n`);
      console.log(table(await benchReads(size, rounds)));
    }
  }
  if (which.has('migrate')) {
    console.log('## migrate-store\n');
    console.log(table([await benchMigrate(Number(process.env.BENCH_SCALE_COUNT ?? 100_000))]));
  }
}

/** The insights, MCP (requests, batches, agent tasks) and the pages. */
async function mcpAndPageScenarios({ which, all, sizes, scenarios }: Run): Promise<void> {
  const { benchAgentTasks, benchInsights, benchMcp, benchMcpBatches, benchPages } = scenarios;
  if (all || which.has('insights')) {
    console.log('## Insights\n');
    console.log(await benchInsights(Number(process.env.BENCH_INSIGHTS_COUNT ?? 10_000)));
  }
  if (all || which.has('mcp')) {
    console.log('## MCP\n');
    for (const size of sizes) console.log(await benchMcp(size));
  }
  if (all || which.has('mcp-batches')) {
    console.log('## MCP batches and /healthz\n');
    for (const size of sizes) console.log(await benchMcpBatches(size));
  }
  if (all || which.has('agent-tasks')) {
    console.log('## MCP agent tasks\n');
    console.log(await benchAgentTasks());
  }
  if (all || which.has('pages')) {
    console.log('## Pages\n');
    for (const size of sizes) console.log(await benchPages(size));
  }
}

/** The service under load: stalls, and slow-readers, metrics and soak when named. */
async function underLoadScenarios({ which, all, scenarios }: Run): Promise<void> {
  const { benchMetricsScrape, benchSlowReaders, benchSoak, benchStalls } = scenarios;
  if (all || which.has('stalls')) {
    console.log('## Stalls\n');
    console.log(await benchStalls());
  }
  // 128 slow readers of the whole dataset (about three minutes at 100,000 reviews): only when named.
  if (which.has('slow-readers')) {
    console.log('## Slow readers of a streamed since result\n');
    console.log(await benchSlowReaders());
  }
  // A scrape's hold on the event loop at 100,000 reviews (a store generated first): only when named.
  if (which.has('metrics')) {
    console.log('## Metrics: a scrape and the event loop\n');
    const count = Number(process.env.BENCH_METRICS_COUNT ?? 100_000);
    console.log(await benchMetricsScrape(count, Number(process.env.BENCH_METRICS_SCRAPES ?? 200)));
  }
  // The soak (a minute at 1,000 connections with a 100,000-review import) runs only when named.
  if (which.has('soak')) {
    console.log('## Soak\n');
    console.log(await benchSoak());
  }
}

/** WebSub: websub-fanout when named, and the distribution. */
async function webSubScenarios({ which, all, engines, scenarios }: Run): Promise<void> {
  const { benchWebSub, benchWebSubFanout, table } = scenarios;
  // 60 deliveries of every topic at 100,000 reviews (about 2.3 GB over loopback): only when named.
  if (which.has('websub-fanout')) {
    console.log('## WebSub fan-out of every topic\n');
    const reviews = Number(process.env.BENCH_WEBSUB_FANOUT_REVIEWS ?? 100_000);
    const perTopic = Number(process.env.BENCH_WEBSUB_FANOUT_SUBSCRIBERS ?? 20);
    console.log(table([await benchWebSubFanout(reviews, perTopic)]));
  }
  if (all || which.has('websub')) {
    console.log('## WebSub distribution\n');
    const counts = (process.env.BENCH_WEBSUB_SUBSCRIBERS ?? '1000,10000').split(',').map(Number);
    const instances = Number(process.env.BENCH_WEBSUB_INSTANCES ?? 1);
    const rows = [];
    for (const engine of engines)
      for (const n of counts) rows.push(await benchWebSub(n, engine, instances));
    console.log(table(rows));
  }
}

const code = await runCommandLine(CLI, async () => {
  const args = parseCommandLine(process.argv.slice(2), {});
  if (args === null) return printUsage(CLI);
  const unknown = args.positionals.filter((p) => !(SCENARIOS as readonly string[]).includes(p));
  if (unknown.length > 0) throw usageError(`unknown scenario: ${unknown.join(', ')}`);
  // The scenarios load only now: `--help` and a refused argument answer without them.
  const scenarios = await import('./scenarios.js');
  try {
    await main(new Set(args.positionals), scenarios);
  } finally {
    await scenarios.stopEngines().catch(() => undefined);
  }
  return 0;
});
// A failed scenario may leave a child or a server behind: end at once, as before.
if (code !== 0) process.exit(code);
