import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** Connects the official SDK client to a service's /mcp endpoint. */
export async function connectClient(
  baseUrl: string,
  options: { sessionId?: string } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'dealer-reviews-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
  });
  await client.connect(transport);
  return { client, transport };
}

/** A client that also keeps the raw JSON-RPC responses it receives, as they came on the wire. */
export interface MeteredClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /**
   * Calls a tool through the SDK client (which validates the structured content against the
   * tool's output schema) and returns the result with the bytes of its JSON-RPC response.
   */
  call(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{ result: Awaited<ReturnType<Client['callTool']>>; bytes: number }>;
  /** Reads a resource, with the bytes of its JSON-RPC response. */
  read(uri: string): Promise<{
    result: Awaited<ReturnType<Client['readResource']>>;
    bytes: number;
  }>;
  /** Gets a prompt, with the bytes of its JSON-RPC response. */
  prompt(
    name: string,
    args?: Record<string, string>,
  ): Promise<{ result: Awaited<ReturnType<Client['getPrompt']>>; bytes: number }>;
}

/**
 * Connects the official SDK client with a `fetch` that keeps the body of each JSON response to a
 * POST (the service answers POSTs with JSON), so a result is counted as the bytes that travelled.
 * Calls go one at a time: the last body is the answer to the last call.
 */
export async function connectMeteredClient(baseUrl: string): Promise<MeteredClient> {
  let last = '';
  const metered: typeof fetch = async (url, init) => {
    const res = await fetch(url, init);
    if (init?.method === 'POST' && res.headers.get('content-type')?.includes('application/json')) {
      last = await res.clone().text();
    }
    return res;
  };
  const client = new Client({ name: 'dealer-reviews-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    fetch: metered,
  });
  await client.connect(transport);
  // The SDK validates structured content against the output schemas it has listed.
  await client.listTools();
  const bytes = () => Buffer.byteLength(last);
  return {
    client,
    transport,
    async call(name, args = {}) {
      last = '';
      const result = await client.callTool({ name, arguments: args });
      return { result, bytes: bytes() };
    },
    async read(uri) {
      last = '';
      const result = await client.readResource({ uri });
      return { result, bytes: bytes() };
    },
    async prompt(name, args = {}) {
      last = '';
      const result = await client.getPrompt({ name, arguments: args });
      return { result, bytes: bytes() };
    },
  };
}

/** A raw JSON-RPC POST to /mcp. */
export async function rpc(
  baseUrl: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: unknown; text: string }> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** The JSON-RPC `initialize` request of a raw HTTP client. */
export function initializeRequest(protocolVersion = '2025-06-18', clientName = 'raw') {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: clientName, version: '1' } },
  };
}

/** Initializes a session over raw HTTP and returns its id. */
export async function initSession(
  baseUrl: string,
  protocolVersion = '2025-06-18',
): Promise<string> {
  const res = await rpc(baseUrl, initializeRequest(protocolVersion));
  const id = res.headers.get('mcp-session-id');
  if (!id) throw new Error(`no session id: ${res.status} ${res.text}`);
  return id;
}

/** A tool call through a client: its result, structured content and the text of its first part. */
export function toolCaller(client: () => Client) {
  return async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client().callTool({ name, arguments: args });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    return { result, structured: result.structuredContent as Record<string, unknown>, text };
  };
}

/** The JSON-RPC error a client's call fails with (an error if it does not fail so). */
export async function rpcError(fn: () => Promise<unknown>): Promise<McpError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof McpError) return err;
    throw err;
  }
  throw new Error('expected a JSON-RPC error');
}
