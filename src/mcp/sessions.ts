import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SessionStore } from '../store/index.js';

/** What a session id carries: the negotiated protocol version and the expiry. */
export interface SessionClaims {
  /** Random part; the key under which an ended session is recorded. */
  key: string;
  protocolVersion: string;
  expiresAtMs: number;
}

export type SessionCheck =
  { ok: true; claims: SessionClaims } | { ok: false; status: 400 | 404; message: string };

/** Issues and checks MCP session ids that any instance sharing the store can verify. */
export interface SessionManager {
  issue(protocolVersion: string): SessionClaims & { id: string };
  check(id: string | undefined): Promise<SessionCheck>;
  end(claims: SessionClaims): Promise<void>;
}

const SECRET_NAME = 'mcp-session-hmac';

function sign(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/**
 * Session ids are `payload.signature`: the payload (random key, protocol version, expiry) is
 * HMAC-signed with a secret shared through the store, so every instance can verify an id without
 * shared memory; ended sessions are recorded in the store, so a DELETE on one instance ends the
 * session on all. Nothing per session is kept in memory.
 */
export async function createSessionManager(
  store: SessionStore,
  options: { ttlSeconds: number; secret: string | null; now?: () => number },
): Promise<SessionManager> {
  const secret = Buffer.from(
    options.secret ?? (await store.secret(SECRET_NAME, randomBytes(32).toString('base64url'))),
  );
  const now = options.now ?? Date.now;
  // Ids whose signature was already verified (the signed part never changes); the expiry and the
  // ended-session record are still checked on every request.
  const verified = new Map<string, SessionClaims>();
  const remember = (id: string, claims: SessionClaims): void => {
    if (verified.size >= 10_000) verified.delete(verified.keys().next().value!);
    verified.set(id, claims);
  };
  return {
    issue(protocolVersion) {
      const claims: SessionClaims = {
        key: randomBytes(18).toString('base64url'),
        protocolVersion,
        expiresAtMs: now() + options.ttlSeconds * 1000,
      };
      const payload = Buffer.from(
        JSON.stringify([claims.key, claims.protocolVersion, claims.expiresAtMs]),
      ).toString('base64url');
      return { ...claims, id: `${payload}.${sign(secret, payload)}` };
    },
    async check(id) {
      if (!id)
        return {
          ok: false,
          status: 400,
          message: 'Bad Request: Mcp-Session-Id header is required',
        };
      const notFound = { ok: false, status: 404, message: 'Session not found' } as const;
      const known = verified.get(id);
      if (known) {
        if (known.expiresAtMs < now() || (await store.isEnded(known.key))) return notFound;
        return { ok: true, claims: known };
      }
      const [payload, signature, extra] = id.split('.');
      if (!payload || !signature || extra !== undefined || id.length > 512) return notFound;
      const expected = Buffer.from(sign(secret, payload));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return notFound;
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return notFound;
      }
      if (!Array.isArray(parsed) || parsed.length !== 3) return notFound;
      const [key, protocolVersion, expiresAtMs] = parsed as [string, string, number];
      if (typeof expiresAtMs !== 'number' || expiresAtMs < now()) return notFound;
      if (await store.isEnded(key)) return notFound;
      const claims = { key, protocolVersion, expiresAtMs };
      remember(id, claims);
      return { ok: true, claims };
    },
    async end(claims) {
      await store.end(claims.key, claims.expiresAtMs);
    },
  };
}
