import { z } from 'zod';
import { Insights } from './schema.js';

/** The OpenAPI entry of `GET /insights.json`, from the same schema that types the document. */
export function insightsOpenApiPaths(): Record<string, unknown> {
  const schema = z.toJSONSchema(Insights, { io: 'output', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  return {
    '/insights.json': {
      get: {
        summary:
          'Aspect-based sentiment insights: aspects with trends and evidence, staff, services, service areas, recurring topics, FAQ, significant changes, summary, owner responses and the method with its benchmark scores.',
        parameters: [
          { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
          { name: 'If-Modified-Since', in: 'header', required: false, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The insights document.',
            content: { 'application/json': { schema } },
          },
          '304': { description: 'Not modified (empty body).' },
        },
      },
    },
  };
}
