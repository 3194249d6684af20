import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { BYTES_PER_TOKEN } from '../../../src/mcp/agent.js';
import type { AgentSession, AgentTask, HttpApi, Json, TaskRun } from './types.js';

/** An MCP client that keeps the bytes of the last JSON-RPC response it received. */
export interface AgentConnection {
  client: Client;
  /** Bytes of the response to the last request, as it came on the wire. */
  lastBytes(): number;
}

/** Connects the official SDK client with a `fetch` that measures each JSON response to a POST. */
export async function connectAgent(
  baseUrl: string,
  name = 'agent-tasks',
): Promise<AgentConnection> {
  let last = 0;
  const metered: typeof fetch = async (url, init) => {
    const res = await fetch(url, init);
    if (init?.method === 'POST' && res.headers.get('content-type')?.includes('application/json'))
      last = (await res.clone().arrayBuffer()).byteLength;
    return res;
  };
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { fetch: metered }),
  );
  return {
    client,
    lastBytes: () => last,
  };
}

/** Runs one task over an MCP connection, counting the tokens of every response it receives. */
export async function runAgentTask(
  task: AgentTask,
  { client, lastBytes }: AgentConnection,
  baseUrl: string,
): Promise<TaskRun> {
  const calls: string[] = [];
  let bytes = 0;
  const agent: AgentSession = {
    async call(name, args = {}) {
      // Cursors are opaque and long: the record names them.
      const shown = 'cursor' in args ? { ...args, cursor: '<nextCursor>' } : args;
      calls.push(`${name} ${JSON.stringify(shown)}`);
      const result = await client.callTool({ name, arguments: args });
      bytes += lastBytes();
      const content = result.content as { type: string; text?: string }[];
      return {
        structured: (result.structuredContent ?? {}) as Json,
        text: content.map((c) => c.text ?? '').join('\n'),
        isError: result.isError === true,
      };
    },
    async prompt(name, args) {
      calls.push(`prompts/get ${name} ${JSON.stringify(args)}`);
      try {
        const result = await client.getPrompt({ name, arguments: args });
        bytes += lastBytes();
        const first = result.messages[0]?.content as { text?: string } | undefined;
        return { text: first?.text ?? '', isError: false };
      } catch (err) {
        if (!(err instanceof McpError)) throw err;
        bytes += lastBytes();
        return { text: err.message, isError: true };
      }
    },
    async read(uri) {
      calls.push(`resources/read ${uri}`);
      const result = await client.readResource({ uri });
      bytes += lastBytes();
      const first = result.contents[0] as { text?: string };
      return first.text ?? '';
    },
  };
  const { answer, expected } = await task.run(agent, apiOf(baseUrl));
  const tokens = Math.round(bytes / BYTES_PER_TOKEN);
  return { task, calls, tokens, answer, expected };
}

const apis = new Map<string, HttpApi>();
/** One HttpApi per service, so its documents are fetched once. */
function apiOf(baseUrl: string): HttpApi {
  let api = apis.get(baseUrl);
  if (!api) {
    api = async <T>(path: string): Promise<T> => {
      const res = await fetch(`${baseUrl}${path}`);
      if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
      return (await res.json()) as T;
    };
    apis.set(baseUrl, api);
  }
  return api;
}
