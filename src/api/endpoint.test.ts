import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isServiceError } from '../platform/errors.js';
import { DOCUMENT_IDS, DOCUMENTS, OPENAPI_PATH } from '../catalogue.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { defineEndpoint, endpointRoutes, routePath } from './endpoint.js';
import { API_ENDPOINTS } from './endpoints.js';

const req = {} as IncomingMessage;
const res = {} as ServerResponse;

describe('endpoint declarations', () => {
  it('give the router an exact path, or a prefix and its one parameter', () => {
    expect(routePath('/healthz')).toEqual({ path: '/healthz' });
    expect(routePath('/api/reviews/since/{date}')).toEqual({
      path: '/api/reviews/since/',
      param: 'date',
    });
  });

  it('declare GET only: HEAD is the GET handler, by the dispatcher', () => {
    const routes = endpointRoutes(API_ENDPOINTS, {} as never);
    expect(routes.map((r) => r.path)).toEqual([
      ...DOCUMENT_IDS.map((id) => DOCUMENTS[id].path),
      '/api/reviews/search',
      '/api/reviews/since/',
      '/api/reviews/changes',
      OPENAPI_PATH,
      '/healthz',
    ]);
    for (const route of routes) expect(Object.keys(route.methods)).toEqual(['GET']);
  });

  it('read numbers from the query schema and validate path and query in one 400', () => {
    const seen: unknown[] = [];
    const endpoint = defineEndpoint<null, z.ZodObject<{ n: z.ZodOptional<z.ZodNumber> }>>({
      method: 'GET',
      path: '/things/{day}',
      summary: 'Things.',
      params: { day: z.string().regex(/^\d+$/) },
      query: z.strictObject({ n: z.number().int().optional() }),
      responses: { '200': { description: 'Things.' } },
      handle: (_api, _req, _res, input) => void seen.push(input),
    });
    const [route] = endpointRoutes([endpoint], null);
    void route!.methods.GET!(req, res, { path: '/things/1', query: 'n=2', params: { day: '1' } });
    expect(seen).toEqual([{ query: { n: 2 }, params: { day: '1' }, rawQuery: 'n=2' }]);
    let thrown: unknown;
    try {
      void route!.methods.GET!(req, res, {
        path: '/things/x',
        query: 'n=a&m=1',
        params: { day: 'x' },
      });
    } catch (err) {
      thrown = err;
    }
    expect(isServiceError(thrown, 'invalid_request')).toBe(true);
    expect((thrown as { issues: { path: unknown[] }[] }).issues.map((i) => i.path)).toEqual([
      ['day'],
      ['n'],
      ['m'],
    ]);
  });

  it('are the paths of the OpenAPI document, the document itself left out', () => {
    const doc = buildOpenApiDocument('https://reviews.example.com') as {
      paths: Record<string, { get: { parameters?: { name: string; in: string }[] } }>;
    };
    expect(Object.keys(doc.paths)).toEqual([
      ...DOCUMENT_IDS.map((id) => DOCUMENTS[id].path),
      '/api/reviews/search',
      '/api/reviews/since/{date}',
      '/api/reviews/changes',
      '/healthz',
    ]);
    const since = doc.paths['/api/reviews/since/{date}']!.get.parameters!;
    expect(since.map((p) => `${p.in}:${p.name}`)).toEqual([
      'path:date',
      'query:limit',
      'query:cursor',
      'header:If-None-Match',
      'header:If-Modified-Since',
    ]);
    expect(doc.paths['/healthz']!.get.parameters).toBeUndefined();
  });
});
