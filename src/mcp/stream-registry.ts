import type { ServerResponse } from 'node:http';
import type { SessionClaims } from './sessions.js';

/** An open event stream (`GET /mcp`) of a session, from a client address. */
export interface OpenStream {
  res: ServerResponse;
  claims: SessionClaims;
  /** The client's rate-limit key (its address, an IPv6 address by its /64). */
  address: string;
}

/** How many streams an instance holds, and when one may make room for another. */
export interface StreamLimits {
  perSession: number;
  perAddress: number;
  max: number;
  /** When the instance is full, a stream with no activity for this long is closed for a new one. */
  evictableAfterMs: number;
}

/** Whether a new stream may open: perhaps after closing the least recently active one. */
export type Admission =
  | { ok: true; evict: OpenStream | null }
  | { ok: false; message: string; retryAfterSeconds: number };

/**
 * The bookkeeping of the open event streams of an instance: by session, by client address, and
 * by last activity (least recently active first), so that the bounds are checked in constant
 * time, a full instance makes room by closing its longest idle stream, and idle streams are found
 * without looking at the others.
 */
export class StreamRegistry {
  readonly bySession = new Map<string, Set<OpenStream>>();
  private readonly byAddress = new Map<string, number>();
  /** Each stream with the time of its last activity; re-inserted on activity, so oldest first. */
  private readonly lastActive = new Map<OpenStream, number>();

  constructor(private readonly limits: StreamLimits) {}

  get size(): number {
    return this.lastActive.size;
  }

  /** Whether a stream of this session from this address may open now. */
  admit(sessionKey: string, address: string, now: number): Admission {
    const { perSession, perAddress, max, evictableAfterMs } = this.limits;
    if ((this.bySession.get(sessionKey)?.size ?? 0) >= perSession) {
      return refuse(
        `Too many event streams for this session (at most ${perSession}): close one first`,
        30,
      );
    }
    if ((this.byAddress.get(address) ?? 0) >= perAddress) {
      return refuse(
        `Too many event streams from this address (at most ${perAddress}): close one first`,
        30,
      );
    }
    if (this.size < max) return { ok: true, evict: null };
    const [oldest, at] = this.lastActive.entries().next().value!;
    const idleFor = now - at;
    if (idleFor >= evictableAfterMs) return { ok: true, evict: oldest };
    return refuse(
      'Too many event streams open on this server; try again later',
      Math.ceil((evictableAfterMs - idleFor) / 1000),
    );
  }

  add(stream: OpenStream, now: number): void {
    const set = this.bySession.get(stream.claims.key) ?? new Set<OpenStream>();
    set.add(stream);
    this.bySession.set(stream.claims.key, set);
    this.byAddress.set(stream.address, (this.byAddress.get(stream.address) ?? 0) + 1);
    this.lastActive.set(stream, now);
  }

  /** Forgets a stream (closed by either side); false when it was already forgotten. */
  remove(stream: OpenStream): boolean {
    if (!this.lastActive.delete(stream)) return false;
    const set = this.bySession.get(stream.claims.key);
    set?.delete(stream);
    if (set?.size === 0) this.bySession.delete(stream.claims.key);
    const left = (this.byAddress.get(stream.address) ?? 1) - 1;
    if (left > 0) this.byAddress.set(stream.address, left);
    else this.byAddress.delete(stream.address);
    return true;
  }

  /** Records activity on a stream (an event sent on it). */
  touch(stream: OpenStream, now: number): void {
    if (this.lastActive.delete(stream)) this.lastActive.set(stream, now);
  }

  /** Records activity of a session (a request it made): each of its streams here is active. */
  touchSession(sessionKey: string, now: number): void {
    for (const s of this.bySession.get(sessionKey) ?? []) this.touch(s, now);
  }

  /** The streams whose last activity is before `before`, least recently active first. */
  idleSince(before: number): OpenStream[] {
    const idle: OpenStream[] = [];
    for (const [s, at] of this.lastActive) {
      if (at >= before) break;
      idle.push(s);
    }
    return idle;
  }

  all(): IterableIterator<OpenStream> {
    return this.lastActive.keys();
  }

  clear(): void {
    this.bySession.clear();
    this.byAddress.clear();
    this.lastActive.clear();
  }
}

function refuse(message: string, retryAfterSeconds: number): Admission {
  return { ok: false, message, retryAfterSeconds: Math.max(1, retryAfterSeconds) };
}
