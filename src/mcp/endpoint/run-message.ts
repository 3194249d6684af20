import type { IncomingMessage } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Snapshot } from '../../snapshot/types.js';
import { RESOURCE_NOT_FOUND } from '../internal/errors.js';
import type { McpObserver } from '../observer.js';
import type { McpResultCache } from '../result-cache.js';
import type { RequestInfo } from '../revisions.js';

/** The request headers the SDK transport reads (the body is handed over already parsed). */
const FORWARDED = [
  'accept',
  'content-type',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
] as const;

/**
 * The SDK transport, keeping the result of the response it sends (the object the SDK serialises),
 * so the result cache can keep it without parsing the response text again.
 */
class ResultCapturingTransport extends WebStandardStreamableHTTPServerTransport {
  result: unknown;

  override send(
    message: JSONRPCMessage,
    options?: Parameters<WebStandardStreamableHTTPServerTransport['send']>[1],
  ): Promise<void> {
    if ('result' in message) this.result = message.result;
    return super.send(legacyResourceNotFound(message), options);
  }
}

/**
 * The SDK v2 answers an unknown resource with -32602 on every revision (the 2026-07-28 rule); the
 * 2025 revisions this transport serves say -32002, which 2025 clients expect, so the error of
 * `resourceNotFound` (internal/errors.ts) keeps its code here.
 */
function legacyResourceNotFound(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message) || message.error.code !== -32602) return message;
  if (message.error.message !== RESOURCE_NOT_FOUND) return message;
  return { ...message, error: { ...message.error, code: -32002 } };
}

function toWebRequest(req: IncomingMessage): Request {
  const headers: [string, string][] = [];
  for (const name of FORWARDED) {
    const v = req.headers[name];
    if (typeof v === 'string') headers.push([name, v]);
  }
  return new Request('http://mcp.local/mcp', { method: req.method, headers });
}

/** The answer to one message: cached bytes (to write in a row), or the SDK's Response. */
export type MessageAnswer =
  { cached: readonly [head: Buffer, result: Buffer, tail: Buffer] } | { response: Response };

/** What running one message needs besides the message. */
export interface MessageRun {
  req: IncomingMessage;
  snapshot: Snapshot;
  info: RequestInfo;
  createServer: (snapshot: Snapshot, request: RequestInfo) => Server;
  resultCache: McpResultCache | undefined;
  /** Told of a tool call answered from the cache (the SDK's handler tells of the others). */
  observer?: McpObserver | undefined;
}

/** The tool a `tools/call` message names, if it is one. */
function toolCalled(message: unknown): string | null {
  const m = message as { method?: unknown; params?: { name?: unknown } } | null;
  return m?.method === 'tools/call' && typeof m.params?.name === 'string' ? m.params.name : null;
}

/**
 * Answers one JSON-RPC message (a single request, or one of a batch): from the result cache of
 * the snapshot when a read-only request was answered before, else by a fresh SDK server and
 * stateless transport, whose successful result is then kept in the cache. The server and
 * transport hold no timers and no resources once the response is built, so they are left to the
 * garbage collector rather than closed (closing builds a "connection closed" error for nothing).
 */
export async function runMessage(run: MessageRun, message: unknown): Promise<MessageAnswer> {
  const cached = run.resultCache?.lookup(run.snapshot, message) ?? null;
  if (cached?.response) {
    const { head, result, tail } = cached.response;
    const tool = run.observer ? toolCalled(message) : null;
    if (tool !== null) run.observer!.toolCalled(tool, 'ok');
    return { cached: [head, result, tail] };
  }
  const server = run.createServer(run.snapshot, run.info);
  const transport = new ResultCapturingTransport({ enableJsonResponse: true });
  await server.connect(transport);
  const response = await transport.handleRequest(toWebRequest(run.req), { parsedBody: message });
  if (cached && response.status === 200 && transport.result !== undefined) {
    run.resultCache!.store(run.snapshot, cached.key, transport.result);
  }
  return { response };
}
