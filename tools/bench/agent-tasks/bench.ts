import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { startService, waitFor } from '../harness.js';
import { connectAgent, runAgentTask } from './runner.js';
import { AGENT_TASKS } from './tasks.js';
import type { TaskRun } from './types.js';

/** The table of docs/benchmarks.md: task, the calls it made, the tokens of their results. */
export function taskTable(runs: TaskRun[]): string {
  const lines = [
    '| task | question | tool calls | tokens of tool output |',
    '|---|---|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.task.id} | ${r.task.question} | ${r.calls.map((c) => `\`${c.replace(/\|/g, '\\|')}\``).join('<br>')} | ${r.tokens.toLocaleString('en-US')} |`,
    ),
  ];
  const total = runs.reduce((a, r) => a + r.tokens, 0);
  const max = Math.max(...runs.map((r) => r.tokens));
  lines.push(
    '',
    `${runs.length} tasks, ${total.toLocaleString('en-US')} tokens in all, at most ${max.toLocaleString('en-US')} for one task.`,
  );
  return lines.join('\n');
}

/**
 * `npm run bench -- agent-tasks`: starts the built service on the bundled sample dealership (a
 * fresh store), runs every task over the official SDK client and prints the table of
 * docs/benchmarks.md; a task whose answer differs from the HTTP API's fails the run.
 */
export async function benchAgentTasks(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-agent-'));
  const svc = await startService({
    DATABASE_URL: `sqlite:${join(dir, 'reviews.db')}`,
    SAMPLE_DATA: 'on',
  });
  try {
    await waitFor(`${svc.url}/insights.json`);
    const agent = await connectAgent(svc.url, 'agent-tasks-bench');
    const runs: TaskRun[] = [];
    for (const task of AGENT_TASKS) {
      const run = await runAgentTask(task, agent, svc.url);
      if (!isDeepStrictEqual(run.answer, run.expected)) {
        throw new Error(`task ${task.id}: the MCP answer differs from the HTTP API's`);
      }
      runs.push(run);
    }
    await agent.client.close();
    return taskTable(runs);
  } finally {
    svc.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
