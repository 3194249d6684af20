import type { ServerResponse } from 'node:http';
import { DOCUMENT_IDS, DOCUMENTS, type ServiceUrls } from '../catalogue.js';
import type { Logger } from '../logger.js';
import type { ChangeEvent } from '../snapshot/types.js';
import { toRpcError } from '../platform/errors.js';
import type { SessionStore } from '../store/index.js';
import { refused } from './internal/errors.js';
import type { SessionClaims } from './sessions.js';
import {
  deliverNotice,
  noticeOf,
  type ChangeNotice,
  type NoticeDelivery,
} from './stream-notices.js';
import { StreamRegistry, type Admission, type OpenStream } from './stream-registry.js';

/** A comment line every 25 s keeps proxies and clients from closing an idle stream. */
export const KEEP_ALIVE_MS = 25_000;
/** Open streams per session on one instance, at most (a client needs one). */
const STREAMS_PER_SESSION = 4;
/** Open streams on one instance, at most; beyond, the longest idle one makes room. */
export const MAX_STREAMS = 10_000;
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
  /** Also tells `listener` what each change means (the 2026-07-28 `subscriptions/listen` streams). */
  onNotice(listener: (notice: ChangeNotice) => void): void;
  /** Ends the streams of a session (DELETE on this instance). */
  end(sessionKey: string): void;
  /** Ends every stream (shutdown), and calls what `onCloseAll` registered. */
  closeAll(): void;
  /** Also ends, at shutdown, the streams `close` ends (the `subscriptions/listen` ones). */
  onCloseAll(close: () => void): void;
  readonly size: number;
  /** Streams one client address may hold open here. */
  readonly perAddress: number;
}

export interface StreamsOptions {
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
}

/**
 * The 429 of a stream beyond the bounds: a JSON-RPC error (-32000) answering no request, with
 * `Retry-After`.
 */
function refuseStream(
  res: ServerResponse,
  refusal: Extract<Admission, { ok: false }>,
  headers: Record<string, string>,
): void {
  const error = refused('too_many_streams', 429, refusal.message);
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: toRpcError(error) });
  res.writeHead(429, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': String(refusal.retryAfterSeconds),
  });
  res.end(body);
}

/**
 * The timers of the streams: a keep-alive comment on each (closing those whose session expired),
 * and the sweep of idle streams, which end within a quarter of the idle time after it passed
 * (keep-alives do not count). Returns what stops them.
 */
function startTimers(d: NoticeDelivery, idleMs: number): () => void {
  const keepAlive = setInterval(() => {
    const at = d.now();
    for (const s of [...d.open.all()]) {
      if (s.claims.expiresAtMs <= at) d.close(s);
      else if (!s.res.writableEnded) s.res.write(': keep-alive\n\n');
    }
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  const idleSweep = setInterval(
    () => {
      for (const s of d.open.idleSince(d.now() - idleMs)) d.close(s);
    },
    Math.min(15_000, Math.max(50, idleMs / 4)),
  );
  idleSweep.unref();
  return () => {
    clearInterval(keepAlive);
    clearInterval(idleSweep);
  };
}

/** Opens a stream once admitted (perhaps closing the longest idle one to make room). */
function openStream(
  d: NoticeDelivery,
  res: ServerResponse,
  stream: OpenStream,
  headers: Record<string, string>,
): void {
  const admission = d.open.admit(stream.claims.key, stream.address, d.now());
  if (!admission.ok) return refuseStream(res, admission, headers);
  if (admission.evict) d.close(admission.evict);
  d.open.add(stream, d.now());
  res.writeHead(200, {
    ...headers,
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  res.on('close', () => d.open.remove(stream));
}

export function createStreams(o: StreamsOptions): Streams {
  const now = o.now ?? Date.now;
  const open = new StreamRegistry({
    perSession: STREAMS_PER_SESSION,
    perAddress: o.perAddress,
    max: o.maxStreams ?? MAX_STREAMS,
    evictableAfterMs: Math.min(EVICTABLE_AFTER_MS, o.idleMs),
  });
  const d: NoticeDelivery = {
    open,
    sessions: o.sessions,
    logger: o.logger,
    now,
    close(s) {
      s.res.end();
      open.remove(s);
    },
    send(s, message) {
      if (s.res.writableEnded) return;
      s.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
      open.touch(s, now());
    },
  };
  const stopTimers = startTimers(d, o.idleMs);
  /** The URI of each document path. */
  const uriOf = new Map<string, string>(DOCUMENT_IDS.map((id) => [DOCUMENTS[id].path, o.urls[id]]));
  const listeners: ((notice: ChangeNotice) => void)[] = [];
  const closers: (() => void)[] = [];
  return {
    open(res, claims, address, headers) {
      openStream(d, res, { res, claims, address }, headers);
    },
    touch(sessionKey) {
      open.touchSession(sessionKey, now());
    },
    async notify(event, previous) {
      const notice = noticeOf(event, previous, uriOf);
      if (!notice) return;
      for (const listener of listeners) listener(notice);
      await deliverNotice(d, notice);
    },
    onNotice(listener) {
      listeners.push(listener);
    },
    end(sessionKey) {
      for (const s of [...(open.bySession.get(sessionKey) ?? [])]) d.close(s);
    },
    closeAll() {
      stopTimers();
      for (const s of open.all()) s.res.end();
      open.clear();
      for (const close of closers) close();
    },
    onCloseAll(close) {
      closers.push(close);
    },
    get size() {
      return open.size;
    },
    perAddress: o.perAddress,
  };
}
