/** The PostgreSQL engine of the MCP sessions' shared state. */
import type { PgDb } from '../internal/postgres-db.js';
import type { SessionStore } from './types.js';

export function createPostgresSessionStore(db: PgDb): SessionStore {
  return {
    async secret(name, candidate) {
      // Two statements: the read sees a secret another instance committed meanwhile.
      await db.query(
        `INSERT INTO service_secrets (name, value, created_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO NOTHING`,
        [name, candidate],
      );
      const { rows } = await db.query<{ value: string }>(
        'SELECT value FROM service_secrets WHERE name = $1',
        [name],
      );
      return rows[0]!.value;
    },
    async isEnded(sessionKey) {
      const { rowCount } = await db.query(
        'SELECT 1 FROM mcp_ended_sessions WHERE session_key = $1',
        [sessionKey],
      );
      return rowCount !== 0;
    },
    async end(sessionKey, expiresAtMs) {
      await db.query(
        `INSERT INTO mcp_ended_sessions (session_key, expires_at) VALUES ($1, $2)
         ON CONFLICT (session_key) DO UPDATE SET expires_at = excluded.expires_at`,
        [sessionKey, expiresAtMs],
      );
    },
    async purgeEnded(nowMs) {
      let purged = 0;
      for (const table of ['mcp_ended_sessions', 'mcp_subscriptions', 'mcp_log_levels']) {
        const { rowCount } = await db.query(`DELETE FROM ${table} WHERE expires_at < $1`, [nowMs]);
        purged += rowCount ?? 0;
      }
      return purged;
    },
    async subscribe(sessionKey, uri, expiresAtMs) {
      await db.query(
        `INSERT INTO mcp_subscriptions (session_key, uri, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (session_key, uri) DO UPDATE SET expires_at = excluded.expires_at`,
        [sessionKey, uri, expiresAtMs],
      );
    },
    async unsubscribe(sessionKey, uri) {
      await db.query('DELETE FROM mcp_subscriptions WHERE session_key = $1 AND uri = $2', [
        sessionKey,
        uri,
      ]);
    },
    async subscriptions(sessionKey, nowMs) {
      const { rows } = await db.query<{ uri: string }>(
        `SELECT uri FROM mcp_subscriptions WHERE session_key = $1 AND expires_at >= $2
         AND NOT EXISTS (SELECT 1 FROM mcp_ended_sessions e WHERE e.session_key = $1)
         ORDER BY uri COLLATE "C"`,
        [sessionKey, nowMs],
      );
      return rows.map((r) => r.uri);
    },
    async setLogLevel(sessionKey, level, expiresAtMs) {
      await db.query(
        `INSERT INTO mcp_log_levels (session_key, level, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (session_key) DO UPDATE SET level = excluded.level, expires_at = excluded.expires_at`,
        [sessionKey, level, expiresAtMs],
      );
    },
    async logLevel(sessionKey, nowMs) {
      const { rows } = await db.query<{ level: string }>(
        `SELECT level FROM mcp_log_levels WHERE session_key = $1 AND expires_at >= $2
         AND NOT EXISTS (SELECT 1 FROM mcp_ended_sessions e WHERE e.session_key = $1)`,
        [sessionKey, nowMs],
      );
      return rows[0]?.level ?? null;
    },
  };
}
