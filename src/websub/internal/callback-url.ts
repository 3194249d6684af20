import { createHash } from 'node:crypto';

/**
 * The callback URL with hub parameters appended to its own query string, which is kept byte for
 * byte (the parameters go after it, joined with `&`).
 */
export function withHubParams(callback: string, params: Record<string, string>): string {
  const extra = new URLSearchParams(params).toString();
  if (!callback.includes('?')) return `${callback}?${extra}`;
  return callback.endsWith('?') || callback.endsWith('&')
    ? `${callback}${extra}`
    : `${callback}&${extra}`;
}

/** A short, stable id of a callback for logs (callback URLs are capabilities: never logged). */
export function callbackId(callback: string): string {
  return createHash('sha256').update(callback).digest('hex').slice(0, 12);
}
