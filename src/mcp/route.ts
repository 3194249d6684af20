import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATH } from '../catalogue.js';
import type { ServiceError } from '../platform/errors.js';
import { isClientGone } from '../http/respond.js';
import { clientAddressResolver, type ClientAddress } from '../http/client-address.js';
import { clientKey, type RateLimiter } from '../http/rate-limit.js';
import type { Route } from '../http/router.js';
import type { Logger } from '../logger.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  checkParams,
  hasValidEnvelope,
  ignoreTaskAugmentation,
  isJsonRpcMessage,
  readableId,
  type RequestId,
} from './internal/messages.js';
import { answerBatch, MAX_BATCH_MESSAGES } from './batch.js';
import type { McpResultCache } from './result-cache.js';
import { runMessage, writeWebResponse, type MessageRun } from './run-message.js';
import { ANSWERED_REQUESTS } from './server.js';
import type { SessionClaims, SessionManager } from './sessions.js';
import type { Streams } from './streams.js';
import type { Published, Snapshot } from '../snapshot/types.js';
import { isStoreBusy, isStoreUnavailable } from '../store/index.js';

/** What one request's server is built with. */
export interface RequestInfo {
  protocolVersion: string;
  /** The request's session; `null` for `initialize`. */
  session: SessionClaims | null;
}

export interface McpRouteOptions {
  /**
   * Builds the SDK server for one request, over the snapshot that request is served from, for
   * the protocol version the session negotiated.
   */
  createServer: (snapshot: Snapshot, request: RequestInfo) => Server;
  /** The event streams (`GET /mcp`) of this instance; a session's request keeps its own active. */
  streams: Streams;
  /** Counts `initialize` per client address (shared by every instance). */
  initializeLimiter?: RateLimiter;
  /** The client's address (through trusted proxies); default: the TCP peer. */
  clientAddress?: ClientAddress;
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
    readonly data?: unknown,
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
  id: RequestId | null,
): void {
  const error: Record<string, unknown> = { code: failure.code, message: failure.message };
  if (failure.data !== undefined) error.data = failure.data;
  const body = JSON.stringify({ jsonrpc: '2.0', error, id });
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

/** No content coding, or `identity`: the endpoint reads bodies as they are. */
function isIdentityCoding(value: string | undefined): boolean {
  return value === undefined || value.trim().toLowerCase() === 'identity' || value.trim() === '';
}

function isJsonContentType(value: string | undefined): boolean {
  return value?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

function negotiatedVersion(requested: unknown): string {
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : LATEST_PROTOCOL_VERSION;
}

type Message = { id?: RequestId; method?: string; params?: Record<string, unknown> };

/** What an error answers: the id of the request when it could be read. */
interface Reply {
  id: RequestId | null;
}

function checkProtocolHeader(req: IncomingMessage): void {
  const version = req.headers['mcp-protocol-version'];
  if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    throw new RpcFailure(400, -32000, 'Bad Request: Unsupported protocol version');
  }
}

/**
 * The `/mcp` endpoint (streamable HTTP). Checks what the SDK transport leaves to the host, in
 * this order: Origin (403), Accept (406), Content-Type (415), body size (413), JSON (-32700),
 * the JSON-RPC 2.0 shape of each message (-32600), the session (400 without, 404 unknown, expired
 * or ended), batching for the negotiated version (-32600), the MCP-Protocol-Version header (400),
 * and the params of the methods the server answers (-32602, short messages); then hands the
 * parsed message to a fresh SDK server and transport (a batch one message at a time: batch.ts).
 * Errors carry the request's id when it can be read. Responses are JSON (no SSE streams are
 * needed: the server never sends requests of its own).
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

  /**
   * The id of a request refused before its body was read (406, 415), read from the body when it
   * can be (within the size limit, JSON): the error then answers that request.
   */
  const idOfUnread = async (req: IncomingMessage): Promise<RequestId | null> => {
    try {
      if (req.headers['content-encoding'] !== undefined) return null;
      return readableId(JSON.parse((await readBody(req, options.maxBodyBytes)).toString('utf8')));
    } catch {
      return null;
    }
  };

  /** Reads the body: the parsed messages, each a JSON-RPC 2.0 message. */
  const readMessages = async (
    req: IncomingMessage,
    reply: Reply,
  ): Promise<{ body: unknown; messages: Message[]; malformedParams: boolean[] }> => {
    const accept = req.headers.accept ?? '';
    let refused: RpcFailure | null = null;
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      refused = new RpcFailure(
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    } else if (!isJsonContentType(req.headers['content-type'])) {
      refused = new RpcFailure(
        415,
        -32000,
        'Unsupported Media Type: Content-Type must be application/json',
      );
    } else if (!isIdentityCoding(req.headers['content-encoding'])) {
      refused = new RpcFailure(
        415,
        -32000,
        'Unsupported Media Type: the body must not be compressed (no Content-Encoding)',
      );
    }
    if (refused) {
      reply.id = await idOfUnread(req);
      throw refused;
    }
    const raw = await readBody(req, options.maxBodyBytes);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new RpcFailure(400, -32700, 'Parse error: Invalid JSON');
    }
    reply.id = readableId(body);
    const messages = Array.isArray(body) ? body : [body];
    if (messages.length === 0) throw new RpcFailure(400, -32600, 'Invalid Request: empty batch');
    if (messages.length > MAX_BATCH_MESSAGES) {
      throw new RpcFailure(
        400,
        -32600,
        `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages`,
      );
    }
    for (const m of messages) ignoreTaskAugmentation(m);
    const malformedParams = messages.map((m) => !isJsonRpcMessage(m));
    if (!messages.every((m, i) => !malformedParams[i] || hasValidEnvelope(m, ANSWERED_REQUESTS))) {
      throw new RpcFailure(400, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
    }
    return { body, messages: messages as Message[], malformedParams };
  };

  const clientAddress = options.clientAddress ?? clientAddressResolver([]);
  /** Sessions are cheap to open but not free: a client address opens so many per minute. */
  const limitInitialize = async (req: IncomingMessage): Promise<void> => {
    if (!options.initializeLimiter) return;
    const decision = await options.initializeLimiter.take(
      clientKey(clientAddress(req)),
      Date.now(),
    );
    if (!decision.ok) {
      throw new RpcFailure(
        429,
        -32000,
        'Too many sessions opened from this address; try again later',
        {
          'Retry-After': String(decision.retryAfterSeconds),
        },
      );
    }
  };

  /** The session of a request that needs one: 400 without it, 404 unknown, expired or ended. */
  const sessionOf = async (req: IncomingMessage): Promise<SessionClaims> => {
    const check = await sessions.check(req.headers['mcp-session-id'] as string | undefined);
    if (!check.ok)
      throw new RpcFailure(check.status, check.status === 404 ? -32001 : -32000, check.message);
    checkProtocolHeader(req);
    options.streams.touch(check.claims.key);
    return check.claims;
  };

  /** The protocol version of the request (negotiated by its initialize, or its session's). */
  const versionOf = async (
    req: IncomingMessage,
    init: Message | undefined,
  ): Promise<RequestInfo> => {
    if (init)
      return { protocolVersion: negotiatedVersion(init.params?.protocolVersion), session: null };
    const claims = await sessionOf(req);
    return { protocolVersion: claims.protocolVersion, session: claims };
  };

  const post = async (
    req: IncomingMessage,
    res: ServerResponse,
    origin: string | undefined,
    reply: Reply,
  ): Promise<void> => {
    const { body, messages, malformedParams } = await readMessages(req, reply);
    const problems = messages.map((m) => checkParams(m, ANSWERED_REQUESTS));
    // Params the method's schema accepts but the message schema does not: nothing says why.
    if (malformedParams.some((bad, i) => bad && !problems[i])) {
      throw new RpcFailure(400, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
    }
    const init = messages.find((m) => m.method === 'initialize');
    const info = await versionOf(req, init);
    const version = info.protocolVersion;
    let extra: Record<string, string> = corsHeaders(origin);
    if (Array.isArray(body) && version >= NO_BATCH_FROM) {
      throw new RpcFailure(
        400,
        -32600,
        `Invalid Request: JSON-RPC batches are not supported in protocol version ${version}`,
      );
    }
    if (Array.isArray(body) && init) {
      throw new RpcFailure(
        400,
        -32600,
        'Invalid Request: initialize must not be part of a JSON-RPC batch',
      );
    }
    if (!Array.isArray(body)) {
      const problem = problems[0];
      if (problem)
        throw new RpcFailure(200, -32602, problem.message, {}, { issues: problem.issues });
      if (init) {
        await limitInitialize(req);
        extra = { ...extra, 'Mcp-Session-Id': sessions.issue(version).id };
      }
    }
    // One snapshot for the whole request: the results are computed from it and cached under it.
    const run: MessageRun = {
      req,
      snapshot: options.published.current(),
      info,
      createServer: options.createServer,
      resultCache: options.resultCache,
    };
    if (Array.isArray(body)) return answerBatch(res, run, { messages, problems }, extra);
    const answer = await runMessage(run, body);
    if ('response' in answer) return writeWebResponse(res, answer.response, extra);
    const [head, result, tail] = answer.cached;
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
  };

  const remove = async (
    req: IncomingMessage,
    res: ServerResponse,
    origin: string | undefined,
  ): Promise<void> => {
    const claims = await sessionOf(req);
    await sessions.end(claims);
    options.streams.end(claims.key);
    res.writeHead(200, {
      ...corsHeaders(origin),
      'Cache-Control': 'no-store',
      'Content-Length': 0,
    });
    res.end();
  };

  /**
   * `GET /mcp`: the session's event stream (server-sent events), over which it hears of changes
   * to the resources it subscribed to.
   */
  const stream = async (
    req: IncomingMessage,
    res: ServerResponse,
    origin: string | undefined,
  ): Promise<void> => {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      throw new RpcFailure(406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    }
    const claims = await sessionOf(req);
    options.streams.open(res, claims, clientKey(clientAddress(req)), corsHeaders(origin));
  };

  const handle =
    (
      fn: (
        req: IncomingMessage,
        res: ServerResponse,
        origin: string | undefined,
        reply: Reply,
      ) => Promise<void> | void,
    ) =>
    async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      let origin: string | undefined;
      const reply: Reply = { id: null };
      try {
        origin = checkOrigin(req);
        await fn(req, res, origin, reply);
      } catch (err) {
        if (isClientGone(req, err)) {
          logger.debug({ code: (err as { code?: unknown }).code }, 'MCP client went away');
          return;
        }
        if (res.headersSent) {
          if (!(err instanceof RpcFailure)) logger.error({ err }, 'MCP request failed');
          return void res.destroy();
        }
        if (err instanceof RpcFailure) return sendRpcError(res, origin, err, reply.id);
        if (isStoreUnavailable(err)) {
          const busy = isStoreBusy(err)
            ? new RpcFailure(
                503,
                -32000,
                'Service Unavailable: another process is writing to the store; try again in a moment',
                { 'Retry-After': '2' },
              )
            : new RpcFailure(
                503,
                -32000,
                'Service Unavailable: the database cannot be reached right now; try again in a moment',
                { 'Retry-After': '5' },
              );
          return sendRpcError(res, origin, busy, reply.id);
        }
        logger.error({ err }, 'MCP request failed');
        sendRpcError(res, origin, new RpcFailure(500, -32603, 'Internal error'), reply.id);
      }
    };

  const preflight = (
    _req: IncomingMessage,
    res: ServerResponse,
    origin: string | undefined,
  ): void => {
    res.writeHead(204, {
      ...corsHeaders(origin),
      'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
      'Access-Control-Allow-Headers':
        'Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Authorization',
      'Access-Control-Max-Age': '86400',
      Allow: 'GET, POST, DELETE, OPTIONS',
    });
    res.end();
  };

  /**
   * Errors the service answers before the endpoint runs (405 for GET and the other methods, 400
   * without Host), as JSON-RPC errors under the same Origin rules.
   */
  const renderError = (req: IncomingMessage, res: ServerResponse, err: ServiceError): void => {
    let origin: string | undefined;
    try {
      origin = checkOrigin(req);
    } catch (refused) {
      return sendRpcError(res, undefined, refused as RpcFailure, null);
    }
    sendRpcError(res, origin, new RpcFailure(err.status, -32000, err.message, err.headers), null);
  };

  return [
    {
      path: MCP_PATH,
      methods: {
        GET: handle(stream),
        POST: handle(post),
        DELETE: handle(remove),
        OPTIONS: handle(preflight),
      },
      renderError,
    },
  ];
}
