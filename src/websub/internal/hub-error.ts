import type { ServerResponse } from 'node:http';
import { COMMON_HEADERS } from '../../http/respond.js';

/** A refusal of a hub request: a 4xx status with a plain-text reason that never echoes input. */
export class HubError extends Error {
  override name = 'HubError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Sends a short plain-text answer of the hub (its 202 and its refusals). */
export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  const body = Buffer.from(`${text}\n`);
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'Cache-Control': 'no-store',
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': body.length,
  });
  res.end(body);
}
