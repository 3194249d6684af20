import type { Logger } from '../logger.js';
import type { ChangeEvent } from '../snapshot/types.js';
import type { SessionStore } from '../store/index.js';
import type { OpenStream, StreamRegistry } from './stream-registry.js';

/**
 * What a new data version means for the sessions whose event streams are open here: each stream
 * of a session that subscribed to a changed document hears `notifications/resources/updated`;
 * every stream hears `notifications/resources/list_changed` when the list of documents changed;
 * a session whose log level lets `info` through hears the news as a log message. A session ended
 * on another instance has its streams here closed instead.
 */

/** The RFC 5424 levels of MCP logging, least severe first. */
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** What one change tells every stream. */
export interface ChangeNotice {
  listChanged: boolean;
  /** The URIs of the documents that changed. */
  changed: string[];
  /** The news as a `notifications/message` at `info`. */
  log: unknown;
}

/** What a change means, or null when it changes no document and not the list of them. */
export function noticeOf(
  event: ChangeEvent,
  previous: ReadonlySet<string>,
  uriOf: ReadonlyMap<string, string>,
): ChangeNotice | null {
  const current = new Set(event.snapshot.representations.keys());
  const listChanged = previous.size !== current.size || [...current].some((p) => !previous.has(p));
  const changed = event.changed.map((p) => uriOf.get(p)).filter((u): u is string => !!u);
  if (!listChanged && changed.length === 0) return null;
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
  return { listChanged, changed, log };
}

/** How the notices reach the streams of this instance. */
export interface NoticeDelivery {
  open: StreamRegistry;
  sessions: SessionStore;
  logger: Logger;
  now: () => number;
  send(stream: OpenStream, message: unknown): void;
  close(stream: OpenStream): void;
}

/** Tells the streams of one session what a change means for it. */
async function notifySession(
  d: NoticeDelivery,
  key: string,
  set: ReadonlySet<OpenStream>,
  notice: ChangeNotice,
): Promise<void> {
  // A session deleted on another instance: its streams here end instead of hearing more.
  if (await d.sessions.isEnded(key).catch(() => false)) {
    for (const s of [...set]) d.close(s);
    return;
  }
  if (notice.listChanged) {
    for (const s of set)
      d.send(s, { jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
  }
  if (notice.changed.length === 0) return;
  let subscribed: string[];
  let level: string | null;
  try {
    [subscribed, level] = await Promise.all([
      d.sessions.subscriptions(key, d.now()),
      d.sessions.logLevel(key, d.now()),
    ]);
  } catch (err) {
    d.logger.warn({ err }, 'could not read the MCP subscriptions of a session');
    return;
  }
  const streams = d.open.bySession.get(key) ?? new Set<OpenStream>();
  for (const uri of notice.changed) {
    if (!subscribed.includes(uri)) continue;
    for (const s of streams) {
      d.send(s, { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
    }
  }
  if (LEVELS.indexOf(level ?? 'info') <= LEVELS.indexOf('info')) {
    for (const s of streams) d.send(s, notice.log);
  }
}

/** Tells every session with a stream here what a change means for it, one session at a time. */
export async function deliverNotice(d: NoticeDelivery, notice: ChangeNotice): Promise<void> {
  for (const [key, set] of d.open.bySession) await notifySession(d, key, set, notice);
}
