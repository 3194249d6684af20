/** The service's HTTP server: its limits, its answers to unparsable requests, and listening. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppDeps } from './app.js';
import type { Config } from './config.js';
import { COMMON_HEADERS } from './http/respond.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics/index.js';
import { ServiceError } from './platform/errors.js';

/**
 * The code of a service that cannot listen on `HOST` and `PORT` (a name that does not resolve, an
 * address that is not this machine's, a port in use or reserved): one line for the operator,
 * like a store that cannot be opened (exit code 78, EX_CONFIG).
 */
export const LISTEN_FAILED = 'listen_failed';

/** The JSON answer to a request node's HTTP parser rejects (it never reaches the app). */
export function parserRejection(code: string | undefined): string {
  const [status, reason, error, message] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          'headers_too_large',
          'The request headers are too large (16 KiB at most).',
        ]
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request_timeout', 'The request did not arrive in time.']
        : [400, 'Bad Request', 'bad_request', 'The request could not be parsed.'];
  const body = JSON.stringify({ error, message });
  const headers = {
    ...COMMON_HEADERS,
    'Cache-Control': 'no-store',
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${reason}\r\n${lines.join('')}\r\n${body}`;
}

function clientErrorHandler(server: Server, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    logger.debug({ code: err.code }, 'client error');
    socket.end(parserRejection(err.code));
  });
}

/**
 * The HTTP server over the app, with its timeouts and its answer to requests node's parser
 * rejects; resolves once it listens, rejects with a `LISTEN_FAILED` `ServiceError` (naming the
 * variables `names` says) when it cannot.
 */
export async function listen(
  config: Pick<Config, 'host' | 'port' | 'socketTimeoutMs'>,
  listener: RequestListener,
  logger: Logger,
  names: { host: string; port: string } = { host: 'HOST', port: 'PORT' },
): Promise<Server> {
  const server = createServer(
    {
      keepAliveTimeout: 5_000,
      headersTimeout: 20_000,
      requestTimeout: 30_000,
      maxHeaderSize: 16_384,
      // The app answers a request without Host itself, as JSON (node's answer is an empty 400).
      requireHostHeader: false,
    },
    listener,
  );
  // A client that stops reading holds its answer's bytes (perhaps a superseded version's
  // dataset) for as long as its connection lives: no byte moving either way for this long
  // closes it (the MCP event streams send a comment every 25 s).
  server.setTimeout(config.socketTimeoutMs);
  clientErrorHandler(server, logger);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (err) {
    const why = ((err as Error).message ?? String(err)).split('\n')[0];
    throw new ServiceError(
      LISTEN_FAILED,
      `cannot listen on ${names.host}=${JSON.stringify(config.host)} ${names.port}=${config.port}: ${why}`,
      { exitCode: 78 },
    );
  }
  return server;
}

/**
 * The metrics' own listener on `METRICS_HOST:METRICS_PORT` (src/metrics), with the same limits
 * and the same one-line refusal; null when the metrics are off.
 */
export async function listenMetrics(
  config: Pick<Config, 'metrics' | 'socketTimeoutMs'>,
  listener: RequestListener | undefined,
  logger: Logger,
): Promise<Server | null> {
  if (!config.metrics || !listener) return null;
  const where = { ...config.metrics, socketTimeoutMs: config.socketTimeoutMs };
  return listen(where, listener, logger, { host: 'METRICS_HOST', port: 'METRICS_PORT' });
}

/** The URL a server listens on (from the bound address). */
export function listeningUrl(server: Server): string {
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
}

/** The public server, and the metrics' own (null when they are off). */
export interface Servers {
  server: Server;
  metricsServer: Server | null;
}

/**
 * The servers: the metrics' own first when they are on (`METRICS_PORT`), then the public
 * one, whose requests the metrics observe; the first is closed when the second cannot listen.
 */
export async function startServers(
  config: Config,
  app: Omit<AppDeps, 'observe'>,
  metrics: Metrics | null,
): Promise<Servers> {
  const metricsServer = await listenMetrics(config, metrics?.listener, app.logger);
  try {
    const listener = createApp(metrics ? { ...app, observe: metrics.request } : app);
    return { server: await listen(config, listener, app.logger), metricsServer };
  } catch (err) {
    metricsServer?.close();
    throw err;
  }
}
