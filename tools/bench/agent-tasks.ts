/**
 * The agent task suite of issue 17: questions a dealership's staff or a shopper's agent asks, each
 * answered by a fixed sequence of MCP calls. A task returns the answer it read from the MCP
 * results and the same answer computed independently from the HTTP read API (never from MCP), so
 * a tool that answers wrongly or incompletely fails its task. Every call's JSON-RPC response is
 * counted in tokens as it came on the wire (bytes / 3.5, as the budget test counts). Run by
 * `test/e2e/agent-tasks.test.ts` and by `npm run bench -- agent-tasks` (the table in
 * docs/benchmarks.md).
 */
export { benchAgentTasks, taskTable } from './agent-tasks/bench.js';
export { connectAgent, runAgentTask, type AgentConnection } from './agent-tasks/runner.js';
export { AGENT_TASKS } from './agent-tasks/tasks.js';
export type { AgentSession, AgentTask, HttpApi, TaskRun } from './agent-tasks/types.js';
