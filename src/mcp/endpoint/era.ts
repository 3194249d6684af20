import type { IncomingMessage } from 'node:http';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { MODERN_VERSION } from '../revisions.js';

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

/** The `_meta` key by which a 2026-07-28 request claims its revision. */
const MODERN_CLAIM = 'io.modelcontextprotocol/protocolVersion';

/** Whether any message of a parsed body carries the modern `_meta` claim. */
function claimsModern(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const meta = (m as { params?: { _meta?: unknown } } | null)?.params?._meta;
    return typeof meta === 'object' && meta !== null && MODERN_CLAIM in meta;
  });
}

/**
 * The era of a POST whose body was read and parsed (`body`). A request of a 2025 session (its
 * `Mcp-Session-Id`, no modern claim, no modern `MCP-Protocol-Version`) stays in its era even when
 * the SDK's message schema refuses its params (a `_meta.progressToken` that is an object): the
 * SDK would classify it as modern and answer -32600, where the session path answers the -32602
 * of the params at fault.
 */
export async function eraOf(req: IncomingMessage, body: unknown): Promise<Era> {
  const session = req.headers['mcp-session-id'] !== undefined;
  const header = req.headers['mcp-protocol-version'];
  if (session && header !== MODERN_VERSION && !claimsModern(body)) return 'legacy';
  return (await isLegacyRequest(webRequest(req), body)) ? 'legacy' : 'modern';
}
