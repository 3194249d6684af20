import type { Server } from '@modelcontextprotocol/server';
import type { ServiceUrls } from '../../catalogue.js';
import type { Snapshot } from '../../snapshot/types.js';
import type { SessionStore } from '../../store/index.js';
import { forSdk } from '../internal/errors.js';
import type { McpObserver } from '../observer.js';
import type { Revision } from '../revisions.js';
import type { SessionClaims } from '../sessions.js';

/**
 * A handler family: the SDK request handlers of one part of the protocol (tools, resources and
 * subscriptions, prompts and completion). A family prepares what it can once (`createX(deps)`)
 * and registers its handlers on each request's server, over that request's snapshot, session and
 * protocol revision. A protocol revision with new methods adds a family.
 */
export type HandlerFamily = (server: Server, request: HandlerRequest) => void;

export interface McpDeps {
  urls: ServiceUrls;
  version: string;
  /** Where a session's subscriptions are kept (shared by every instance). */
  sessions: SessionStore;
  /** Told of each tool call and how it ended (the metrics). */
  observer?: McpObserver;
}

/** What one request's handlers run over. */
export interface HandlerRequest {
  snapshot: Snapshot;
  /** The request's session; `null` for `initialize`. */
  session: SessionClaims | null;
  revision: Revision;
}

/**
 * A request handler whose `ServiceError`s reach the client as their JSON-RPC errors (`forSdk`):
 * every handler of a family is registered through it.
 */
export function answering<A extends unknown[], R>(
  handler: (...args: A) => R,
): (...args: A) => Promise<Awaited<R>> {
  return async (...args: A): Promise<Awaited<R>> => {
    try {
      return await handler(...args);
    } catch (err) {
      throw forSdk(err);
    }
  };
}
