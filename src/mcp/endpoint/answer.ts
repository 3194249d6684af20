import type { ServerResponse } from 'node:http';
import { dict, type Dict } from '../../platform/dict.js';

/**
 * Writing a JSON answer of `POST /mcp` (the endpoint answers requests in JSON, never as an SSE
 * stream: the server sends no requests of its own; the session's event stream is `streams.ts`):
 * a Response of the SDK as it is, or the bytes of a cached result written in a row. Every answer
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
