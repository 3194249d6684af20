/**
 * What the MCP endpoint tells an observer (the service's metrics): each tool call and how it
 * ended, each session started or ended here, each `subscriptions/listen` stream opened or closed.
 */

/**
 * How a `tools/call` ended: `ok` (a result), `tool_error` (an `isError` result: the tool's own
 * failure, or invalid input from 2025-11-25 on), `invalid_params` (-32602: bad arguments, an
 * unknown tool), `error` (any other JSON-RPC error).
 */
export type ToolCallOutcome = 'ok' | 'tool_error' | 'invalid_params' | 'error';

export interface McpObserver {
  /** `tool` is the name the client asked for (the observer bounds it). */
  toolCalled(tool: string, outcome: ToolCallOutcome): void;
  sessionStarted(): void;
  sessionEnded(): void;
  /** A `subscriptions/listen` stream opened (+1) or closed (-1) on this instance. */
  listening(delta: 1 | -1): void;
}
