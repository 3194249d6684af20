import { stableJson } from '../domain/stable-json.js';
import { prepareRepresentation } from '../representation/index.js';
import type { Snapshot } from '../snapshot/types.js';
import type { CallToolResult } from '@modelcontextprotocol/server';

/**
 * Methods whose result depends only on the published data and the request params (never on the
 * session or on time), so their results can be kept per data version.
 */
const CACHEABLE = new Set([
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

const CLOSE = Buffer.from('}');

interface RpcRequest {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params?: unknown;
}

function cacheKey(message: unknown): string | null {
  if (!message || typeof message !== 'object') return null;
  const m = message as Partial<RpcRequest>;
  if (m.id === undefined || typeof m.method !== 'string' || !CACHEABLE.has(m.method)) return null;
  return `mcp:${m.method}:${stableJson(m.params ?? {})}`;
}

/**
 * Results of read-only MCP requests, kept with the snapshot they were computed from (in its
 * bounded response cache), so a repeated call is answered without running the SDK server again:
 * computed once per data version, like every other response. The caller names the snapshot both
 * when it looks up and when it stores, the one the request was served from: a result computed
 * from version N is never kept under version N+1, even when N+1 goes live mid-request. Only
 * successful results that the SDK produced are kept; the response is rebuilt around the new
 * request id.
 */
export class McpResultCache {
  /**
   * The cached JSON-RPC response for this single request, as three parts to write in a row (the
   * result bytes are shared, never copied), or `response: null` on a miss.
   */
  lookup(
    snapshot: Snapshot,
    message: unknown,
  ): { key: string; response: { head: Buffer; result: Buffer; tail: Buffer } | null } | null {
    const key = cacheKey(message);
    if (!key) return null;
    const hit = snapshot.responses.get(key);
    if (!hit) return { key, response: null };
    const id = JSON.stringify((message as RpcRequest).id);
    return {
      key,
      response: {
        head: Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":`),
        result: hit.body,
        tail: CLOSE,
      },
    };
  }

  /**
   * Keeps the result of a response the SDK produced from `snapshot` (the object it serialised, so
   * the bytes are the same), unless it is an error.
   */
  store(snapshot: Snapshot, key: string, result: unknown): void {
    if (!result || typeof result !== 'object' || (result as { isError?: boolean }).isError) return;
    snapshot.responses.set(
      key,
      prepareRepresentation(JSON.stringify(result), {
        contentType: 'application/json',
        lastModifiedMs: Date.parse(snapshot.state.changedAt),
      }),
    );
  }
}

/** The key of a 2026-07-28 tool call's result: the tool and its arguments (not `_meta`). */
export function toolResultKey(params: { name: string; arguments?: unknown }): string {
  return `mcp-2026:tools/call:${stableJson({ name: params.name, arguments: params.arguments ?? {} })}`;
}

/**
 * A 2026-07-28 tool call's result, kept with the snapshot it was computed from (in its bounded
 * response cache), so a repeated call is computed once per data version, as the 2025 era's are
 * (`McpResultCache`). The SDK answers it (its envelope, `resultType` and `_meta` are added per
 * request), so the result is kept before them, not as response bytes; errors are not kept.
 */
export function keptToolResult(
  snapshot: Snapshot,
  params: { name: string; arguments?: unknown },
  call: () => CallToolResult,
): CallToolResult {
  const key = toolResultKey(params);
  const hit = snapshot.responses.get(key);
  if (hit) return JSON.parse(hit.body.toString('utf8')) as CallToolResult;
  const result = call();
  if (!result.isError) {
    snapshot.responses.set(
      key,
      prepareRepresentation(JSON.stringify(result), {
        contentType: 'application/json',
        lastModifiedMs: Date.parse(snapshot.state.changedAt),
      }),
    );
  }
  return result;
}
