import type { IncomingMessage, ServerResponse } from 'node:http';
import { refused } from '../internal/errors.js';

/**
 * The endpoint's Origin rules and CORS headers: which browser origins may call `/mcp` (403
 * otherwise), what every answer to them carries, and the answer to a preflight (`OPTIONS`).
 */
export interface OriginPolicy {
  /** The request's Origin when it is allowed; `undefined` without one; throws a 403 otherwise. */
  check(req: IncomingMessage): string | undefined;
}

const EXPOSED = 'Mcp-Session-Id, Mcp-Protocol-Version';

export function originPolicy(allowedOrigins: readonly string[]): OriginPolicy {
  const anyOrigin = allowedOrigins.includes('*');
  const allowed = new Set(allowedOrigins);
  return {
    check(req) {
      const origin = req.headers.origin;
      if (origin === undefined) return undefined;
      if (anyOrigin || allowed.has(origin)) return origin;
      throw refused('forbidden_origin', 403, 'Forbidden: this Origin is not allowed');
    },
  };
}

/** The CORS headers of an answer to an allowed Origin (none without one). */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  return origin
    ? {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Expose-Headers': EXPOSED,
        Vary: 'Origin',
      }
    : {};
}

/** `OPTIONS /mcp`: the methods and headers a browser client may use. */
export function answerPreflight(
  _req: IncomingMessage,
  res: ServerResponse,
  origin: string | undefined,
): void {
  res.writeHead(204, {
    ...corsHeaders(origin),
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers':
      'Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, Authorization',
    'Access-Control-Max-Age': '86400',
    Allow: 'GET, POST, DELETE, OPTIONS',
  });
  res.end();
}
