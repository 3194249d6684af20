import { z } from 'zod';
import { hubFormSchema } from './form.js';
import { HUB_PATH } from '../catalogue.js';

const text = (description: string) => ({
  description,
  content: { 'text/plain': { schema: { type: 'string' } } },
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
          '400': text('Invalid form; one line per problem.'),
          '403': text('The callback host is not allowed, or has too many subscriptions.'),
          '413': text('The body is too large.'),
          '415': text('The body is not form-encoded UTF-8.'),
          '429': {
            ...text('Too many requests from this address.'),
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
          },
          '503': {
            ...text(
              'The store is busy (another process holds its write lock); nothing was queued.',
            ),
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
          },
        },
      },
    },
  };
}
