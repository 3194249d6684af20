import type { ServerResponse } from 'node:http';
import type { Issue } from '../../domain/issues.js';
import { COMMON_HEADERS } from '../../http/respond.js';

/** The `error` code of each refusal status of the hub. */
const CODES: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  403: 'forbidden',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  503: 'store_unavailable',
};

/**
 * A refusal of a hub request: a status with a public message that never echoes input, sent as
 * the service's JSON error `{ error, message, issues? }` (`issues`: one per offending field).
 */
export class HubError extends Error {
  override name = 'HubError';
  readonly code: string;
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly issues?: Issue[],
    code?: string,
  ) {
    super(message);
    this.code = code ?? CODES[status] ?? 'invalid_request';
  }
}

/** The 400 of a form with invalid fields: one issue per field, under `issues`. */
export function invalidForm(issues: Issue[]): HubError {
  return new HubError(400, 'The form has invalid fields.', {}, issues);
}

/** Sends the hub's 202 (plain text). */
export function sendText(res: ServerResponse, status: number, text: string): void {
  const body = Buffer.from(`${text}\n`);
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'Cache-Control': 'no-store',
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': body.length,
  });
  res.end(body);
}

/** Sends a refusal as JSON. */
export function sendRefusal(res: ServerResponse, err: HubError): void {
  const payload: Record<string, unknown> = { error: err.code, message: err.message };
  if (err.issues) payload.issues = err.issues;
  const body = Buffer.from(JSON.stringify(payload));
  res.writeHead(err.status, {
    ...COMMON_HEADERS,
    'Cache-Control': 'no-store',
    ...err.headers,
    'Content-Type': 'application/json',
    'Content-Length': body.length,
  });
  res.end(body);
}
