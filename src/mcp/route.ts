import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { Route } from '../http/router.js';
import type { Logger } from '../logger.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { SessionManager } from './sessions.js';

export interface McpRouteOptions {
  createServer: () => Server;
  sessions: SessionManager;
  allowedOrigins: readonly string[];
  maxBodyBytes: number;
  logger: Logger;
}

/** First protocol version without JSON-RPC batching. */
const NO_BATCH_FROM = '2025-06-18';

const EXPOSED = 'Mcp-Session-Id, Mcp-Protocol-Version';

class RpcFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function corsHeaders(origin: string | undefined): Record<string, string> {
  return origin
    ? {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Expose-Headers': EXPOSED,
        Vary: 'Origin',
      }
    : {};
}

function sendRpcError(
  res: ServerResponse,
  origin: string | undefined,
  failure: RpcFailure,
  id: unknown = null,
): void {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    error: { code: failure.code, message: failure.message },
    id,
  });
  res.writeHead(failure.status, {
    ...corsHeaders(origin),
    ...failure.headers,
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(
      new RpcFailure(413, -32000, `Payload Too Large: the body must be at most ${limit} bytes`),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(
          new RpcFailure(413, -32000, `Payload Too Large: the body must be at most ${limit} bytes`),
        );
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function isJsonContentType(value: string | undefined): boolean {
  return value?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

function toWebRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  return new Request(`http://mcp.local${req.url ?? '/mcp'}`, { method: req.method, headers });
}

async function writeWebResponse(
  res: ServerResponse,
  response: Response,
  extra: Record<string, string>,
): Promise<void> {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...extra };
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

function negotiatedVersion(requested: unknown): string {
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : LATEST_PROTOCOL_VERSION;
}

/**
 * The `/mcp` endpoint (streamable HTTP). Checks what the SDK transport leaves to the host, in
 * this order: Origin (403), Accept (406), Content-Type (415), body size (413), JSON (-32700),
 * batching for the negotiated version (-32600), the session (400 without, 404 unknown, expired
 * or ended); then hands the parsed message to a fresh SDK server and transport. Responses are
 * JSON (no SSE streams are needed: the server never sends requests of its own).
 */
export function mcpRoutes(options: McpRouteOptions): Route[] {
  const { sessions, logger } = options;
  const anyOrigin = options.allowedOrigins.includes('*');
  const allowed = new Set(options.allowedOrigins);

  const checkOrigin = (req: IncomingMessage): string | undefined => {
    const origin = req.headers.origin;
    if (origin === undefined) return undefined;
    if (anyOrigin || allowed.has(origin)) return origin;
    throw new RpcFailure(403, -32000, 'Forbidden: this Origin is not allowed');
  };

  const post = async (
    req: IncomingMessage,
    res: ServerResponse,
    origin: string | undefined,
  ): Promise<void> => {
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      throw new RpcFailure(
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      throw new RpcFailure(
        415,
        -32000,
        'Unsupported Media Type: Content-Type must be application/json',
      );
    }
    const raw = await readBody(req, options.maxBodyBytes);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new RpcFailure(400, -32700, 'Parse error: Invalid JSON');
    }
    const messages = Array.isArray(body) ? body : [body];
    if (messages.length === 0) throw new RpcFailure(400, -32600, 'Invalid Request: empty batch');
    if (!messages.every((m) => JSONRPCMessageSchema.safeParse(m).success)) {
      throw new RpcFailure(400, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
    }
    const init = messages.find((m) => isInitializeRequest(m));
    let extra: Record<string, string> = corsHeaders(origin);
    let version: string;
    if (init) {
      version = negotiatedVersion(
        (init as { params: { protocolVersion?: unknown } }).params.protocolVersion,
      );
      if (messages.length === 1) {
        extra = { ...extra, 'Mcp-Session-Id': sessions.issue(version).id };
      }
    } else {
      const check = await sessions.check(req.headers['mcp-session-id'] as string | undefined);
      if (!check.ok)
        throw new RpcFailure(check.status, check.status === 404 ? -32001 : -32000, check.message);
      version = check.claims.protocolVersion;
    }
    if (Array.isArray(body) && version >= NO_BATCH_FROM) {
      throw new RpcFailure(
        400,
        -32600,
        `Invalid Request: JSON-RPC batches are not supported in protocol version ${version}`,
      );
    }
    const server = options.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(toWebRequest(req), { parsedBody: body });
      await writeWebResponse(res, response, extra);
    } finally {
      await server.close();
    }
  };

  const remove = async (
    req: IncomingMessage,
    res: ServerResponse,
    origin: string | undefined,
  ): Promise<void> => {
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      throw new RpcFailure(400, -32000, 'Bad Request: Unsupported protocol version');
    }
    const check = await sessions.check(req.headers['mcp-session-id'] as string | undefined);
    if (!check.ok)
      throw new RpcFailure(check.status, check.status === 404 ? -32001 : -32000, check.message);
    await sessions.end(check.claims);
    res.writeHead(200, {
      ...corsHeaders(origin),
      'Cache-Control': 'no-store',
      'Content-Length': 0,
    });
    res.end();
  };

  const handle =
    (
      fn: (
        req: IncomingMessage,
        res: ServerResponse,
        origin: string | undefined,
      ) => Promise<void> | void,
    ) =>
    async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      let origin: string | undefined;
      try {
        origin = checkOrigin(req);
        await fn(req, res, origin);
      } catch (err) {
        if (err instanceof RpcFailure) {
          if (res.headersSent) return void res.destroy();
          sendRpcError(res, origin, err);
          return;
        }
        logger.error({ err }, 'MCP request failed');
        if (res.headersSent) return void res.destroy();
        sendRpcError(res, origin, new RpcFailure(500, -32603, 'Internal error'));
      }
    };

  const preflight = (
    _req: IncomingMessage,
    res: ServerResponse,
    origin: string | undefined,
  ): void => {
    res.writeHead(204, {
      ...corsHeaders(origin),
      'Access-Control-Allow-Methods': 'POST, DELETE, OPTIONS',
      'Access-Control-Allow-Headers':
        'Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Authorization',
      'Access-Control-Max-Age': '86400',
      Allow: 'POST, DELETE, OPTIONS',
    });
    res.end();
  };

  return [
    {
      path: '/mcp',
      methods: {
        POST: handle(post),
        DELETE: handle(remove),
        OPTIONS: handle(preflight),
      },
    },
  ];
}
