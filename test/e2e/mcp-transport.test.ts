import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { connectClient, initializeRequest, initSession, rpc } from '../helpers/mcp.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';

let svc: TestService;
let second: RunningService;

const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

beforeAll(async () => {
  svc = await startTestService({
    business: testBusiness(),
    reviews: testReviews(30),
    env: { MCP_MAX_BODY_BYTES: '4096' },
  });
  // A second instance on the same store: no shared memory, only the database.
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    BASE_URL: TEST_BASE_URL,
    DATABASE_URL: svc.databaseUrl,
    SAMPLE_DATA: 'off',
    LOG_LEVEL: 'silent',
  });
  second = await startService(config, createLogger('silent'));
});
afterAll(async () => {
  await second.close();
  await svc.stop();
});

/** The status and headers of a raw JSON-RPC answer, as a fetch Response. */
function toResponse(res: { status: number; headers: Headers }): Response {
  return new Response(null, {
    status: res.status === 204 ? 204 : res.status,
    headers: res.headers,
  });
}

function errorOf(json: unknown): { code: number; message: string } {
  return (json as { error: { code: number; message: string } }).error;
}

describe('initialize and sessions', () => {
  it('returns Mcp-Session-Id on initialize, with visible ASCII only', async () => {
    const res = await rpc(svc.url, initializeRequest());
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toMatch(/^[\x21-\x7e]{20,}$/);
    expect((res.json as { result: { protocolVersion: string } }).result.protocolVersion).toBe(
      '2025-06-18',
    );
  });

  it('negotiates: a supported version is kept, an unknown one gets the latest', async () => {
    for (const [asked, expected] of [
      ['2025-03-26', '2025-03-26'],
      ['2024-11-05', '2024-11-05'],
      ['1999-01-01', '2025-11-25'],
    ]) {
      const res = await rpc(svc.url, initializeRequest(asked));
      expect(
        (res.json as { result: { protocolVersion: string } }).result.protocolVersion,
        asked,
      ).toBe(expected);
    }
  });

  it('answers 400 without a session id and 404 with an unknown or forged one', async () => {
    const missing = await rpc(svc.url, LIST);
    expect(missing.status).toBe(400);
    const id = await initSession(svc.url);
    const forged = `${id.split('.')[0]}.AAAA${id.split('.')[1]!.slice(4)}`;
    for (const bad of ['nope', forged, `${id}x`, 'a.b.c']) {
      const res = await rpc(svc.url, LIST, { 'Mcp-Session-Id': bad });
      expect(res.status, bad).toBe(404);
      expect(errorOf(res.json).code).toBe(-32001);
    }
    expect((await rpc(svc.url, LIST, { 'Mcp-Session-Id': id })).status).toBe(200);
  });

  it('ends a session with DELETE; later requests get 404', async () => {
    const id = await initSession(svc.url);
    const del = await fetch(`${svc.url}/mcp`, {
      method: 'DELETE',
      headers: { 'Mcp-Session-Id': id },
    });
    expect(del.status).toBe(200);
    expect((await rpc(svc.url, LIST, { 'Mcp-Session-Id': id })).status).toBe(404);
    const again = await fetch(`${svc.url}/mcp`, {
      method: 'DELETE',
      headers: { 'Mcp-Session-Id': id },
    });
    expect(again.status).toBe(404);
  });

  it('serves a session started on one instance from another, and an end on one ends it on all', async () => {
    const { client, transport } = await connectClient(svc.url);
    const sessionId = transport.sessionId!;
    const onSecond = await connectClient(second.url, { sessionId });
    const viaSecond = await onSecond.client.callTool({
      name: 'search_reviews',
      arguments: { limit: 3 },
    });
    expect((viaSecond.structuredContent as { count: number }).count).toBe(3);
    const del = await fetch(`${second.url}/mcp`, {
      method: 'DELETE',
      headers: { 'Mcp-Session-Id': sessionId },
    });
    expect(del.status).toBe(200);
    expect((await rpc(svc.url, LIST, { 'Mcp-Session-Id': sessionId })).status).toBe(404);
    await client.close().catch(() => undefined);
  });

  it('opens the session event stream on GET (server-sent events), and refuses one without a session', async () => {
    const id = await initSession(svc.url);
    const controller = new AbortController();
    const res = await fetch(`${svc.url}/mcp`, {
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': id },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-store');
    controller.abort();
    await res.body?.cancel().catch(() => undefined);

    const anonymous = await fetch(`${svc.url}/mcp`, { headers: { Accept: 'text/event-stream' } });
    expect(anonymous.status).toBe(400);
    const notAccepted = await fetch(`${svc.url}/mcp`, {
      headers: { Accept: 'application/json', 'Mcp-Session-Id': id },
    });
    expect(notAccepted.status).toBe(406);
    const put = await fetch(`${svc.url}/mcp`, { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toContain('GET');
  });
});

describe('request validation', () => {
  it('requires Accept to list application/json and text/event-stream (406)', async () => {
    for (const accept of ['application/json', 'text/event-stream', '*/*']) {
      const res = await rpc(svc.url, LIST, { Accept: accept });
      expect(res.status, accept).toBe(406);
    }
  });

  it('requires a JSON body (415)', async () => {
    const res = await rpc(svc.url, LIST, { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
  });

  it('caps the body size (413)', async () => {
    const id = await initSession(svc.url);
    const big = { ...LIST, params: { pad: 'x'.repeat(10_000) } };
    const res = await rpc(svc.url, big, { 'Mcp-Session-Id': id });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/json');
  });

  it.each(['{', '<html>', '', 'null', '{"jsonrpc": "2.0", "id": 1', '\u0000'])(
    'a malformed body %j is a JSON -32700, with no HTML or file path',
    async (body) => {
      const res = await rpc(svc.url, body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect([-32700, -32600]).toContain(errorOf(res.json).code);
      expect(res.text).not.toMatch(/<html|\/work\/|node_modules|at .*:\d+/i);
    },
  );

  it('an unknown method is -32601', async () => {
    const id = await initSession(svc.url);
    const res = await rpc(
      svc.url,
      { jsonrpc: '2.0', id: 5, method: 'reviews/delete', params: {} },
      { 'Mcp-Session-Id': id },
    );
    expect(errorOf(res.json).code).toBe(-32601);
  });

  it('invalid params are -32602', async () => {
    const id = await initSession(svc.url);
    const res = await rpc(
      svc.url,
      {
        jsonrpc: '2.0',
        id: 6,
        method: 'tools/call',
        params: { name: 'search_reviews', arguments: { limit: 500 } },
      },
      { 'Mcp-Session-Id': id },
    );
    expect(errorOf(res.json).code).toBe(-32602);
    expect(errorOf(res.json).message).toContain('limit');
  });

  it('rejects an unsupported MCP-Protocol-Version header with 400', async () => {
    const id = await initSession(svc.url);
    const res = await rpc(svc.url, LIST, {
      'Mcp-Session-Id': id,
      'MCP-Protocol-Version': '1999-01-01',
    });
    expect(res.status).toBe(400);
  });

  it('rejects batches under 2025-06-18 and handles them under 2025-03-26', async () => {
    const modern = await initSession(svc.url, '2025-06-18');
    const batch = [LIST, { jsonrpc: '2.0', id: 3, method: 'ping' }];
    const rejected = await rpc(svc.url, batch, { 'Mcp-Session-Id': modern });
    expect(rejected.status).toBe(400);
    expect(errorOf(rejected.json).code).toBe(-32600);
    const legacy = await initSession(svc.url, '2025-03-26');
    const handled = await rpc(svc.url, batch, {
      'Mcp-Session-Id': legacy,
      'MCP-Protocol-Version': '2025-03-26',
    });
    expect(handled.status).toBe(200);
    const answers = handled.json as { id: number }[];
    expect(answers.map((a) => a.id).sort()).toEqual([2, 3]);
  });

  it('accepts notifications with 202 and no body', async () => {
    const id = await initSession(svc.url);
    const res = await rpc(
      svc.url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'Mcp-Session-Id': id },
    );
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
  });
});

describe('Origin', () => {
  it('allows requests without Origin and from the BASE_URL origin; refuses others with 403', async () => {
    const init = initializeRequest();
    const ok = await rpc(svc.url, init, { Origin: TEST_BASE_URL });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(TEST_BASE_URL);
    expect(ok.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    for (const origin of [
      'https://evil.example',
      'null',
      'https://reviews.example.com.evil.example',
    ]) {
      const res = await rpc(svc.url, init, { Origin: origin });
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('mcp-session-id')).toBeNull();
    }
  });

  it('answers a preflight from an allowed origin only', async () => {
    const ok = await fetch(`${svc.url}/mcp`, {
      method: 'OPTIONS',
      headers: { Origin: TEST_BASE_URL },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-headers')).toContain('Mcp-Session-Id');
    const bad = await fetch(`${svc.url}/mcp`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example' },
    });
    expect(bad.status).toBe(403);
  });
});

describe('issue 15: CORS on /mcp errors follows the Origin allow-list', () => {
  it('answers every error to an allowed origin with its CORS headers, and none to others', async () => {
    const origin = { Origin: TEST_BASE_URL };
    const session = await initSession(svc.url);
    const answers: [number, Promise<Response>][] = [
      [405, fetch(`${svc.url}/mcp`, { method: 'PUT', headers: origin, body: '{}' })],
      [
        406,
        fetch(`${svc.url}/mcp`, {
          method: 'POST',
          headers: { ...origin, Accept: '*/*' },
          body: '{}',
        }),
      ],
      [415, rpc(svc.url, LIST, { ...origin, 'Content-Type': 'text/plain' }).then(toResponse)],
      [
        413,
        rpc(svc.url, { ...LIST, params: { pad: 'x'.repeat(10_000) } }, origin).then(toResponse),
      ],
      [400, rpc(svc.url, '{', origin).then(toResponse)],
      [400, rpc(svc.url, LIST, origin).then(toResponse)],
      [404, rpc(svc.url, LIST, { ...origin, 'Mcp-Session-Id': 'x.y' }).then(toResponse)],
      [
        200,
        rpc(
          svc.url,
          { ...LIST, method: 'tools/call', params: { name: 5 } },
          { ...origin, 'Mcp-Session-Id': session },
        ).then(toResponse),
      ],
      [
        404,
        fetch(`${svc.url}/mcp`, {
          method: 'DELETE',
          headers: { ...origin, 'Mcp-Session-Id': 'x.y' },
        }),
      ],
    ];
    for (const [status, pending] of answers) {
      const res = await pending;
      expect(res.status).toBe(status);
      expect(res.headers.get('access-control-allow-origin'), String(status)).toBe(TEST_BASE_URL);
      expect(res.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
      expect(res.headers.get('vary')).toContain('Origin');
    }
    for (const method of ['GET', 'POST', 'PUT']) {
      const refused = await fetch(`${svc.url}/mcp`, {
        method,
        headers: { Origin: 'https://evil.example', Accept: 'application/json, text/event-stream' },
        ...(method === 'GET' ? {} : { body: '{}' }),
      });
      expect(refused.status, method).toBe(403);
      expect(refused.headers.get('access-control-allow-origin'), method).toBeNull();
    }
  });
});

describe('result cache', () => {
  it('answers a repeated read-only call exactly as the SDK did, around the new request id', async () => {
    const id = await initSession(svc.url);
    const call = (rid: number) =>
      rpc(
        svc.url,
        {
          jsonrpc: '2.0',
          id: rid,
          method: 'tools/call',
          params: { name: 'search_reviews', arguments: { min_rating: 4, limit: 5 } },
        },
        { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-06-18' },
      );
    const first = await call(41);
    const second = await call(42);
    const a = first.json as { id: number; result: unknown };
    const b = second.json as { id: number; result: unknown };
    expect([a.id, b.id]).toEqual([41, 42]);
    expect(b.result).toEqual(a.result);
    const bad = await rpc(
      svc.url,
      {
        jsonrpc: '2.0',
        id: 43,
        method: 'tools/call',
        params: { name: 'search_reviews', arguments: { min_rating: 4, limit: 5 } },
      },
      { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '1999-01-01' },
    );
    expect(bad.status).toBe(400);
    expect(
      (
        await rpc(svc.url, {
          jsonrpc: '2.0',
          id: 44,
          method: 'tools/call',
          params: { name: 'search_reviews', arguments: { min_rating: 4, limit: 5 } },
        })
      ).status,
    ).toBe(400);
  });
});

describe('issue 15: hostile requests get a JSON-RPC error, never a 500', () => {
  const INIT_PARAMS = {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  };

  /** The error of a response, checked to be short, single-line and free of validation dumps. */
  function shortError(res: { status: number; json: unknown }): {
    code: number;
    message: string;
    data?: { issues: { path: (string | number)[] }[] };
  } {
    expect(res.status).toBeLessThan(500);
    const { error } = res.json as {
      error: { code: number; message: string; data?: { issues: { path: string[] }[] } };
    };
    expect(error.message.length).toBeLessThan(160);
    expect(error.message).not.toMatch(/\n|\[|\{/);
    return error;
  }

  it('initialize without params is -32602 for its id, and issues no session', async () => {
    const res = await rpc(svc.url, { jsonrpc: '2.0', id: 'init-1', method: 'initialize' });
    expect(res.status).toBe(200);
    expect(shortError(res).code).toBe(-32602);
    expect((res.json as { id: unknown }).id).toBe('init-1');
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it.each([
    [
      'initialize with a numeric protocolVersion',
      'initialize',
      { ...INIT_PARAMS, protocolVersion: 5 },
      'protocolVersion',
    ],
    [
      'initialize without clientInfo',
      'initialize',
      { protocolVersion: '2025-06-18', capabilities: {} },
      'clientInfo',
    ],
    [
      'tools/call with null arguments',
      'tools/call',
      { name: 'search_reviews', arguments: null },
      'arguments',
    ],
    [
      'tools/call with array arguments',
      'tools/call',
      { name: 'search_reviews', arguments: [] },
      'arguments',
    ],
    ['tools/call without a name', 'tools/call', { arguments: {} }, 'name'],
    ['tools/call with a numeric name', 'tools/call', { name: 5, arguments: {} }, 'name'],
    ['logging/setLevel with an unknown level', 'logging/setLevel', { level: 'loud' }, 'level'],
    ['logging/setLevel without a level', 'logging/setLevel', {}, 'level'],
    [
      'prompts/get with a numeric argument',
      'prompts/get',
      { name: 'technician_feedback', arguments: { technician: 5 } },
      'arguments',
    ],
    ['resources/read without a uri', 'resources/read', {}, 'uri'],
  ])('%s is -32602 naming the field, with the request id', async (_name, method, params, field) => {
    const session = await initSession(svc.url, '2025-11-25');
    const headers: Record<string, string> =
      method === 'initialize' ? {} : { 'Mcp-Session-Id': session };
    const res = await rpc(svc.url, { jsonrpc: '2.0', id: 31, method, params }, headers);
    const error = shortError(res);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(field);
    expect(error.data!.issues[0]!.path[0]).toBe(field);
    expect((res.json as { id: unknown }).id).toBe(31);
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it('params given as an array are an Invalid Request (-32600) for that id', async () => {
    const session = await initSession(svc.url);
    for (const method of ['initialize', 'tools/list']) {
      const res = await rpc(
        svc.url,
        { jsonrpc: '2.0', id: 32, method, params: [] },
        { 'Mcp-Session-Id': session },
      );
      expect(res.status, method).toBe(400);
      expect(shortError(res).code, method).toBe(-32600);
      expect((res.json as { id: unknown }).id, method).toBe(32);
    }
  });

  it('errors found before the SDK runs carry the request id', async () => {
    const withoutSession = await rpc(svc.url, { ...LIST, id: 'no-session' });
    expect(withoutSession.status).toBe(400);
    expect((withoutSession.json as { id: unknown }).id).toBe('no-session');
    const unknownSession = await rpc(svc.url, { ...LIST, id: 33 }, { 'Mcp-Session-Id': 'x.y' });
    expect(unknownSession.status).toBe(404);
    expect((unknownSession.json as { id: unknown }).id).toBe(33);
    const session = await initSession(svc.url);
    const badVersion = await rpc(
      svc.url,
      { ...LIST, id: 34 },
      { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '1999-01-01' },
    );
    expect(badVersion.status).toBe(400);
    expect((badVersion.json as { id: unknown }).id).toBe(34);
    expect(badVersion.text).not.toContain('1999');
    const notJsonRpc = await rpc(svc.url, { jsonrpc: '1.0', id: 35, method: 'tools/list' });
    expect(notJsonRpc.status).toBe(400);
    expect(errorOf(notJsonRpc.json).code).toBe(-32600);
    expect((notJsonRpc.json as { id: unknown }).id).toBe(35);
  });

  it('params nested 5,000 deep are answered, not a stack overflow', async () => {
    // The second instance has the default body cap (64 KiB).
    const session = await initSession(second.url, '2025-11-25');
    const deep = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
    const bodies = [
      `{"jsonrpc":"2.0","id":41,"method":"tools/list","params":{"x":${deep}}}`,
      `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"search_reviews","arguments":{"query":${deep}}}}`,
      `{"jsonrpc":"2.0","id":43,"method":"tools/call","params":{"name":"get_business","arguments":{},"_meta":{"x":${deep}}}}`,
      `{"jsonrpc":"2.0","id":44,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"experimental":{"x":${deep}}},"clientInfo":{"name":"x","version":"1"}}}`,
    ];
    for (const body of bodies) {
      const res = await rpc(second.url, body, { 'Mcp-Session-Id': session });
      expect(res.status, body.slice(0, 60)).toBe(200);
      const answer = res.json as { id: number; result?: { isError?: boolean }; error?: unknown };
      expect(answer.error, body.slice(0, 60)).toBeUndefined();
      expect(answer.id).toBe(Number(/"id":(\d+)/.exec(body)![1]));
    }
  });

  it('answers each request of a legacy batch: invalid params get -32602, the rest run', async () => {
    const session = await initSession(svc.url, '2025-03-26');
    const res = await rpc(
      svc.url,
      [
        { jsonrpc: '2.0', id: 51, method: 'tools/call', params: { name: 5 } },
        { jsonrpc: '2.0', id: 52, method: 'ping' },
      ],
      { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-03-26' },
    );
    expect(res.status).toBe(200);
    const answers = res.json as { id: number; result?: unknown; error?: { code: number } }[];
    expect(answers.map((a) => a.id).sort()).toEqual([51, 52]);
    expect(answers.find((a) => a.id === 51)!.error!.code).toBe(-32602);
    expect(answers.find((a) => a.id === 52)!.result).toEqual({});
  });
});
