import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** A response read off the wire. */
export interface WireResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /** An event stream: only its head was read, then the connection closed. */
  streamed?: boolean;
}

export interface WireRequest {
  method: string;
  /** The request target exactly as sent (any bytes the fuzzer chose, latin1). */
  target: string;
  /** Header lines in order; a name may repeat. `Host` is added unless `noHost`. */
  headers?: readonly (readonly [string, string])[];
  noHost?: boolean;
  body?: Buffer | string;
}

function decodeChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol === -1) throw new Error('truncated chunked body');
    const size = Number.parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) throw new Error('bad chunk size');
    if (size === 0) return Buffer.concat(parts);
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/**
 * Sends one HTTP/1.1 request on its own connection, byte for byte as given (`Connection:
 * close`, `Content-Length` for a body), and parses the answer. Unlike fetch or node's client it
 * sends any target and any header, so the server's own parser and routing are what is tested.
 */
export function wire(url: string, req: WireRequest): Promise<WireResponse> {
  const u = new URL(url);
  const lines = [`${req.method} ${req.target} HTTP/1.1`];
  if (!req.noHost) lines.push(`Host: ${u.host}`);
  for (const [name, value] of req.headers ?? []) lines.push(`${name}: ${value}`);
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  if (body !== undefined) lines.push(`Content-Length: ${body.length}`);
  lines.push('Connection: close', '', '');
  const head = Buffer.from(lines.join('\r\n'), 'latin1');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    socket.on('connect', () => {
      socket.write(body ? Buffer.concat([head, body]) : head);
    });
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // An event stream (GET /mcp with a session) never ends by itself: its head is the answer.
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      if (
        split !== -1 &&
        /\r\ncontent-type:\s*text\/event-stream/i.test(raw.subarray(0, split).toString('latin1'))
      ) {
        socket.destroy();
        resolve({ ...parse(raw.subarray(0, split + 4), 'HEAD'), streamed: true });
      }
    });
    // Only turns a hang into a failure; no figure of speed is asserted.
    socket.setTimeout(60_000, () => {
      socket.destroy();
      reject(new Error(`no answer to ${req.method} ${req.target.slice(0, 200)} in 60 s`));
    });
    // The server may answer and close before it read the whole body (413): what it sent counts.
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') socket.emit('end');
      else reject(err);
    });
    socket.once('end', () => {
      socket.destroy();
      try {
        resolve(parse(Buffer.concat(chunks), req.method));
      } catch (err) {
        reject(err);
      }
    });
  });
}

function parse(raw: Buffer, method: string): WireResponse {
  const split = raw.indexOf('\r\n\r\n');
  if (split === -1)
    throw new Error(
      `no complete response: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`,
    );
  const [statusLine = '', ...headerLines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`bad status line: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = raw.subarray(split + 4);
  if (method === 'HEAD' || status === 304 || status === 204) body = Buffer.alloc(0);
  else if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = decodeChunked(body);
  else if (headers['content-length'] !== undefined)
    body = body.subarray(0, Number(headers['content-length']));
  const coding = headers['content-encoding'];
  if (body.length === 0) return { status, headers, body, text: '' };
  if (coding === 'gzip') body = gunzipSync(body);
  else if (coding === 'br') body = brotliDecompressSync(body);
  return { status, headers, body, text: body.toString('utf8') };
}
