/**
 * The OpenAPI 3.1 document of the service: the read API's paths derived from its endpoint
 * declarations (src/api/endpoints.ts), the paths other surfaces describe (the hub's), and the
 * named schemas.
 */
import { API_ENDPOINTS, API_SCHEMAS } from '../api/endpoints.js';
import { endpointPaths, schemaOf } from './operation.js';

/**
 * Builds the OpenAPI 3.1 document from the same declarations and zod schemas that route and
 * validate requests and describe responses, so the documentation cannot drift from the behaviour.
 */
export function buildOpenApiDocument(
  baseUrl: string,
  extraPaths: Record<string, unknown> = {},
): unknown {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Customer reviews',
      version: '1.0.0',
      description:
        'Read-only verified customer reviews of one business, with feeds, an MCP server and a WebSub hub. No authentication; an Authorization header is ignored.',
    },
    servers: [{ url: baseUrl }],
    paths: { ...endpointPaths(API_ENDPOINTS), ...extraPaths },
    components: {
      schemas: Object.fromEntries(
        Object.entries(API_SCHEMAS).map(([name, schema]) => [name, schemaOf(schema)]),
      ),
    },
  };
}
