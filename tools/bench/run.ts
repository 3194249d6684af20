import { table } from './harness.js';
import { benchHttp } from './http.js';
import { benchInsights } from './insights.js';
import { benchMcp } from './mcp.js';
import { benchSoak } from './soak.js';
import { benchStalls } from './stalls.js';
import { benchWebSub } from './websub.js';

/**
 * `npm run bench [-- http|insights|mcp|stalls|websub|soak]`: runs the benchmarks and prints Markdown tables. Sizes come from
 * BENCH_SIZES (default "1000,100000"); each load runs BENCH_DURATION seconds (default 10). The
 * WebSub subscriber counts come from BENCH_WEBSUB_SUBSCRIBERS (default "1000,10000").
 */
async function main(): Promise<void> {
  const which = new Set(process.argv.slice(2));
  const all = which.size === 0;
  const sizes = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
  if (all || which.has('http')) {
    console.log('## HTTP read API\n');
    for (const size of sizes) console.log(await benchHttp(size));
  }
  if (all || which.has('insights')) {
    console.log('## Insights\n');
    console.log(await benchInsights(Number(process.env.BENCH_INSIGHTS_COUNT ?? 10_000)));
  }
  if (all || which.has('mcp')) {
    console.log('## MCP\n');
    for (const size of sizes) console.log(await benchMcp(size));
  }
  if (all || which.has('stalls')) {
    console.log('## Stalls\n');
    console.log(await benchStalls());
  }
  // The soak (a minute at 1,000 connections with a 100,000-review import) runs only when named.
  if (which.has('soak')) {
    console.log('## Soak\n');
    console.log(await benchSoak());
  }
  if (all || which.has('websub')) {
    console.log('## WebSub distribution\n');
    const counts = (process.env.BENCH_WEBSUB_SUBSCRIBERS ?? '1000,10000').split(',').map(Number);
    const rows = [];
    for (const n of counts) rows.push(await benchWebSub(n));
    console.log(table(rows));
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
