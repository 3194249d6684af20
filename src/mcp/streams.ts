import type { ServerResponse } from 'node:http';
import { DOCUMENT_IDS, DOCUMENTS, type ServiceUrls } from '../catalogue.js';
import type { Logger } from '../logger.js';
import type { ChangeEvent } from '../snapshot/types.js';
import type { SessionStore } from '../store/index.js';
import type { SessionClaims } from './sessions.js';
import { StreamRegistry, type OpenStream } from './stream-registry.js';

/** The RFC 5424 levels of MCP logging, least severe first. */
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A comment line every 25 s keeps proxies and clients from closing an idle stream. */
const KEEP_ALIVE_MS = 25_000;
/** Open streams per session on one instance, at most (a client needs one). */
const STREAMS_PER_SESSION = 4;
/** Open streams on one instance, at most; beyond, the longest idle one makes room. */
const MAX_STREAMS = 10_000;
/** When full, a stream idle this long (or the idle time, if shorter) is closed for a new one. */
const EVICTABLE_AFTER_MS = 60_000;

/**
 * The server-to-client event streams of MCP sessions (`GET /mcp`, server-sent events), on this
 * instance. When a data version changes documents, each stream whose session subscribed to one of
 * them (`resources/subscribe`, kept in the store, so the subscription may have been made on
 * another instance) gets `notifications/resources/updated`; when the list of documents changes,
 * every stream gets `notifications/resources/list_changed`. A stream ends when its session
 * expires, when it is idle (no event sent on it and no request of its session here for
 * `idleMs`: the client reconnects), when the client leaves, or when the service stops. Streams
 * are bounded per session, per client address and per instance (docs/mcp.md, "Event stream").
 */
export interface Streams {
  /**
   * Opens a stream for a checked session from a client address (its rate-limit key); the headers
   * are written here (429 beyond the bounds).
   */
  open(
    res: ServerResponse,
    claims: SessionClaims,
    address: string,
    headers: Record<string, string>,
  ): void;
  /** A request of this session arrived: its streams here are active. */
  touch(sessionKey: string): void;
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
  /** An event stream with no activity for this long ends. */
  idleMs: number;
  /** Streams one client address may hold open here. */
  perAddress: number;
  /** Streams this instance holds at most (default 10,000). */
  maxStreams?: number;
  now?: () => number;
}): Streams {
  const now = o.now ?? Date.now;
  const open = new StreamRegistry({
    perSession: STREAMS_PER_SESSION,
    perAddress: o.perAddress,
    max: o.maxStreams ?? MAX_STREAMS,
    evictableAfterMs: Math.min(EVICTABLE_AFTER_MS, o.idleMs),
  });

  const close = (s: OpenStream): void => {
    s.res.end();
    open.remove(s);
  };
  const send = (s: OpenStream, message: unknown): void => {
    if (s.res.writableEnded) return;
    s.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    open.touch(s, now());
  };

  const keepAlive = setInterval(() => {
    const at = now();
    for (const s of [...open.all()]) {
      if (s.claims.expiresAtMs <= at) close(s);
      else if (!s.res.writableEnded) s.res.write(': keep-alive\n\n');
    }
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  // Idle streams end within a quarter of the idle time after it passed (keep-alives do not count).
  const idleSweep = setInterval(
    () => {
      for (const s of open.idleSince(now() - o.idleMs)) close(s);
    },
    Math.min(15_000, Math.max(50, o.idleMs / 4)),
  );
  idleSweep.unref();

  /** The URI of each document path. */
  const uriOf = new Map<string, string>(DOCUMENT_IDS.map((id) => [DOCUMENTS[id].path, o.urls[id]]));

  return {
    open(res, claims, address, headers) {
      const admission = open.admit(claims.key, address, now());
      if (!admission.ok) {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: admission.message },
        });
        res.writeHead(429, {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'Retry-After': String(admission.retryAfterSeconds),
        });
        res.end(body);
        return;
      }
      if (admission.evict) close(admission.evict);
      const stream: OpenStream = { res, claims, address };
      open.add(stream, now());
      res.writeHead(200, {
        ...headers,
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
      });
      res.flushHeaders();
      res.on('close', () => open.remove(stream));
    },
    touch(sessionKey) {
      open.touchSession(sessionKey, now());
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
      for (const [key, set] of open.bySession) {
        // A session deleted on another instance: its streams here end instead of hearing more.
        if (await o.sessions.isEnded(key).catch(() => false)) {
          for (const s of [...set]) close(s);
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
        const streams = open.bySession.get(key) ?? new Set<OpenStream>();
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
      for (const s of [...(open.bySession.get(sessionKey) ?? [])]) close(s);
    },
    closeAll() {
      clearInterval(keepAlive);
      clearInterval(idleSweep);
      for (const s of open.all()) s.res.end();
      open.clear();
    },
    get size() {
      return open.size;
    },
  };
}
