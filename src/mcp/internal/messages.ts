import { JSONRPCMessageSchema, RequestIdSchema } from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { toIssues, type Issue } from '../../domain/issues.js';

/** A JSON-RPC id as MCP allows it: a string or an integer (never null). */
export type RequestId = z.infer<typeof RequestIdSchema>;

/**
 * True when `message` is a JSON-RPC 2.0 message as MCP defines it (the SDK's schema of the
 * specification): a request or a notification whose `params`, when present, is an object (an
 * array is not), or a response. Anything else is an Invalid Request (-32600).
 */
export function isJsonRpcMessage(message: unknown): boolean {
  return JSONRPCMessageSchema.safeParse(message).success;
}

/**
 * True when `message` is a request to a method the server answers whose envelope (`jsonrpc`,
 * `id`, `method`, an object as `params`) is right although its params are not (a `_meta` with a
 * wrong `progressToken`): Invalid params (-32602, reported by `checkParams`), not Invalid
 * Request.
 */
export function hasValidEnvelope(message: unknown, answered: RequestSchemas): boolean {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return false;
  const m = message as Record<string, unknown>;
  if (!('id' in m) || typeof m.method !== 'string' || !answered.has(m.method)) return false;
  if (!m.params || typeof m.params !== 'object' || Array.isArray(m.params)) return false;
  return JSONRPCMessageSchema.safeParse({ ...m, params: {} }).success;
}

/**
 * Drops `params.task` from a request: the server declares no `tasks` capability, and the
 * 2025-11-25 specification says a receiver that does not declare it for a request type must
 * process such requests normally, ignoring the task augmentation (the SDK refused them, -32603).
 */
export function ignoreTaskAugmentation(message: unknown): void {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return;
  const params = (message as { params?: unknown }).params;
  if (params && typeof params === 'object' && !Array.isArray(params) && 'task' in params) {
    delete (params as { task?: unknown }).task;
  }
}

/**
 * Drops `capabilities.experimental` from an `initialize`: the server reads no experimental
 * capability of a client, and the SDK v2 walks those values as nested JSON objects, which
 * refuses an array and overflows the stack on a value nested thousands deep (an internal error);
 * the SDK 1.x checked one level. What the server does not read cannot make the request fail.
 */
export function ignoreExperimentalCapabilities(message: unknown): void {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return;
  const m = message as { method?: unknown; params?: { capabilities?: unknown } };
  const capabilities = m.method === 'initialize' ? m.params?.capabilities : undefined;
  if (capabilities && typeof capabilities === 'object' && 'experimental' in capabilities) {
    delete (capabilities as { experimental?: unknown }).experimental;
  }
}

/** The `id` of a single message when it can be read, so that an error answers it; else null. */
export function readableId(body: unknown): RequestId | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const parsed = RequestIdSchema.safeParse((body as { id?: unknown }).id);
  return parsed.success ? parsed.data : null;
}

/** The schema of each request method the server answers, keyed by method. */
export type RequestSchemas = ReadonlyMap<string, z.ZodType>;

/** Builds the lookup of request schemas (the SDK's, each with a literal `method`). */
export function requestSchemas(
  schemas: readonly z.ZodObject<{ method: z.ZodLiteral<string> }>[],
): RequestSchemas {
  return new Map(schemas.map((s) => [s.shape.method.value, s]));
}

/** Why the params of a request are invalid: a short message and the issues (paths in params). */
export interface ParamsProblem {
  message: string;
  issues: Issue[];
}

/**
 * Checks the `params` of a request against the schema of its method (methods the server does not
 * answer are left to it: -32601). Messages name the offending field and never echo its value.
 */
export function checkParams(message: unknown, schemas: RequestSchemas): ParamsProblem | null {
  const { method, params } = message as { method?: unknown; params?: unknown };
  const schema = typeof method === 'string' ? schemas.get(method) : undefined;
  if (!schema || !('id' in (message as object))) return null;
  const parsed = schema.safeParse({ method, params });
  if (parsed.success) return null;
  const issues = toIssues(parsed.error).map((i) => ({
    ...i,
    // Paths within params; a key the client chose (a prompt argument) is cut short.
    path: (i.path[0] === 'params' ? i.path.slice(1) : i.path).map((p) =>
      typeof p === 'string' ? p.slice(0, 100) : p,
    ),
  }));
  const first = issues[0]!;
  const where = first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return { message: `Invalid params: ${where}${first.message}`, issues };
}
