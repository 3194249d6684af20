import { z } from 'zod';
import { hubFormSchema } from './form.js';
import { HUB_PATH } from '../catalogue.js';

const text = (description: string) => ({
  description,
  content: { 'text/plain': { schema: { type: 'string' } } },
});

/** A refusal: the service's JSON error (`#/components/schemas/Error`). */
const refusal = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/**
 * The OpenAPI description of `POST /api/websub/hub`, its form generated from the same zod schema
 * that validates it.
 */
export function hubOpenApiPaths(topics: readonly [string, ...string[]]): Record<string, unknown> {
  const schema = z.toJSONSchema(hubFormSchema(topics), { io: 'input', unrepresentable: 'any' });
  delete (schema as Record<string, unknown>).$schema;
  return {
    [HUB_PATH]: {
      post: {
        summary:
          'WebSub hub: subscribe to or unsubscribe from a topic. Verification of intent follows asynchronously (a GET to the callback); see docs/websub.md.',
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema } },
        },
        responses: {
          '202': text('Accepted; the hub will verify the request with the callback.'),
          '400': refusal(
            'Invalid form; `issues` names each bad field (a value whose percent-encoded bytes are not UTF-8 included).',
          ),
          '403': refusal('The callback host is not allowed, or has too many subscriptions.'),
          '413': refusal('The body is too large.'),
          '415': refusal('The body is not form-encoded UTF-8.'),
          '429': {
            ...refusal('Too many requests from this address.'),
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
          },
          '503': {
            ...refusal(
              "Nothing was queued: `store_busy` (another process holds the store's write lock; Retry-After: 2) or `store_unavailable` (the database server cannot be reached; Retry-After: 5).",
            ),
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
          },
        },
      },
    },
  };
}
