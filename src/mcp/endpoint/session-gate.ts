import type { IncomingMessage } from 'node:http';
import type { ClientAddress } from '../../http/client-address.js';
import { clientKey, type RateLimiter } from '../../http/rate-limit.js';
import { refused } from '../internal/errors.js';
import { isSupportedVersion, negotiatedVersion, type RequestInfo } from '../revisions.js';
import type { SessionClaims, SessionManager } from '../sessions.js';
import type { Streams } from '../streams.js';
import type { Message } from './read-request.js';

/**
 * The session gate of the session-based protocol revisions (2024-11-05 to 2025-11-25): which
 * session and protocol version a request runs under. `initialize` opens a session (so many per
 * minute per client address: 429); every other request names a valid one (400 without it, 404
 * unknown, expired or ended) and a supported `MCP-Protocol-Version` (400).
 */
export interface SessionGate {
  /** The session of a request that needs one; its event streams here count it as activity. */
  sessionOf(req: IncomingMessage): Promise<SessionClaims>;
  /** The protocol version and session of a request (negotiated by its `initialize`, if any). */
  infoOf(req: IncomingMessage, init: Message | undefined): Promise<RequestInfo>;
  /** Refuses an `initialize` beyond its client address's rate (429 with `Retry-After`). */
  limitInitialize(req: IncomingMessage): Promise<void>;
}

export function sessionGate(o: {
  sessions: SessionManager;
  streams: Streams;
  initializeLimiter: RateLimiter | undefined;
  clientAddress: ClientAddress;
}): SessionGate {
  const sessionOf = async (req: IncomingMessage): Promise<SessionClaims> => {
    const check = await o.sessions.check(req.headers['mcp-session-id'] as string | undefined);
    if (!check.ok) {
      throw refused(
        check.status === 404 ? 'session_not_found' : 'session_required',
        check.status,
        check.message,
        { rpcCode: check.status === 404 ? -32001 : -32000 },
      );
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !isSupportedVersion(version)) {
      throw refused(
        'unsupported_protocol_version',
        400,
        'Bad Request: Unsupported protocol version',
      );
    }
    o.streams.touch(check.claims.key);
    return check.claims;
  };
  return {
    sessionOf,
    async infoOf(req, init) {
      if (init) {
        return { protocolVersion: negotiatedVersion(init.params?.protocolVersion), session: null };
      }
      const claims = await sessionOf(req);
      return { protocolVersion: claims.protocolVersion, session: claims };
    },
    /** Sessions are cheap to open but not free: a client address opens so many per minute. */
    async limitInitialize(req) {
      if (!o.initializeLimiter) return;
      const decision = await o.initializeLimiter.take(clientKey(o.clientAddress(req)), Date.now());
      if (!decision.ok) {
        throw refused(
          'too_many_sessions',
          429,
          'Too many sessions opened from this address; try again later',
          { headers: { 'Retry-After': String(decision.retryAfterSeconds) } },
        );
      }
    },
  };
}
