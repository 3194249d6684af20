import { isStoreBusy, isStoreUnavailable } from '../../store/index.js';
import { invalidParams, resourceNotFound, storeUnavailable } from '../internal/errors.js';
import { documentResources, readResource, REVIEW_TEMPLATE } from '../resources.js';
import type { SessionClaims } from '../sessions.js';
import { answering, type HandlerFamily, type HandlerRequest, type McpDeps } from './family.js';

/**
 * The resources family: `resources/list` (the published documents), `resources/templates/list`
 * (one review), `resources/read`, and what a session keeps in the store: its subscriptions
 * (`resources/subscribe`, `resources/unsubscribe`) and its log level (`logging/setLevel`), read
 * by whichever instance holds its event stream.
 */

const TEMPLATES = {
  resourceTemplates: [
    {
      uriTemplate: REVIEW_TEMPLATE,
      name: 'review',
      title: 'One review',
      description: 'One review by id, as JSON.',
      mimeType: 'application/json',
    },
  ],
};

/** A session's write to the store; a store that cannot take it now is -32000, not -32603. */
async function write(change: Promise<void>): Promise<Record<string, never>> {
  try {
    await change;
    return {};
  } catch (err) {
    if (isStoreUnavailable(err)) throw storeUnavailable(isStoreBusy(err) ? 2 : 5);
    throw err;
  }
}

/** A subscription names a document of the catalogue and lives as long as its session. */
function subscriber(
  deps: McpDeps,
  { snapshot, session }: HandlerRequest,
  uri: string,
): SessionClaims {
  if (!documentResources(deps.urls, snapshot).some((r) => r.uri === uri)) {
    throw resourceNotFound(uri);
  }
  if (!session) throw invalidParams('Subscriptions need a session');
  return session;
}

/** The handlers of what a session keeps: its log level and subscriptions. */
function registerSessionState(deps: McpDeps): HandlerFamily {
  return (server, request) => {
    const { session } = request;
    // The level is kept with the session (in the store), for whichever instance holds its stream.
    server.setRequestHandler(
      'logging/setLevel',
      answering((r) =>
        session
          ? write(deps.sessions.setLogLevel(session.key, r.params.level, session.expiresAtMs))
          : {},
      ),
    );
    server.setRequestHandler(
      'resources/subscribe',
      answering((r) => {
        const claims = subscriber(deps, request, r.params.uri);
        return write(deps.sessions.subscribe(claims.key, r.params.uri, claims.expiresAtMs));
      }),
    );
    server.setRequestHandler(
      'resources/unsubscribe',
      answering((r) => {
        const claims = subscriber(deps, request, r.params.uri);
        return write(deps.sessions.unsubscribe(claims.key, r.params.uri));
      }),
    );
  };
}

export function createResourceHandlers(deps: McpDeps): HandlerFamily {
  const sessionState = registerSessionState(deps);
  return (server, request) => {
    const { snapshot } = request;
    server.setRequestHandler(
      'resources/list',
      answering(() => ({
        resources: documentResources(deps.urls, snapshot).map(({ path: _path, ...r }) => r),
      })),
    );
    server.setRequestHandler(
      'resources/templates/list',
      answering(() => TEMPLATES),
    );
    server.setRequestHandler(
      'resources/read',
      answering((r) => ({ contents: [readResource(r.params.uri, deps.urls, snapshot)] })),
    );
    sessionState(server, request);
  };
}
