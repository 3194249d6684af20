import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { SessionClaims } from './sessions.js';

/**
 * The MCP protocol revisions the endpoint speaks, and what differs between them. Code never
 * compares version strings itself: it asks a request's `Revision`. A revision that changes only
 * a rule (batching, how tool input errors are answered) is a new line here; one that changes the
 * request's life (2026-07-28: stateless requests, `server/discover`, `subscriptions/listen`) adds
 * its own gate (`endpoint/session-gate.ts` is the one of the session-based revisions) and its own
 * handler family (`handlers/`), chosen from the revision, without edits to the others.
 */
export interface Revision {
  /** The protocol version string (`2025-11-25`). */
  readonly version: string;
  /** JSON-RPC batches are taken (they were dropped in 2025-06-18). */
  readonly batches: boolean;
  /**
   * A tool's input validation failure is a tool result with `isError: true` (SEP-1303, from
   * 2025-11-25), so the model sees why; before, a JSON-RPC -32602.
   */
  readonly toolInputErrorsAsResults: boolean;
  /** Stateless requests (2026-07-28): no session; served by `endpoint/stateless.ts`. */
  readonly stateless: boolean;
}

/**
 * The stateless revision (2026-07-28): no `initialize`, no session; each request carries its
 * version in `_meta`. Its requests are served by the SDK's `createMcpHandler`
 * (`endpoint/stateless.ts`), never by the session gate.
 */
export const MODERN_VERSION = '2026-07-28';

/** First protocol version without JSON-RPC batching. */
const NO_BATCH_FROM = '2025-06-18';
/** First protocol version in which a tool's input validation failure is a tool result. */
const INPUT_ERRORS_AS_RESULTS_FROM = '2025-11-25';

/** What one request's server is built for. */
export interface RequestInfo {
  protocolVersion: string;
  /** The request's session; `null` for `initialize`. */
  session: SessionClaims | null;
}

/** The rules of a protocol version (one the service negotiated or signed into a session). */
export function revisionOf(version: string): Revision {
  return {
    version,
    batches: version < NO_BATCH_FROM,
    toolInputErrorsAsResults: version >= INPUT_ERRORS_AS_RESULTS_FROM,
    stateless: version >= MODERN_VERSION,
  };
}

/** Whether an `MCP-Protocol-Version` header names a version the endpoint speaks. */
export function isSupportedVersion(version: string): boolean {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/** The version `initialize` settles on: the one asked for when supported, else the latest. */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === 'string' && isSupportedVersion(requested)
    ? requested
    : LATEST_PROTOCOL_VERSION;
}
