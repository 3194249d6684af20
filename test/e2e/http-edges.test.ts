import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parserRejection } from '../../src/service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http, rawRequest } from '../helpers/http.js';
import { initSession, rpc } from '../helpers/mcp.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';

/** Edges where behaviour and docs/api.md, docs/mcp.md and docs/websub.md once disagreed. */

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(20) });
});
afterAll(() => svc.stop());

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

describe('the Host header (RFC 9112 §3.2: one valid Host, or 400)', () => {
  it.each([
    ['two Host headers', 'Host: a.example\r\nHost: b.example'],
    ['a Host with a space', 'Host: a b'],
    ['a Host with a slash', 'Host: a.example/x'],
    ['a Host with a user', 'Host: user@a.example'],
  ])('%s is a JSON 400 with CORS', async (_name, host) => {
    const answer = parseRaw(
      await rawRequest(svc.url, `GET /healthz HTTP/1.1\r\n${host}\r\nConnection: close\r\n\r\n`),
    );
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'bad_request' });
  });

  it.each([
    'Host: reviews.example.com',
    'Host: reviews.example.com:8443',
    'Host: [::1]:3000',
    'Host: 127.0.0.1',
    'Host:',
  ])('%s is answered', async (host) => {
    const answer = parseRaw(
      await rawRequest(svc.url, `GET /healthz HTTP/1.1\r\n${host}\r\nConnection: close\r\n\r\n`),
    );
    expect(answer.status).toBe(200);
  });
});

describe('the answers of the HTTP parser', () => {
  it.each([
    [undefined, 400, 'bad_request'],
    ['HPE_INVALID_HEADER_TOKEN', 400, 'bad_request'],
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
  ])('%s is a JSON %i with its own error code', (code, status, error) => {
    const answer = parseRaw(parserRejection(code));
    expect(answer.status).toBe(status);
    const body = JSON.parse(answer.body) as { error: string; message: string };
    expect(body.error).toBe(error);
    if (status === 408) expect(body.message).not.toMatch(/parsed/);
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(answer.body)));
  });
});

describe('a page for programs', () => {
  it('an unknown review id is a JSON 404 for a client that asks for JSON, the HTML page for a browser', async () => {
    const path = `${svc.url}/reviews/00000000-0000-4000-8000-000000000000`;
    const program = await http(path, { headers: { Accept: 'application/json' } });
    expect(program.status).toBe(404);
    expect(program.headers['content-type']).toBe('application/json');
    expect(program.json<{ error: string }>().error).toBe('not_found');
    const browser = await http(path, { headers: { Accept: 'text/html,*/*;q=0.8' } });
    expect(browser.status).toBe(404);
    expect(browser.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('compressed request bodies are refused, not read as garbage', () => {
  it('the hub answers 415 to a Content-Encoding', async () => {
    const form = `hub.mode=subscribe&hub.topic=${encodeURIComponent(`${TEST_BASE_URL}/feed.xml`)}&hub.callback=${encodeURIComponent('https://127.0.0.1:9/x')}`;
    const res = await http(`${svc.url}/api/websub/hub`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Encoding': 'gzip',
      },
      body: gzipSync(form),
    });
    expect(res.status).toBe(415);
    expect(res.text).toMatch(/Content-Encoding/);
  });

  it('/mcp answers 415 to a Content-Encoding', async () => {
    const res = await rpc(
      svc.url,
      gzipSync(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })).toString('latin1'),
      {
        'Content-Encoding': 'gzip',
      },
    );
    expect(res.status).toBe(415);
  });
});

describe('/mcp edges', () => {
  const body = { jsonrpc: '2.0', id: 'req-7', method: 'tools/list' };

  it('a 406 and a 415 answer the id of the request', async () => {
    const noAccept = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    expect(noAccept.status).toBe(406);
    expect(((await noAccept.json()) as { id: unknown }).id).toBe('req-7');
    const wrongType = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    });
    expect(wrongType.status).toBe(415);
    expect(((await wrongType.json()) as { id: unknown }).id).toBe('req-7');
  });

  it.each(['2025-06-18', '2025-11-25'])(
    'a task-augmented tools/call and resources/read are answered normally (%s: no tasks capability)',
    async (version) => {
      const session = await initSession(svc.url, version);
      const headers = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': version };
      const call = await rpc(
        svc.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_business', arguments: {}, task: {} },
        },
        headers,
      );
      expect(call.status).toBe(200);
      const result = call.json as { result?: { content: unknown[] }; error?: unknown };
      expect(result.error).toBeUndefined();
      expect(result.result?.content.length).toBeGreaterThan(0);
      const read = await rpc(
        svc.url,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'resources/read',
          params: { uri: `${TEST_BASE_URL}/api/feed.json`, task: { ttl: 1000 } },
        },
        headers,
      );
      expect((read.json as { error?: unknown }).error).toBeUndefined();
    },
  );

  it('a _meta.progressToken that is an object is Invalid params (-32602), with the id', async () => {
    const session = await initSession(svc.url);
    const res = await rpc(
      svc.url,
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/list',
        params: { _meta: { progressToken: {} } },
      },
      { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-06-18' },
    );
    const answer = res.json as { id: unknown; error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toMatch(/progressToken/);
    expect(answer.id).toBe(9);
  });
});
