import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusinessInput } from '../../src/domain/business.js';
import type { ReviewSourceInput } from '../../src/domain/review.js';
import { AGENT_TASKS, runAgentTask, type TaskRun } from '../../tools/bench/agent-tasks.js';
import { waitUntil } from '../helpers/child-service.js';
import { connectClient } from '../helpers/mcp.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The agent task suite (issue 17): realistic questions, each answered by a fixed sequence of MCP
 * calls over the sample dealership, checked against the same answer computed from the HTTP read
 * API, and each within 10,000 tokens of tool output (the table in docs/benchmarks.md comes from
 * `npm run bench -- agent-tasks`, which runs these tasks).
 */
const TASK_BUDGET = 10_000;

const ROOT = join(import.meta.dirname, '..', '..');
const sample = JSON.parse(readFileSync(join(ROOT, 'sample/dealership.json'), 'utf8')) as {
  business: BusinessInput;
  reviews: ReviewSourceInput[];
};

let svc: TestService;
let client: Client;
const runs: TaskRun[] = [];

beforeAll(async () => {
  svc = await startTestService({ business: sample.business, reviews: sample.reviews });
  // The insights follow the data version; the tasks need them.
  await waitUntil(
    async () => (await fetch(`${svc.url}/insights.json`)).ok || undefined,
    'the insights',
    100_000,
  );
  ({ client } = await connectClient(svc.url));
}, 120_000);
afterAll(async () => {
  await client?.close();
  await svc?.stop();
});

describe('agent tasks over MCP (issue 17)', () => {
  it('has at least 15 tasks with distinct ids', () => {
    expect(AGENT_TASKS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(AGENT_TASKS.map((t) => t.id)).size).toBe(AGENT_TASKS.length);
  });

  it.each(AGENT_TASKS.map((t) => [t.id, t] as const))(
    '%s: the answer is in the results, within 10,000 tokens',
    async (_id, task) => {
      const run = await runAgentTask(task, client, svc.url);
      runs.push(run);
      expect(run.answer).toEqual(run.expected);
      expect(run.calls.length).toBeGreaterThan(0);
      expect(run.tokens).toBeLessThan(TASK_BUDGET);
    },
  );
});

describe('names and resources an agent finds over the sample (issue 17)', () => {
  it('completes the id of any review, the oldest of 1,800 included', async () => {
    const since = (await (await fetch(`${svc.url}/api/reviews/since/2000-01-01`)).json()) as {
      reviews: { id: string }[];
    };
    expect(since.reviews.length).toBeGreaterThan(1_000);
    const oldest = since.reviews[0]!.id;
    const ref = { type: 'ref/resource' as const, uri: 'review://{id}' };
    const all = await client.complete({ ref, argument: { name: 'id', value: '' } });
    expect(all.completion).toMatchObject({ total: since.reviews.length, hasMore: true });
    expect(all.completion.values).toHaveLength(100);
    const one = await client.complete({
      ref,
      argument: { name: 'id', value: oldest.slice(0, 12) },
    });
    expect(one.completion.values).toContain(oldest);
    const read = await client.readResource({ uri: `review://${oldest}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: oldest });
  });

  it('says how large each document is before it is read: the dataset is the largest and the least useful to read whole', async () => {
    const { resources } = await client.listResources();
    const dataset = resources.find((r) => r.uri.endsWith('/reviews.json'))!;
    const res = await fetch(`${svc.url}/reviews.json`, {
      headers: { 'Accept-Encoding': 'identity' },
    });
    expect(dataset.size).toBe((await res.arrayBuffer()).byteLength);
    expect(dataset.description).toMatch(/\d\.\d MB\.$/);
    for (const r of resources) {
      expect(r.mimeType).toBeTruthy();
      expect(r.size!).toBeLessThanOrEqual(dataset.size!);
      expect(r.annotations!.priority!).toBeGreaterThanOrEqual(dataset.annotations!.priority!);
    }
  });
});
