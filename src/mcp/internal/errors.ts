import type { ServerResponse } from 'node:http';
import { ProtocolErrorCode as ErrorCode } from '@modelcontextprotocol/server';
import { isServiceError, ServiceError, toRpcError, type Issue } from '../../platform/errors.js';
import { isStoreBusy, isStoreUnavailable } from '../../store/index.js';
import type { RequestId } from './messages.js';

/**
 * MCP's errors, in the service's one error model: every MCP fault is a `ServiceError` whose
 * `rpcCode` and `data` make its JSON-RPC error (`toRpcError`) and whose `status` and `headers`
 * make the HTTP answer around it. Errors raised inside an SDK request handler are answered in
 * band (HTTP 200, the JSON-RPC error in the body); errors raised by the endpoint before the SDK
 * runs carry their own HTTP status. `writeRpcError` is the one place that writes either as an
 * HTTP answer; `forSdk` hands one to the SDK, which renders `{ code, message, data }` as it is.
 */

/** -32000: the code of the transport's refusals and of server-defined failures. */
const SERVER_ERROR = -32000;

/** -32602: the request's params are invalid; `data.issues` names each offending field. */
export function invalidParams(message: string, issues?: readonly Issue[]): ServiceError {
  return new ServiceError('invalid_params', message, {
    status: 200,
    rpcCode: ErrorCode.InvalidParams,
    issues,
  });
}

/** The message of `resourceNotFound`, by which the 2025 transport knows it (run-message.ts). */
export const RESOURCE_NOT_FOUND = 'Resource not found';

/**
 * -32002: the resource does not exist (the code of the 2025 revisions; the SDK v2 sends -32602,
 * the code of 2026-07-28, and the 2025 transport restores -32002).
 */
export function resourceNotFound(uri: string): ServiceError {
  return new ServiceError('resource_not_found', RESOURCE_NOT_FOUND, {
    status: 200,
    rpcCode: -32002,
    data: { uri: uri.slice(0, 300) },
  });
}

/**
 * -32003 (a server-defined code): the resource exists but is too large to send over MCP; `data`
 * says its size and the URL to fetch it from over HTTP.
 */
export function resourceTooLarge(uri: string, size: number, limit: number): ServiceError {
  return new ServiceError(
    'resource_too_large',
    `Resource too large for MCP (${size} bytes, more than ${limit}): GET it over HTTP at its URI`,
    { status: 200, rpcCode: -32003, data: { uri, size, limit } },
  );
}

/**
 * -32000 (a server-defined code): the request needed a write to the store, which cannot take it
 * for now (another process holds its write lock, or the database server is away); the same
 * request may succeed in a moment. Over HTTP, a request that fails this way before the SDK runs
 * is a 503 with `Retry-After` (`failureOf`); inside it, this JSON-RPC error says the same.
 */
export function storeUnavailable(retryAfterSeconds: number): ServiceError {
  return new ServiceError(
    'store_unavailable',
    'Service Unavailable: the store cannot take this change right now; try again in a moment',
    { status: 200, rpcCode: SERVER_ERROR, data: { retryAfterSeconds } },
  );
}

/** -32600: the message (or batch) is not a request the endpoint takes, as an HTTP 400. */
export function invalidRequest(message: string): ServiceError {
  return new ServiceError('invalid_request', message, {
    status: 400,
    rpcCode: ErrorCode.InvalidRequest,
  });
}

/** -32700: the body is not JSON, as an HTTP 400. */
export function parseError(): ServiceError {
  return new ServiceError('parse_error', 'Parse error: Invalid JSON', {
    status: 400,
    rpcCode: ErrorCode.ParseError,
  });
}

/**
 * A refusal of the HTTP request itself (Origin, Accept, Content-Type, size, session, rate):
 * its HTTP status with -32000, or `rpcCode` when given (-32001 for an unknown session).
 */
export function refused(
  code: string,
  status: number,
  message: string,
  options: { headers?: Record<string, string>; rpcCode?: number } = {},
): ServiceError {
  return new ServiceError(code, message, {
    status,
    rpcCode: options.rpcCode ?? SERVER_ERROR,
    headers: options.headers,
  });
}

/** The 500 of anything unexpected (logged by the endpoint): no detail leaves the service. */
const INTERNAL = (): ServiceError =>
  new ServiceError('internal', 'Internal error', { status: 500, rpcCode: ErrorCode.InternalError });

/**
 * What the endpoint answers for an error it caught: a store that cannot be reached or written to
 * for now is a 503 with `Retry-After` (tested first, whatever error type the store uses); a
 * `ServiceError` is answered as it is; anything else is a 500 (`internal: true`, for the endpoint
 * to log).
 */
export function failureOf(err: unknown): { error: ServiceError; internal: boolean } {
  if (isStoreUnavailable(err)) {
    const error = isStoreBusy(err)
      ? refused(
          'store_busy',
          503,
          'Service Unavailable: another process is writing to the store; try again in a moment',
          { headers: { 'Retry-After': '2' } },
        )
      : refused(
          'store_unreachable',
          503,
          'Service Unavailable: the database cannot be reached right now; try again in a moment',
          { headers: { 'Retry-After': '5' } },
        );
    return { error, internal: false };
  }
  if (isServiceError(err)) return { error: err, internal: false };
  return { error: INTERNAL(), internal: true };
}

/**
 * The one HTTP rendering of an MCP error: its status, `headers` (the CORS headers of the
 * request) then its own, and a JSON-RPC error answering `id` (null when the request's id could
 * not be read).
 */
export function writeRpcError(
  res: ServerResponse,
  error: ServiceError,
  id: RequestId | null,
  headers: Record<string, string>,
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: toRpcError(error), id });
  res.writeHead(error.status, {
    ...headers,
    ...error.headers,
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * A JSON-RPC error message answering `id`, in the SDK's own layout (`jsonrpc`, `id`, `error`):
 * what a batch holds in place of a request's answer.
 */
export function rpcErrorMessage(
  id: RequestId | null,
  error: ServiceError,
): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: toRpcError(error) };
}

/**
 * What an SDK request handler throws for a `ServiceError`: its JSON-RPC error object, which the
 * SDK answers as it is (`code`, `message`, `data`; the SDK's `McpError` would prefix the
 * message). Anything else is left to the SDK (-32603 with its message).
 */
export function forSdk(err: unknown): unknown {
  return isServiceError(err) ? toRpcError(err) : err;
}

/** -32602 for one argument of a tool: `Invalid arguments: <path>: <message>`. */
export function invalidArgument(path: string, message: string): ServiceError {
  return invalidParams(`Invalid arguments: ${path}: ${message}`, [
    { path: [path], code: 'invalid', message },
  ]);
}
