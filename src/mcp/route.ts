import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Route } from '../http/router.js';
import type { Logger } from '../logger.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpResultCache } from './result-cache.js';
import type { SessionManager } from './sessions.js';
import type { Published, Snapshot } from '../snapshot/types.js';

export interface McpRouteOptions {
  /** Builds the SDK server for one request, over the snapshot that request is served from. */
  createServer: (snapshot: Snapshot) => Server;
  /** The published data: each request reads `current()` once and keeps to that snapshot. */
  published: Published;
  /** Results of read-only requests kept per data version (optional). */
  resultCache?: McpResultCache;
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

/**
 * The shape check of a JSON-RPC 2.0 message done before anything else (the SDK validates fully
 * when it handles the message): a request, a notification or a response.
 */
function isJsonRpcMessage(m: unknown): boolean {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return false;
  const o = m as Record<string, unknown>;
  if (o.jsonrpc !== '2.0') return false;
  const idOk =
    o.id === undefined ||
    typeof o.id === 'string' ||
    (typeof o.id === 'number' && Number.isFinite(o.id));
  if (typeof o.method === 'string')
    return idOk && (o.params === undefined || (typeof o.params === 'object' && o.params !== null));
  return o.id !== undefined && idOk && ('result' in o || 'error' in o);
}

function isJsonContentType(value: string | undefined): boolean {
  return value?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The request headers the SDK transport reads (the body is handed over already parsed). */
const FORWARDED = [
  'accept',
  'content-type',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
];

/**
 * The SDK transport, keeping the result of the response it sends (the object the SDK serialises),
 * so the result cache can keep it without parsing the response text again.
 */
class ResultCapturingTransport extends WebStandardStreamableHTTPServerTransport {
  result: unknown;

  override send(
    message: JSONRPCMessage,
    options?: Parameters<WebStandardStreamableHTTPServerTransport['send']>[1],
  ): Promise<void> {
    if ('result' in message) this.result = message.result;
    return super.send(message, options);
  }
}

function toWebRequest(req: IncomingMessage): Request {
  const headers: [string, string][] = [];
  for (const name of FORWARDED) {
    const v = req.headers[name];
    if (typeof v === 'string') headers.push([name, v]);
  }
  return new Request('http://mcp.local/mcp', { method: req.method, headers });
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
    if (!messages.every(isJsonRpcMessage)) {
      throw new RpcFailure(400, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
    }
    const init = messages.find((m) => (m as { method?: unknown }).method === 'initialize');
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
    // One snapshot for the whole request: the result is computed from it and cached under it.
    const snapshot = options.published.current();
    const cached = Array.isArray(body)
      ? null
      : (options.resultCache?.lookup(snapshot, body) ?? null);
    if (cached?.response) {
      const version = req.headers['mcp-protocol-version'];
      if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        throw new RpcFailure(400, -32000, 'Bad Request: Unsupported protocol version');
      }
      const { head, result, tail } = cached.response;
      res.writeHead(200, {
        ...extra,
        'Cache-Control': 'no-store',
        'Content-Type': 'application/json',
        'Content-Length': head.length + result.length + tail.length,
      });
      res.cork();
      res.write(head);
      res.write(result);
      res.end(tail);
      return;
    }
    // A fresh SDK server and stateless transport per request. They hold no timers and no
    // resources once the JSON response is written, so they are left to the garbage collector
    // rather than closed (closing builds a "connection closed" error for nothing).
    const server = options.createServer(snapshot);
    const transport = new ResultCapturingTransport({ enableJsonResponse: true });
    await server.connect(transport);
    const response = await transport.handleRequest(toWebRequest(req), { parsedBody: body });
    await writeWebResponse(res, response, extra);
    if (cached && response.status === 200 && transport.result !== undefined) {
      options.resultCache!.store(snapshot, cached.key, transport.result);
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
