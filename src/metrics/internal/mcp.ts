/**
 * The MCP endpoint: tool calls by tool and outcome, sessions started and ended, and the event
 * streams open on this instance.
 */
import { Gauge, type Registry } from 'prom-client';
import type { McpObserver, ToolCallOutcome } from '../../mcp/index.js';
import { counter, knownValuesCounter } from './declare.js';

/** A tool name the server does not have is counted under this one. */
export const OTHER_TOOL = 'other';

export interface McpMetrics extends McpObserver {
  /** Reads the session event streams (`GET /mcp`) open here (at scrape: a number in memory). */
  streams(count: () => number): void;
}

/** `tools` are the server's tool names: the only values of the `tool` label but `other`. */
export function mcpMetrics(registry: Registry, tools: readonly string[]): McpMetrics {
  const registers = [registry];
  const known = new Set(tools);
  const calls = counter(
    registry,
    'dealer_reviews_mcp_calls_total',
    'MCP tools/call requests answered, by tool and outcome (ok, tool_error, invalid_params, error).',
    ['tool', 'outcome'],
  );
  const sessions = knownValuesCounter(
    registry,
    'dealer_reviews_mcp_sessions_total',
    'MCP sessions this instance started (initialize) and ended (DELETE); sessions are signed tokens any instance serves.',
    'event',
    ['started', 'ended'],
  );
  let sessionStreams = (): number => 0;
  let listens = 0;
  new Gauge({
    name: 'dealer_reviews_mcp_streams',
    help: 'MCP event streams open on this instance: session streams (GET /mcp) and subscriptions/listen streams.',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      this.labels('session').set(sessionStreams());
      this.labels('listen').set(listens);
    },
  });
  return {
    toolCalled(tool: string, outcome: ToolCallOutcome) {
      calls.labels(known.has(tool) ? tool : OTHER_TOOL, outcome).inc();
    },
    sessionStarted: () => sessions.labels('started').inc(),
    sessionEnded: () => sessions.labels('ended').inc(),
    listening(delta) {
      listens += delta;
    },
    streams(count) {
      sessionStreams = count;
    },
  };
}
