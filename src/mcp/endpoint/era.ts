import type { IncomingMessage } from 'node:http';
import { isLegacyRequest } from '@modelcontextprotocol/server';

/**
 * The era step: which protocol era a `POST /mcp` belongs to, decided by the SDK's own
 * classification (`isLegacyRequest`, the code its `createMcpHandler` routes with), so the
 * endpoint and the SDK never disagree. `modern` (2026-07-28) is any request carrying the
 * per-request `_meta` envelope claim (`io.modelcontextprotocol/protocolVersion`), or whose
 * `MCP-Protocol-Version` header names a modern revision, its malformed variants included (the
 * modern path answers them: -32602, -32020). `legacy` (2025-11-25 and earlier) is the rest:
 * `initialize`, requests of a session, batches, notifications and responses without the claim.
 */
export type Era = 'legacy' | 'modern';

/** Request headers never forwarded to the SDK (they describe this hop, not the message). */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
]);

/**
 * The request as a web `Request` for the SDK: its headers (an array header joined), no body (the
 * SDK is handed the parsed body), and a signal that aborts the exchange when the client leaves.
 */
export function webRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request('http://mcp.local/mcp', { method: req.method, headers, signal });
}

/** The era of a POST whose body was read and parsed (`body`). */
export async function eraOf(req: IncomingMessage, body: unknown): Promise<Era> {
  return (await isLegacyRequest(webRequest(req), body)) ? 'legacy' : 'modern';
}
