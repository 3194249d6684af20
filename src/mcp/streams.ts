import type { ServerResponse } from 'node:http';
import { DOCUMENT_IDS, DOCUMENTS, type ServiceUrls } from '../catalogue.js';
import type { Logger } from '../logger.js';
import type { ChangeEvent } from '../snapshot/types.js';
import type { SessionStore } from '../store/index.js';
import type { SessionClaims } from './sessions.js';

/** The RFC 5424 levels of MCP logging, least severe first. */
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A comment line every 25 s keeps proxies and clients from closing an idle stream. */
const KEEP_ALIVE_MS = 25_000;
/** Open streams per session on one instance, at most (a client needs one). */
const STREAMS_PER_SESSION = 4;
/** Open streams on one instance, at most. */
const MAX_STREAMS = 10_000;

interface Stream {
  res: ServerResponse;
  claims: SessionClaims;
}

/**
 * The server-to-client event streams of MCP sessions (`GET /mcp`, server-sent events), on this
 * instance. When a data version changes documents, each stream whose session subscribed to one of
 * them (`resources/subscribe`, kept in the store, so the subscription may have been made on
 * another instance) gets `notifications/resources/updated`; when the list of documents changes,
 * every stream gets `notifications/resources/list_changed`. A stream ends when its session
 * expires, when the client leaves, or when the service stops.
 */
export interface Streams {
  /** Opens a stream for a checked session (the headers are written here). */
  open(res: ServerResponse, claims: SessionClaims, headers: Record<string, string>): void;
  /** Tells the streams of this instance what a change means for their sessions. */
  notify(event: ChangeEvent, previous: ReadonlySet<string>): Promise<void>;
  /** Ends the streams of a session (DELETE on this instance). */
  end(sessionKey: string): void;
  /** Ends every stream (shutdown). */
  closeAll(): void;
  readonly size: number;
}

export function createStreams(o: {
  sessions: SessionStore;
  urls: ServiceUrls;
  logger: Logger;
  now?: () => number;
}): Streams {
  const now = o.now ?? Date.now;
  const open = new Map<string, Set<Stream>>();
  let count = 0;

  const remove = (s: Stream): void => {
    const set = open.get(s.claims.key);
    if (set?.delete(s)) {
      count--;
      if (set.size === 0) open.delete(s.claims.key);
    }
  };
  const send = (s: Stream, message: unknown): void => {
    if (!s.res.writableEnded) s.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  };

  const timer = setInterval(() => {
    const at = now();
    for (const set of open.values()) {
      for (const s of set) {
        if (s.claims.expiresAtMs <= at) {
          s.res.end();
          remove(s);
        } else if (!s.res.writableEnded) s.res.write(': keep-alive\n\n');
      }
    }
  }, KEEP_ALIVE_MS);
  timer.unref();

  /** The URI of each document path. */
  const uriOf = new Map<string, string>(DOCUMENT_IDS.map((id) => [DOCUMENTS[id].path, o.urls[id]]));

  return {
    open(res, claims, headers) {
      const set = open.get(claims.key) ?? new Set<Stream>();
      if (set.size >= STREAMS_PER_SESSION || count >= MAX_STREAMS) {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: 'Too many event streams: close one first' },
        });
        res.writeHead(429, {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'Retry-After': '30',
        });
        res.end(body);
        return;
      }
      const stream: Stream = { res, claims };
      set.add(stream);
      open.set(claims.key, set);
      count++;
      res.writeHead(200, {
        ...headers,
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
      });
      res.flushHeaders();
      res.on('close', () => remove(stream));
    },
    async notify(event, previous) {
      const current = new Set(event.snapshot.representations.keys());
      const listChanged =
        previous.size !== current.size || [...current].some((p) => !previous.has(p));
      const changed = event.changed.map((p) => uriOf.get(p)).filter((u): u is string => !!u);
      if (!listChanged && changed.length === 0) return;
      // The news, as a log message at `info` for the sessions whose level lets it through.
      const log = {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: {
          level: 'info',
          logger: 'dealer-reviews',
          data: {
            message: `Data version ${event.version}: ${changed.join(', ')} changed (${event.snapshot.index.size} reviews).`,
            version: event.version,
            reviews: event.snapshot.index.size,
            changed,
          },
        },
      };
      for (const [key, set] of open) {
        // A session deleted on another instance: its streams here end instead of hearing more.
        if (await o.sessions.isEnded(key).catch(() => false)) {
          for (const s of set) {
            s.res.end();
            remove(s);
          }
          continue;
        }
        if (listChanged) {
          for (const s of set)
            send(s, { jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
        }
        if (changed.length === 0) continue;
        let subscribed: string[];
        let level: string | null;
        try {
          [subscribed, level] = await Promise.all([
            o.sessions.subscriptions(key, now()),
            o.sessions.logLevel(key, now()),
          ]);
        } catch (err) {
          o.logger.warn({ err }, 'could not read the MCP subscriptions of a session');
          continue;
        }
        const streams = open.get(key) ?? new Set<Stream>();
        for (const uri of changed) {
          if (!subscribed.includes(uri)) continue;
          for (const s of streams) {
            send(s, { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
          }
        }
        if (LEVELS.indexOf(level ?? 'info') <= LEVELS.indexOf('info')) {
          for (const s of streams) send(s, log);
        }
      }
    },
    end(sessionKey) {
      for (const s of open.get(sessionKey) ?? []) {
        s.res.end();
        remove(s);
      }
    },
    closeAll() {
      clearInterval(timer);
      for (const set of open.values()) for (const s of set) s.res.end();
      open.clear();
      count = 0;
    },
    get size() {
      return count;
    },
  };
}
