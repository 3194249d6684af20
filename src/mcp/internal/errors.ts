import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * A JSON-RPC error for the SDK to send as is (`code`, `message`, `data`). Unlike the SDK's
 * `McpError`, the message is not prefixed with "MCP error <code>:".
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** -32602: the request's params are invalid; `data.issues` names each offending field. */
export function invalidParams(message: string, issues?: unknown[]): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, issues ? { issues } : undefined);
}

/** -32002: the resource does not exist (the code the MCP specification uses). */
export function resourceNotFound(uri: string): RpcError {
  return new RpcError(-32002, 'Resource not found', { uri: uri.slice(0, 300) });
}

/**
 * -32003 (a server-defined code): the resource exists but is too large to send over MCP; `data`
 * says its size and the URL to fetch it from over HTTP.
 */
export function resourceTooLarge(uri: string, size: number, limit: number): RpcError {
  return new RpcError(
    -32003,
    `Resource too large for MCP (${size} bytes, more than ${limit}): GET it over HTTP at its URI`,
    { uri, size, limit },
  );
}

/**
 * -32000 (a server-defined code): the request needed a write to the store, which cannot take it
 * for now (another process holds its write lock, or the database server is away); the same
 * request may succeed in a moment. Over HTTP, a request that fails this way before the SDK runs
 * is a 503 with `Retry-After`; inside it, this JSON-RPC error says the same.
 */
export function storeUnavailable(retryAfterSeconds: number): RpcError {
  return new RpcError(
    -32000,
    'Service Unavailable: the store cannot take this change right now; try again in a moment',
    { retryAfterSeconds },
  );
}
