/** The SQLite engine of the MCP sessions' shared state. */
import type Database from 'better-sqlite3';
import type { WriteRunner } from '../internal/sqlite-staged.js';
import type { SessionStore } from './types.js';

type Db = Database.Database;

/** What a request reads of its session: ended or not, its log level, its subscriptions. */
function sessionReads(reader: Db): Pick<SessionStore, 'isEnded' | 'logLevel' | 'subscriptions'> {
  const endedQuery = reader.prepare('SELECT 1 FROM mcp_ended_sessions WHERE session_key = ?');
  return {
    async isEnded(sessionKey) {
      return endedQuery.get(sessionKey) !== undefined;
    },
    async logLevel(sessionKey, nowMs) {
      const level = reader
        .prepare(
          `SELECT level FROM mcp_log_levels WHERE session_key = ? AND expires_at >= ?
         AND session_key NOT IN (SELECT session_key FROM mcp_ended_sessions)`,
        )
        .pluck()
        .get(sessionKey, nowMs) as string | undefined;
      return level ?? null;
    },
    async subscriptions(sessionKey, nowMs) {
      return reader
        .prepare(
          `SELECT uri FROM mcp_subscriptions WHERE session_key = ? AND expires_at >= ?
         AND session_key NOT IN (SELECT session_key FROM mcp_ended_sessions) ORDER BY uri`,
        )
        .pluck()
        .all(sessionKey, nowMs) as string[];
    },
  };
}

/**
 * Sessions on the store's connections: `write` for the service's own writes, `requestWrite` for
 * those made for a request (which wait less for the lock).
 */
export function createSqliteSessionStore(
  reader: Db,
  writer: Db,
  write: WriteRunner,
  requestWrite: WriteRunner,
): SessionStore {
  /** One statement, written for a request. */
  const run = (sql: string, ...params: unknown[]): Promise<void> =>
    requestWrite(() => {
      writer.prepare(sql).run(...params);
    });
  return {
    ...sessionReads(reader),
    secret(name, candidate) {
      return write(() => {
        writer
          .prepare(
            'INSERT OR IGNORE INTO service_secrets (name, value, created_at) VALUES (?, ?, ?)',
          )
          .run(name, candidate, new Date().toISOString());
        return writer
          .prepare('SELECT value FROM service_secrets WHERE name = ?')
          .pluck()
          .get(name) as string;
      });
    },
    end(sessionKey, expiresAtMs) {
      return run(
        'INSERT OR REPLACE INTO mcp_ended_sessions (session_key, expires_at) VALUES (?, ?)',
        sessionKey,
        expiresAtMs,
      );
    },
    purgeEnded(nowMs) {
      return write(
        () =>
          writer.prepare('DELETE FROM mcp_ended_sessions WHERE expires_at < ?').run(nowMs).changes +
          writer.prepare('DELETE FROM mcp_subscriptions WHERE expires_at < ?').run(nowMs).changes +
          writer.prepare('DELETE FROM mcp_log_levels WHERE expires_at < ?').run(nowMs).changes,
      );
    },
    subscribe(sessionKey, uri, expiresAtMs) {
      return run(
        'INSERT OR REPLACE INTO mcp_subscriptions (session_key, uri, expires_at) VALUES (?, ?, ?)',
        sessionKey,
        uri,
        expiresAtMs,
      );
    },
    unsubscribe(sessionKey, uri) {
      return run(
        'DELETE FROM mcp_subscriptions WHERE session_key = ? AND uri = ?',
        sessionKey,
        uri,
      );
    },
    setLogLevel(sessionKey, level, expiresAtMs) {
      return run(
        'INSERT OR REPLACE INTO mcp_log_levels (session_key, level, expires_at) VALUES (?, ?, ?)',
        sessionKey,
        level,
        expiresAtMs,
      );
    },
  };
}
