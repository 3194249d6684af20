/**
 * The metrics listener: a second HTTP server, on `METRICS_HOST:METRICS_PORT`, that serves only
 * `GET /metrics` (and its HEAD) in the Prometheus text format; anything else is a JSON 404 (405
 * for another method on `/metrics`). The public port never serves metrics.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { Logger } from '../../logger.js';

/** The path of the metrics, the only one this listener serves. */
export const METRICS_PATH = '/metrics';

function sendJson(res: ServerResponse, status: number, body: object, headers = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/**
 * The request listener of the metrics port (`listen.ts` makes its server, as the public one's):
 * the registry's metrics, then `more` (the request histogram, which writes its own text).
 */
export function metricsListener(
  registry: Registry,
  more: () => string,
  logger: Logger,
): RequestListener {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== METRICS_PATH) {
      return sendJson(res, 404, {
        error: 'not_found',
        message: 'Only GET /metrics is served here.',
      });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendJson(
        res,
        405,
        { error: 'method_not_allowed', message: 'GET /metrics only.' },
        { Allow: 'GET, HEAD' },
      );
    }
    registry.metrics().then(
      (collected) => {
        // The registry's text ends without a line feed; the request histogram's (`more`) with one.
        const text = `${collected}\n${more()}`;
        res.writeHead(200, {
          'Content-Type': registry.contentType,
          'Content-Length': Buffer.byteLength(text),
          'Cache-Control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        logger.error({ err }, 'could not collect the metrics');
        sendJson(res, 500, {
          error: 'internal_error',
          message: 'The metrics could not be collected.',
        });
      },
    );
  };
}
