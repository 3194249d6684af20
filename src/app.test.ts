import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import type { Route } from './http/router.js';
import { ServiceError } from './platform/errors.js';

let server: Server;
let base: string;

const teapot = () => new ServiceError('teapot', 'I am a teapot.', { status: 418 });

beforeAll(async () => {
  const routes: Route[] = [
    { path: '/json', methods: { GET: () => Promise.reject(teapot()) } },
    {
      path: '/text',
      methods: {
        GET: () => {
          throw teapot();
        },
      },
      renderError: (_req, res, err) => {
        res.writeHead(err.status, { 'Content-Type': 'text/plain' });
        res.end(`${err.code}: ${err.message}`);
      },
    },
  ];
  server = createServer(createApp({ routes, logger: pino({ level: 'silent' }) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the error boundary', () => {
  it("renders a thrown ServiceError as the API's JSON by default", async () => {
    const res = await fetch(`${base}/json`);
    expect(res.status).toBe(418);
    expect(await res.json()).toEqual({ error: 'teapot', message: 'I am a teapot.' });
  });

  it("renders every error on a route with the route's own renderer, 405 included", async () => {
    const thrown = await fetch(`${base}/text`);
    expect([thrown.status, await thrown.text()]).toEqual([418, 'teapot: I am a teapot.']);
    const refused = await fetch(`${base}/text`, { method: 'POST' });
    expect(refused.status).toBe(405);
    expect(await refused.text()).toBe(
      'method_not_allowed: This method is not allowed on this path.',
    );
  });

  it('answers a path no route knows with the JSON 404', async () => {
    const res = await fetch(`${base}/nope`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe('not_found');
  });
});
