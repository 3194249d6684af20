import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

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

/** Initializes a session over raw HTTP and returns its id. */
export async function initSession(
  baseUrl: string,
  protocolVersion = '2025-06-18',
): Promise<string> {
  const res = await rpc(baseUrl, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const id = res.headers.get('mcp-session-id');
  if (!id) throw new Error(`no session id: ${res.status} ${res.text}`);
  return id;
}
