import type { Issue } from '../domain/issues.js';

export type { Issue };

/**
 * A client fault with a public message. The error boundary renders it as JSON
 * `{ error, message, issues? }`; the message never echoes user input.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** The 400 of every invalid query or path parameter. */
export function invalidRequest(issues: Issue[]): HttpError {
  return new HttpError(400, 'invalid_request', 'The request has invalid parameters.', issues);
}
