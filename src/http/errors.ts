/**
 * The HTTP layer's faults, as `ServiceError`s (src/platform/errors.ts): the codes, messages,
 * statuses and headers that the request path answers with. The error boundary (src/app.ts)
 * renders them by the route's surface.
 */
import { ServiceError, type Issue } from '../platform/errors.js';
import { isStoreBusy } from '../store/index.js';

/** The 400 of every invalid query or path parameter. */
export function invalidRequest(issues: readonly Issue[]): ServiceError {
  return new ServiceError('invalid_request', 'The request has invalid parameters.', { issues });
}

/** The 404 of a path no route knows. */
export function noSuchPath(): ServiceError {
  return new ServiceError('not_found', 'No such path. The API is described at /openapi.json.', {
    status: 404,
  });
}

/** The 405 of a method the path does not answer, with `Allow`. */
export function methodNotAllowed(allow: string): ServiceError {
  return new ServiceError('method_not_allowed', 'This method is not allowed on this path.', {
    status: 405,
    headers: { Allow: allow },
  });
}

/** The 412 of a conditional request whose preconditions failed. */
export function preconditionFailed(): ServiceError {
  return new ServiceError(
    'precondition_failed',
    'The representation does not match the request preconditions.',
    { status: 412 },
  );
}

/**
 * The 503 of a request that needed the store while it could not answer: its write lock held by
 * another process for too long (`store_busy`), or its database server away (`store_unavailable`).
 */
export function storeUnavailable(err: unknown): ServiceError {
  return isStoreBusy(err)
    ? new ServiceError(
        'store_busy',
        'Another process is writing to the store; try again in a moment.',
        { status: 503, headers: { 'Retry-After': '2' }, cause: err },
      )
    : new ServiceError(
        'store_unavailable',
        'The database cannot be reached right now; try again in a moment.',
        { status: 503, headers: { 'Retry-After': '5' }, cause: err },
      );
}

/** The generic 500 of anything that is not a `ServiceError`: it reveals nothing. */
export function internalError(cause: unknown): ServiceError {
  return new ServiceError('internal_error', 'Something went wrong on our side.', {
    status: 500,
    cause,
  });
}
