/** Shared secrets and ended MCP sessions: what lets several instances agree on sessions. */
export interface SessionStore {
  /**
   * The secret named `name`: the first call stores `candidate`, and every later call (on any
   * instance) returns what was stored.
   */
  secret(name: string, candidate: string): Promise<string>;
  /** True when the session with this key was ended (DELETE) on any instance. */
  isEnded(sessionKey: string): Promise<boolean>;
  /** Records the end of a session, kept until it would have expired anyway. */
  end(sessionKey: string, expiresAtMs: number): Promise<void>;
  /** Forgets ended sessions, and subscriptions, whose expiry has passed; returns how many. */
  purgeEnded(nowMs: number): Promise<number>;
  /** Records that a session subscribed to a resource, until the session's expiry. */
  subscribe(sessionKey: string, uri: string, expiresAtMs: number): Promise<void>;
  unsubscribe(sessionKey: string, uri: string): Promise<void>;
  /** The resources a session subscribed to (empty once it ended or expired). */
  subscriptions(sessionKey: string, nowMs: number): Promise<string[]>;
  /** Records the log level a session asked for (`logging/setLevel`), until its expiry. */
  setLogLevel(sessionKey: string, level: string, expiresAtMs: number): Promise<void>;
  /** The log level a session asked for, or `null` (never set, ended or expired). */
  logLevel(sessionKey: string, nowMs: number): Promise<string | null>;
}
