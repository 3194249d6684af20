import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASPECT_IDS } from '../../src/domain/aspects.js';
import { startChildService, waitUntil } from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http, rawRequest } from '../helpers/http.js';
import { seedStore, startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(30) });
});
afterAll(() => svc.stop());

describe('unknown paths and wrong methods', () => {
  it.each(['/nope', '/reviews.json/', '/REVIEWS.JSON', '/api/reviews', '/api/reviews/search/x'])(
    '%s is a JSON 404',
    async (path) => {
      const res = await http(`${svc.url}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.json()).toMatchObject({ error: 'not_found' });
    },
  );

  it.each([
    ['POST', '/reviews.json'],
    ['PUT', '/api/feed.json'],
    ['DELETE', '/feed.xml'],
    ['PATCH', '/api/reviews/search'],
    ['POST', '/api/reviews/since/2024-01-01'],
  ])('%s %s is a JSON 405 with Allow', async (method, path) => {
    const res = await http(`${svc.url}${path}`, {
      method,
      body: '{"a":1}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.json()).toMatchObject({ error: 'method_not_allowed' });
  });

  it('answers a CORS preflight', async () => {
    const res = await http(`${svc.url}/reviews.json`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'if-none-match',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toMatch(/If-None-Match/);
  });
});

describe('odd input never gives a 5xx', () => {
  const targets = [
    '/api/reviews/search?query=%E0%A4%A',
    '/api/reviews/search?query=%ZZ',
    '/api/reviews/search?%=1',
    '/api/reviews/search?&&&',
    '/api/reviews/search?rating',
    `/api/reviews/search?query=${'%F0%9F%98%80'.repeat(40)}`,
    '/api/reviews/search?query=%F0%9F%98%80',
    '/api/reviews/search?mentions_technician=%00',
    '/api/reviews/search?since=0000-00-00',
    '/api/reviews/search?since=9999-12-31',
    '/api/reviews/search?__proto__=1',
    '/api/reviews/search?constructor=1',
    '/api/reviews/since/%',
    '/api/reviews/since/%C0%AF',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/api/reviews/since/../../reviews.json',
    `/api/reviews/search?query=${'a'.repeat(6000)}`,
  ];
  it.each(targets.map((t) => [t.slice(0, 80), t]))('%s', async (_name, target) => {
    const res = await http(`${svc.url}${target}`);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it('handles raw malformed requests with a JSON 4xx and no stack trace', async () => {
    const answers = await Promise.all([
      rawRequest(svc.url, 'GET /reviews.json HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
      rawRequest(svc.url, 'NOTAMETHOD / HTTP/1.1\r\nHost: x\r\n\r\n'),
      rawRequest(
        svc.url,
        `GET /reviews.json HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
      rawRequest(
        svc.url,
        'GET http://evil.example/reviews.json?x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      ),
      rawRequest(svc.url, 'GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ]);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 400/);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 4\d\d/);
    expect(answers[2]).toMatch(/^HTTP\/1\.1 431/);
    expect(answers[3]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers[4]).toMatch(/^HTTP\/1\.1 400/);
    for (const a of answers) expect(a).not.toMatch(/at .*\.(js|ts):\d+/);
  });
});

describe('issue 15: every response is JSON with CORS headers, errors included', () => {
  /** The status line, headers (lower-case names) and body of a raw HTTP/1.1 answer. */
  function parseRaw(raw: string): { status: number; headers: Map<string, string>; body: string } {
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const headers = new Map(
      lines.map((l) => [
        l.slice(0, l.indexOf(':')).toLowerCase(),
        l.slice(l.indexOf(':') + 1).trim(),
      ]),
    );
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }

  it('an HTTP/1.1 request without Host is a JSON 400 with CORS headers (HTTP/1.0 needs none)', async () => {
    const answer = parseRaw(
      await rawRequest(svc.url, 'GET /reviews.json HTTP/1.1\r\nConnection: close\r\n\r\n'),
    );
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'bad_request' });
    expect(answer.body).not.toMatch(/reviews\.json/);
    const old = parseRaw(await rawRequest(svc.url, 'GET /healthz HTTP/1.0\r\n\r\n'));
    expect(old.status).toBe(200);
  });

  it('every status the service answers carries Access-Control-Allow-Origin', async () => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const requests: [number, string, Parameters<typeof http>[1]][] = [
      [404, '/nope', {}],
      [405, '/reviews.json', { method: 'POST', body: '{}' }],
      [400, '/api/reviews/search?rating=9', {}],
      [400, '/api/reviews/since/2024-02-30', {}],
      [412, '/reviews.json', { headers: { 'If-Match': '"nope"' } }],
      [304, '/reviews.json', { headers: { 'If-None-Match': '*' } }],
      [204, '/api/feed.json', { method: 'OPTIONS' }],
      [
        415,
        '/api/websub/hub',
        { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } },
      ],
      [400, '/api/websub/hub', { method: 'POST', body: 'hub.mode=publish', headers: form }],
      [413, '/api/websub/hub', { method: 'POST', body: 'a'.repeat(9000), headers: form }],
    ];
    for (const [status, path, options] of requests) {
      const res = await http(`${svc.url}${path}`, {
        ...options,
        headers: { Origin: 'https://app.example', ...options?.headers },
      });
      expect(res.status, path).toBe(status);
      expect(res.headers['access-control-allow-origin'], `${status} ${path}`).toBe('*');
      expect(res.headers['access-control-expose-headers'], path).toContain('ETag');
    }
    const rejected: [number, string][] = [
      [400, 'GET /reviews.json HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'],
      [431, `GET /reviews.json HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ];
    for (const [status, raw] of rejected) {
      const answer = parseRaw(await rawRequest(svc.url, raw));
      expect(answer.status).toBe(status);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.headers.get('access-control-allow-origin'), String(status)).toBe('*');
    }
  });
});

describe('health and OpenAPI', () => {
  it('reports readiness on /healthz', async () => {
    const res = await http(`${svc.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', reviews: 30 });
  });

  it('serves an OpenAPI 3.1 document built from the request schemas', async () => {
    const doc = (await http(`${svc.url}/openapi.json`)).json<{
      openapi: string;
      servers: { url: string }[];
      paths: Record<
        string,
        { get: { parameters: { name: string; in: string; schema: Record<string, unknown> }[] } }
      >;
    }>();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]!.url).toBe('https://reviews.example.com');
    const params = doc.paths['/api/reviews/search']!.get.parameters.filter((p) => p.in === 'query');
    expect(params.map((p) => p.name).sort()).toEqual(
      [
        'limit',
        'mentions_service',
        'mentions_technician',
        'min_rating',
        'max_rating',
        'query',
        'rating',
        'since',
        'until',
        'aspect',
        'polarity',
      ].sort(),
    );
    const rating = params.find((p) => p.name === 'rating')!.schema;
    expect(rating).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
    expect(params.find((p) => p.name === 'max_rating')!.schema).toMatchObject({
      type: 'number',
      minimum: 1,
      maximum: 5,
    });
    expect(params.find((p) => p.name === 'aspect')!.schema).toMatchObject({ enum: ASPECT_IDS });
    expect(params.find((p) => p.name === 'polarity')!.schema).toMatchObject({
      enum: ['positive', 'negative', 'neutral', 'mixed'],
    });
    expect(params.find((p) => p.name === 'limit')!.schema).toMatchObject({
      default: 20,
      maximum: 100,
    });
    expect(params.find((p) => p.name === 'since')!.schema).toMatchObject({
      type: 'string',
      format: 'date',
    });
    for (const path of [
      '/reviews.json',
      '/api/feed.json',
      '/feed.xml',
      '/api/reviews/since/{date}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});

/**
 * Sends the head of a POST with `Expect: 100-continue`, waits for the 100 (the service is then
 * handling the request and reading its body), sends part of the body and closes the connection.
 */
function abandonMidBody(url: string, path: string, contentType: string): Promise<void> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\n` +
          'Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n' +
          'Expect: 100-continue\r\n\r\n',
      );
    });
    socket.once('data', (chunk: Buffer) => {
      expect(chunk.toString('latin1')).toMatch(/^HTTP\/1\.1 100/);
      socket.write('{"jsonrpc":"2.0","id":1,');
      socket.destroy();
      resolve();
    });
    socket.on('error', reject);
  });
}

describe('issue 15: a client that goes away mid-request', () => {
  it('is logged at debug level, never as an error with a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reviews-gone-'));
    const databaseUrl = `sqlite:${join(dir, 'reviews.db')}`;
    await seedStore(databaseUrl, testBusiness(), testReviews(5));
    const child = await startChildService({ databaseUrl, env: { LOG_LEVEL: 'debug' } });
    try {
      await abandonMidBody(child.url, '/mcp', 'application/json');
      await abandonMidBody(child.url, '/api/websub/hub', 'application/x-www-form-urlencoded');
      await waitUntil(
        () => child.logs.filter((l) => l.includes('went away')).length >= 2,
        'both disconnects to be logged',
      );
      const gone = child.logs.filter((l) => l.includes('went away'));
      for (const line of gone) expect(JSON.parse(line)).toMatchObject({ level: 20 });
      expect(child.logs.filter((l) => /"level":(50|60)/.test(l))).toEqual([]);
      expect(child.logs.join('\n')).not.toContain('"stack"');
    } finally {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
