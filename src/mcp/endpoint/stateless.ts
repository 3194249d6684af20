import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createMcpHandler,
  InMemoryServerEventBus,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';
import type { Logger } from '../../logger.js';
import type { Published, Snapshot } from '../../snapshot/types.js';
import { refused } from '../internal/errors.js';
import type { McpObserver } from '../observer.js';
import { MODERN_VERSION, type RequestInfo } from '../revisions.js';
import type { ChangeNotice } from '../stream-notices.js';
import { pipeWebResponse } from './answer.js';
import { webRequest } from './era.js';

/**
 * The stateless step (the 2026-07-28 era): a request carries its own protocol version and client
 * capabilities (`_meta`), so there is no session to check and any instance answers it. The SDK's
 * `createMcpHandler` (legacy: `reject`; the 2025 era goes through the session gate instead)
 * validates it as the revision says (the `_meta` keys, -32602; `Mcp-Method`, `Mcp-Name` and
 * `MCP-Protocol-Version` against the body, HTTP 400 -32020; removed methods, HTTP 404 -32601),
 * answers `server/discover`, adds `resultType` and the cache hints (cache-hints.ts), and serves
 * `subscriptions/listen`: the answer is an event stream, acknowledged first, each frame tagged
 * with its subscription id and filtered as the client asked. What a stream hears comes from this
 * instance's own data versions (`notices`), which every instance learns from the store, so a
 * stream hears of an import wherever it is held.
 */
export interface Stateless {
  /** Answers one 2026-07-28 message (already read, within the body limit, after the Origin). */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    extra: Record<string, string>,
    address: string,
  ): Promise<void>;
}

export interface StatelessOptions {
  createServer: (snapshot: Snapshot, request: RequestInfo) => Server;
  published: Published;
  /** Registers the listener of what each new data version changed. */
  notices(listener: (notice: ChangeNotice) => void): void;
  /** Registers what ends the listen streams at shutdown. */
  closing(close: () => void): void;
  /** `subscriptions/listen` streams one client address may hold open here (429 beyond). */
  listenPerAddress: number;
  /** Such streams one instance holds at most (the SDK answers -32603 beyond). */
  maxListens: number;
  /** The keep-alive comment of a listen stream (the GET stream's period). */
  keepAliveMs: number;
  logger: Logger;
  /** Told of each listen stream opened and closed (the metrics). */
  observer?: McpObserver | undefined;
}

const MODERN_INFO: RequestInfo = { protocolVersion: MODERN_VERSION, session: null };

function isListen(body: unknown): boolean {
  return (body as { method?: unknown } | null)?.method === 'subscriptions/listen';
}

/** Forwards what a data version changed to the SDK's listen streams (their filters apply). */
function forwardNotices(o: StatelessOptions, handler: McpHttpHandler): void {
  o.notices((notice) => {
    if (notice.listChanged) handler.notify.resourcesChanged();
    for (const uri of notice.changed) handler.notify.resourceUpdated(uri);
  });
}

export function statelessEndpoint(o: StatelessOptions): Stateless {
  const onerror = (err: Error) => o.logger.debug({ err: err.message }, 'MCP 2026 request refused');
  const handler = createMcpHandler(
    // One server per request, over the snapshot current when the request arrives.
    () => o.createServer(o.published.current(), MODERN_INFO),
    {
      legacy: 'reject',
      bus: new InMemoryServerEventBus(onerror),
      maxSubscriptions: o.maxListens,
      keepAliveMs: o.keepAliveMs,
      onerror,
    },
  );
  forwardNotices(o, handler);
  const perAddress = new Map<string, number>();
  // The listen streams open here, each ended at shutdown (its request aborted, its answer ended).
  const listening = new Map<ServerResponse, AbortController>();
  o.closing(() => {
    for (const [res, aborted] of listening) {
      aborted.abort();
      if (res.headersSent) res.end();
    }
    listening.clear();
  });
  return {
    async serve(req, res, body, extra, address) {
      const listen = isListen(body);
      if (listen && (perAddress.get(address) ?? 0) >= o.listenPerAddress) {
        throw refused(
          'too_many_streams',
          429,
          `Too many event streams from this address (at most ${o.listenPerAddress}): close one first`,
          { headers: { 'Retry-After': '30' } },
        );
      }
      const aborted = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) aborted.abort();
      });
      if (listen) {
        perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
        listening.set(res, aborted);
        o.observer?.listening(1);
        res.on('close', () => {
          listening.delete(res);
          o.observer?.listening(-1);
          const left = (perAddress.get(address) ?? 1) - 1;
          if (left > 0) perAddress.set(address, left);
          else perAddress.delete(address);
        });
      }
      const response = await handler.fetch(webRequest(req, aborted.signal), { parsedBody: body });
      await pipeWebResponse(res, response, extra);
    },
  };
}
