import type { Readable } from 'node:stream';
import { Agent, buildConnector } from 'undici';
import { refusedTarget, type HostVetter } from './target.js';

/** What the hub reads of a callback's answer. */
export interface OutboundResponse {
  status: number;
  /** At most `maxBodyBytes` of the body (empty when the caller did not ask for it). */
  body: Buffer;
  /** The body was longer than the limit. */
  truncated: boolean;
}

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /**
   * The body: bytes sent in one write, or a source of slices given the request's abort signal
   * (streamed with backpressure: the next slice is asked for once the socket took the last).
   */
  body?: Buffer | ((signal: AbortSignal) => AsyncIterable<Uint8Array>);
  /** Read the response body (up to the limit); otherwise it is drained and dropped. */
  readBody?: boolean;
}

/** The hub's only way to reach a callback. */
export interface Outbound {
  request(url: string, init: OutboundRequest): Promise<OutboundResponse>;
  close(): Promise<void>;
}

export interface OutboundOptions {
  /** Deadline of a whole request: connect, send, headers and body. */
  timeoutMs: number;
  /** Connections kept per origin. */
  connectionsPerOrigin: number;
  /** Bytes read of any response body, at most. */
  maxBodyBytes: number;
  vet: HostVetter;
  userAgent: string;
  /** The connector that opens sockets once the host is vetted (tests observe it). */
  connect?: buildConnector.connector;
}

async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): void },
  max: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > max) {
      chunks.push(chunk.subarray(0, max - size));
      body.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

/**
 * Creates the outgoing HTTPS client (undici). Every new connection goes through a connector that
 * first vets the host (policy + one DNS resolution) and then opens the socket to the vetted
 * address, with the host name kept for SNI, certificate checks and `Host`. TLS verification stays
 * on (extra trust only through NODE_EXTRA_CA_CERTS), redirects are never followed, and at most
 * `maxBodyBytes` of a response are read.
 */
export function createOutbound(options: OutboundOptions): Outbound {
  const base = options.connect ?? buildConnector({ timeout: options.timeoutMs });
  const connect: buildConnector.connector = (opts, callback) => {
    options.vet(opts.hostname).then(
      (address) => base({ ...opts, hostname: address }, callback),
      (err: Error) => callback(err, null),
    );
  };
  const agent = new Agent({
    connect,
    connections: options.connectionsPerOrigin,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 10_000,
  });

  return {
    async request(url, init) {
      const target = new URL(url);
      if (target.protocol !== 'https:') throw refusedTarget('only https callbacks');
      const signal = AbortSignal.timeout(options.timeoutMs);
      // undici writes an async iterable chunk by chunk, waiting for the socket to drain between
      // chunks (documented, though its typings name only Readable).
      const body =
        typeof init.body === 'function'
          ? (init.body(signal) as unknown as Readable)
          : (init.body ?? null);
      const res = await agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: init.method,
        headers: { 'user-agent': options.userAgent, ...init.headers },
        body,
        signal,
      });
      if (!init.readBody) {
        await res.body.dump({ limit: options.maxBodyBytes }).catch(() => undefined);
        return { status: res.statusCode, body: Buffer.alloc(0), truncated: false };
      }
      const read = await readLimited(res.body, options.maxBodyBytes);
      return { status: res.statusCode, ...read };
    },
    async close() {
      await agent.destroy();
    },
  };
}
