import type { IncomingMessage } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Snapshot } from '../../snapshot/types.js';
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
    return super.send(message, options);
  }
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
