/**
 * The service's one error model. Every fault the service reports to a client, an operator or a
 * command line is a `ServiceError`: a stable `code`, a public `message` that never echoes input,
 * and what each surface needs to render it (an HTTP status and headers, the offending fields,
 * a JSON-RPC code). Code throws it; the surface that caught it renders it (JSON for the API and
 * the hub, an HTML page for the pages, a JSON-RPC error for MCP, one line and an exit code for a
 * command). Anything else that reaches a boundary is a bug: logged, and answered as a 500.
 */

/**
 * One problem with an input, as the public error responses list it (`issues` of an HTTP 400,
 * `data.issues` of an MCP error): the path of the offending parameter, a code and a message that
 * never echoes the input.
 */
export interface Issue {
  path: (string | number)[];
  code: string;
  message: string;
}

export interface ServiceErrorOptions {
  /** The HTTP status (default 400). */
  readonly status?: number;
  /** One item per offending field or parameter. */
  readonly issues?: readonly Issue[];
  /** Headers the HTTP answer carries (`Retry-After`, `Allow`, …). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The JSON-RPC error code when the error leaves over MCP (default: from the status). */
  readonly rpcCode?: number;
  /** The JSON-RPC `data` (default: `{ issues }` when there are issues). */
  readonly data?: unknown;
  /** The exit code when a command line ends on it (default 1). */
  readonly exitCode?: number;
  readonly cause?: unknown;
}

/** A fault with a public meaning. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  readonly status: number;
  readonly issues: readonly Issue[] | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly rpcCode: number | undefined;
  readonly data: unknown;
  readonly exitCode: number;

  constructor(
    readonly code: string,
    message: string,
    options: ServiceErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status ?? 400;
    this.issues = options.issues;
    this.headers = options.headers ?? {};
    this.rpcCode = options.rpcCode;
    this.data = options.data;
    this.exitCode = options.exitCode ?? 1;
  }
}

/** The JSON body of an HTTP error answer: `{ error, message, issues? }`. */
export function errorBody(error: ServiceError): {
  error: string;
  message: string;
  issues?: readonly Issue[];
} {
  return error.issues === undefined
    ? { error: error.code, message: error.message }
    : { error: error.code, message: error.message, issues: error.issues };
}

/** JSON-RPC 2.0's and MCP's error codes that the service uses by default. */
const RPC_INVALID_PARAMS = -32602;
const RPC_INVALID_REQUEST = -32600;
const RPC_INTERNAL = -32603;

/**
 * The JSON-RPC error object of a `ServiceError` (MCP): its own `rpcCode` and `data` when it has
 * them; otherwise a 4xx is -32602 (invalid params) with `data.issues`, a 5xx -32603.
 */
export function toRpcError(error: ServiceError): { code: number; message: string; data?: unknown } {
  const code =
    error.rpcCode ??
    (error.status >= 500
      ? RPC_INTERNAL
      : error.issues === undefined
        ? RPC_INVALID_REQUEST
        : RPC_INVALID_PARAMS);
  const data = error.data ?? (error.issues === undefined ? undefined : { issues: error.issues });
  return data === undefined
    ? { code, message: error.message }
    : { code, message: error.message, data };
}

/** Whether `error` is a `ServiceError` (of `code`, when given): what `catch` blocks test. */
export function isServiceError(error: unknown, code?: string): error is ServiceError {
  return error instanceof ServiceError && (code === undefined || error.code === code);
}
