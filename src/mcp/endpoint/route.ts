import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import { isServiceError, type ServiceError } from '../../platform/errors.js';
import { MCP_PATH } from '../../catalogue.js';
import { isClientGone } from '../../http/respond.js';
import { clientAddressResolver, type ClientAddress } from '../../http/client-address.js';
import { clientKey, type RateLimiter } from '../../http/rate-limit.js';
import type { Route } from '../../http/router.js';
import type { Logger } from '../../logger.js';
import type { Published, Snapshot } from '../../snapshot/types.js';
import { failureOf, refused, writeRpcError } from '../internal/errors.js';
import type { McpObserver } from '../observer.js';
import type { McpResultCache } from '../result-cache.js';
import type { RequestInfo } from '../revisions.js';
import type { SessionManager } from '../sessions.js';
import { KEEP_ALIVE_MS, MAX_STREAMS, type Streams } from '../streams.js';
import { answerPreflight, corsHeaders, originPolicy, type OriginPolicy } from './cors.js';
import { dispatchPost, type Dispatch } from './dispatch.js';
import type { Reply } from './read-request.js';
import { sessionGate, type SessionGate } from './session-gate.js';
import { statelessEndpoint } from './stateless.js';

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
  /** Told of tool calls, sessions and listen streams (the metrics). */
  observer?: McpObserver;
}

/** The endpoint's state, built once: its Origin rules, its session gate and its dispatch. */
interface Endpoint {
  options: McpRouteOptions;
  origins: OriginPolicy;
  gate: SessionGate;
  dispatch: Dispatch;
  clientAddress: ClientAddress;
}

type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  origin: string | undefined,
  reply: Reply,
) => Promise<void> | void;

/** `DELETE /mcp`: ends the session, here and (through the store) on every instance. */
async function endSession(e: Endpoint, req: IncomingMessage, res: ServerResponse, origin?: string) {
  const claims = await e.gate.sessionOf(req);
  await e.options.sessions.end(claims);
  e.options.streams.end(claims.key);
  e.options.observer?.sessionEnded();
  res.writeHead(200, { ...corsHeaders(origin), 'Cache-Control': 'no-store', 'Content-Length': 0 });
  res.end();
}

/**
 * `GET /mcp`: the session's event stream (server-sent events), over which it hears of changes
 * to the resources it subscribed to.
 */
async function openStream(e: Endpoint, req: IncomingMessage, res: ServerResponse, origin?: string) {
  if (!(req.headers.accept ?? '').includes('text/event-stream')) {
    throw refused('not_acceptable', 406, 'Not Acceptable: Client must accept text/event-stream');
  }
  const claims = await e.gate.sessionOf(req);
  e.options.streams.open(res, claims, clientKey(e.clientAddress(req)), corsHeaders(origin));
}

/**
 * The endpoint's error boundary around a method's handler: checks the Origin first, then answers
 * any error as a JSON-RPC error (`writeRpcError`) carrying the request's id when it was read. A
 * client gone is only noted; an error after the answer began ends the connection.
 */
function guarded(e: Endpoint, fn: Handler) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let origin: string | undefined;
    const reply: Reply = { id: null };
    try {
      origin = e.origins.check(req);
      await fn(req, res, origin, reply);
    } catch (err) {
      if (isClientGone(req, err)) {
        e.options.logger.debug({ code: (err as { code?: unknown }).code }, 'MCP client went away');
        return;
      }
      if (res.headersSent) {
        if (!isServiceError(err)) e.options.logger.error({ err }, 'MCP request failed');
        return void res.destroy();
      }
      const { error, internal } = failureOf(err);
      if (internal) e.options.logger.error({ err }, 'MCP request failed');
      writeRpcError(res, error, reply.id, corsHeaders(origin));
    }
  };
}

/**
 * Errors the service answers before the endpoint runs (405 for the other methods, 400 without
 * Host), as JSON-RPC errors under the same Origin rules.
 */
function renderRefusal(e: Endpoint) {
  return (req: IncomingMessage, res: ServerResponse, err: ServiceError): void => {
    let origin: string | undefined;
    try {
      origin = e.origins.check(req);
    } catch (forbidden) {
      return writeRpcError(res, forbidden as ServiceError, null, {});
    }
    const error = refused(err.code, err.status, err.message, { headers: err.headers });
    writeRpcError(res, error, null, corsHeaders(origin));
  };
}

/**
 * The `/mcp` endpoint (streamable HTTP). Checks what the SDK transport leaves to the host, in
 * this order: Origin (403), Accept (406), Content-Type (415), body size (413), JSON (-32700),
 * the JSON-RPC 2.0 shape of each message (-32600) (read-request.ts), the session (400 without,
 * 404 unknown, expired or ended), batching for the negotiated version (-32600), the
 * MCP-Protocol-Version header (400) (session-gate.ts), and the params of the methods the server
 * answers (-32602, short messages); then hands the parsed message to a fresh SDK server and
 * transport (dispatch.ts; a batch one message at a time: batch.ts). Errors carry the request's id
 * when it can be read. Responses are JSON (answer.ts; no SSE streams are needed: the server never
 * sends requests of its own); `GET /mcp` is the session's event stream (streams.ts).
 */
export function mcpRoutes(options: McpRouteOptions): Route[] {
  const clientAddress = options.clientAddress ?? clientAddressResolver([]);
  const gate = sessionGate({
    sessions: options.sessions,
    streams: options.streams,
    initializeLimiter: options.initializeLimiter,
    clientAddress,
  });
  const stateless = statelessEndpoint({
    createServer: options.createServer,
    published: options.published,
    notices: (listener) => options.streams.onNotice(listener),
    closing: (close) => options.streams.onCloseAll(close),
    listenPerAddress: options.streams.perAddress,
    maxListens: MAX_STREAMS,
    keepAliveMs: KEEP_ALIVE_MS,
    logger: options.logger,
    observer: options.observer,
  });
  const e: Endpoint = {
    options,
    origins: originPolicy(options.allowedOrigins),
    gate,
    clientAddress,
    dispatch: {
      gate,
      stateless,
      addressOf: (req) => clientKey(clientAddress(req)),
      sessions: options.sessions,
      published: options.published,
      createServer: options.createServer,
      resultCache: options.resultCache,
      maxBodyBytes: options.maxBodyBytes,
      observer: options.observer,
    },
  };
  return [
    {
      path: MCP_PATH,
      methods: {
        GET: guarded(e, (req, res, origin) => openStream(e, req, res, origin)),
        POST: guarded(e, (req, res, origin, reply) =>
          dispatchPost(e.dispatch, req, res, origin, reply),
        ),
        DELETE: guarded(e, (req, res, origin) => endSession(e, req, res, origin)),
        OPTIONS: guarded(e, answerPreflight),
      },
      renderError: renderRefusal(e),
    },
  ];
}
