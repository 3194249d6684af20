import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusinessInput } from '../../src/domain/business.js';
import type { ReviewSourceInput } from '../../src/domain/review.js';
import {
  AGENT_TASKS,
  connectAgent,
  runAgentTask,
  taskTable,
  type AgentConnection,
  type TaskRun,
} from '../../tools/bench/agent-tasks.js';
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
let agent: AgentConnection;
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
  agent = await connectAgent(svc.url);
}, 120_000);
afterAll(async () => {
  // The tokens each task took, as `npm run bench -- agent-tasks` prints them.
  if (runs.length > 0) console.info(taskTable(runs));
  await agent?.client.close();
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
      const run = await runAgentTask(task, agent, svc.url);
      runs.push(run);
      expect(run.answer).toEqual(run.expected);
      expect(run.calls.length).toBeGreaterThan(0);
      expect(run.tokens).toBeGreaterThan(0);
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

  it.each([
    ['Brake service', 'brakes'],
    ['Wheel alignment', 'alignment'],
    ['A/C service', 'air-conditioning'],
    ['a/c', 'air-conditioning'],
    ['ac', 'air-conditioning'],
    ['collision', 'body-repair'],
    ['Recall repair', 'recall'],
    ['Warranty repair', 'warranty'],
    ['Tire sales and repair', 'tires'],
    ['frenos', 'brakes'],
    ['brake', 'brakes'],
    ['transmision service', 'transmission'],
  ])(
    'mentions_service %j (a name or synonym, not an id) is a tool error naming %s',
    async (name, id) => {
      const result = await client.callTool({
        name: 'search_reviews',
        arguments: { mentions_service: name },
      });
      expect(result.isError).toBe(true);
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text).toMatch(new RegExp(`Closest ids: (?:[^.]*, )?${id} \\(`));
      // HTTP means the same by the filter: no service has that id.
      const http = await fetch(
        `${svc.url}/api/reviews/search?mentions_service=${encodeURIComponent(name)}`,
      );
      expect(((await http.json()) as { total: number }).total).toBe(0);
    },
  );

  it('get_insights finds a staff member by a unique first name or without accents, and names both of a shared first name', async () => {
    const staff = async (id: string) => {
      const result = await client.callTool({
        name: 'get_insights',
        arguments: { section: 'staff', id },
      });
      const text = (result.content as { text: string }[])[0]!.text;
      const names = result.isError
        ? []
        : (result.structuredContent as { staff: { name: string }[] }).staff.map((p) => p.name);
      return { error: result.isError === true, text, names };
    };
    expect((await staff('Hector Villanueva')).names).toEqual(['Héctor Villanueva']);
    expect((await staff('mike')).names).toEqual(['Mike Torres']);
    const chris = await staff('Chris');
    expect(chris.error).toBe(true);
    expect(chris.text).toContain('Chris Patel');
    expect(chris.text).toContain('Chris Wallace');
  });

  it('gives the language and the English translation of a review not in English', async () => {
    const { reviews } = (await (await fetch(`${svc.url}/reviews.json`)).json()) as {
      reviews: { id: string; inLanguage: string | null; reviewBodyTranslated: string | null }[];
    };
    const spanish = reviews.find((r) => r.inLanguage === 'es' && r.reviewBodyTranslated)!;
    const result = await client.callTool({
      name: 'get_review',
      arguments: { id: spanish.id, detail: 'compact' },
    });
    expect(result.structuredContent).toMatchObject({
      review: { language: 'es', translation: spanish.reviewBodyTranslated },
    });
    expect((result.content as { text: string }[])[0]!.text).toContain('translation from es: ');
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
