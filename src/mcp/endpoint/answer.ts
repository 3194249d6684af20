import type { ServerResponse } from 'node:http';
import { dict, type Dict } from '../../platform/dict.js';

/**
 * Writing an answer of `POST /mcp`: a 2025 request is answered in JSON, never as an SSE stream
 * (the server sends no requests of its own; the session's event stream is `streams.ts`); a 2026
 * `subscriptions/listen` is answered with its stream (`pipeWebResponse`). A Response of the SDK
 * is written as it is, or the bytes of a cached result in a row. Every answer
 * is `no-store` and carries the route's headers (CORS, a new `Mcp-Session-Id`). Errors are
 * `writeRpcError` (internal/errors.ts).
 */

/** Writes a Response of the SDK as the HTTP answer, with the route's headers. */
export async function writeWebResponse(
  res: ServerResponse,
  response: Response,
  extra: Record<string, string>,
): Promise<void> {
  const headers: Dict<string> = dict({ 'Cache-Control': 'no-store', ...extra });
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

/**
 * Writes a Response of the SDK that may be an event stream (a 2026-07-28 `subscriptions/listen`
 * answer, or a request answered over SSE): its frames are written as they come, until the SDK
 * ends the stream or the client leaves (which cancels it). Other answers as `writeWebResponse`.
 */
export async function pipeWebResponse(
  res: ServerResponse,
  response: Response,
  extra: Record<string, string>,
): Promise<void> {
  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream');
  if (!isStream || !response.body) return writeWebResponse(res, response, extra);
  const headers: Dict<string> = dict({ ...extra, 'X-Accel-Buffering': 'no' });
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done || res.writableEnded) break;
    res.write(value);
  }
  res.end();
}

/** Writes JSON answer parts in a row (a cached result between its envelope's head and tail). */
export function writeJsonParts(
  res: ServerResponse,
  parts: readonly Buffer[],
  extra: Record<string, string>,
): void {
  res.writeHead(200, {
    ...extra,
    'Cache-Control': 'no-store',
    'Content-Type': 'application/json',
    'Content-Length': parts.reduce((n, p) => n + p.length, 0),
  });
  res.cork();
  for (const p of parts.slice(0, -1)) res.write(p);
  res.end(parts.at(-1));
}
