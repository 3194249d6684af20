import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/service.js';
import { waitUntil } from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { connectClient, initializeRequest, initSession, rpc } from '../helpers/mcp.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';

let svc: TestService;
let second: RunningService;
/** Streams bounded to 2 per address; behind a trusted proxy, so a test picks its addresses. */
let bounded: TestService;
/** Streams idle after 1 s. */
let idle: TestService;

beforeAll(async () => {
  const env = { MCP_INITIALIZE_PER_MIN: '3' };
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(25), env });
  second = await startService(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: TEST_BASE_URL,
      DATABASE_URL: svc.databaseUrl,
      SAMPLE_DATA: 'off',
      LOG_LEVEL: 'silent',
      ...env,
    }),
    createLogger('silent'),
  );
  bounded = await startTestService({
    business: testBusiness(),
    // reviews.json over 200 KB: a hundred reads of it pass a batch's bound on its answers.
    reviews: testReviews(400),
    env: {
      MCP_STREAMS_PER_ADDRESS: '2',
      MCP_INITIALIZE_PER_MIN: '1000',
      TRUST_PROXY_CIDRS: '127.0.0.1/32',
    },
  });
  idle = await startTestService({ reviews: testReviews(5), env: { MCP_STREAM_IDLE_SECONDS: '1' } });
});
afterAll(async () => {
  for (const a of aborts) a.abort();
  await idle.stop();
  await bounded.stop();
  await second.close();
  await svc.stop();
});

const aborts: AbortController[] = [];

/** Opens a session as a client at `address` (the trusted proxy's X-Forwarded-For). */
async function sessionFrom(url: string, address: string, version = '2025-06-18'): Promise<string> {
  const res = await rpc(url, initializeRequest(version), { 'X-Forwarded-For': address });
  const id = res.headers.get('mcp-session-id');
  if (!id) throw new Error(`no session: ${res.status} ${res.text}`);
  return id;
}

/** Opens the event stream of a session from `address`; `ended` resolves when the server ends it. */
async function openStream(url: string, session: string, address = '127.0.0.1') {
  const abort = new AbortController();
  aborts.push(abort);
  const res = await fetch(`${url}/mcp`, {
    headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': session, 'X-Forwarded-For': address },
    signal: abort.signal,
  });
  const ended =
    res.status === 200
      ? res.body!.pipeTo(new WritableStream()).then(
          () => true,
          () => false,
        )
      : Promise.resolve(true);
  return { res, ended, close: () => abort.abort() };
}

/** A raw POST of a legacy (2025-03-26) session, where JSON-RPC batches are allowed. */
async function legacy(url: string, body: unknown, session: string, signal?: AbortSignal) {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Mcp-Session-Id': session,
      'MCP-Protocol-Version': '2025-03-26',
    },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  return { status: res.status, json: (await res.json()) as unknown };
}

type Answer = {
  id: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

describe('MCP_INITIALIZE_PER_MIN (issue 17)', () => {
  it('limits the sessions one address opens per minute, counted across instances, without touching open sessions', async () => {
    const open = [await initSession(svc.url), await initSession(second.url)];
    open.push(await initSession(svc.url));
    const refused = await rpc(second.url, initializeRequest());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.json).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: expect.stringMatching(/too many sessions/i) },
    });
    // The sessions already open work on as before.
    for (const id of open) {
      const res = await rpc(
        svc.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
        { 'Mcp-Session-Id': id },
      );
      expect(res.status).toBe(200);
    }
  });
});

describe('JSON-RPC batches (protocol versions before 2025-06-18)', () => {
  const summary = (id: unknown, args: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'get_rating_summary', arguments: args },
  });

  it('answers every request of a batch whose ids repeat, each in its place', async () => {
    const session = await sessionFrom(bounded.url, '192.0.2.10', '2025-03-26');
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      summary(1, { group_by: 'source' }),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'x', method: 'tools/call', params: { name: 5 } },
      { jsonrpc: '2.0', id: 'x', method: 'ping' },
    ];
    const res = await legacy(bounded.url, batch, session);
    expect(res.status).toBe(200);
    const answers = res.json as Answer[];
    expect(answers.map((a) => a.id)).toEqual([1, 1, 1, 'x', 'x']);
    expect(answers[0]!.result!.tools).toBeInstanceOf(Array);
    expect(answers[1]!.result).toEqual({});
    expect(answers[2]!.result!.structuredContent).toMatchObject({ groupCount: expect.any(Number) });
    expect(answers[3]!.error!.code).toBe(-32602);
    expect(answers[4]!.result).toEqual({});
  });

  it('answers a batch that cancels one of its own requests (the request is answered)', async () => {
    const session = await sessionFrom(bounded.url, '192.0.2.11', '2025-03-26');
    const res = await legacy(
      bounded.url,
      [
        { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } },
      ],
      session,
      AbortSignal.timeout(10_000),
    );
    expect(res.status).toBe(200);
    expect((res.json as Answer[]).map((a) => a.id)).toEqual([7]);
  });

  it('refuses a batch of more than 100 messages, and initialize within a batch, with -32600', async () => {
    const session = await sessionFrom(bounded.url, '192.0.2.12', '2025-03-26');
    const pings = Array.from({ length: 101 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'ping',
    }));
    const large = await legacy(bounded.url, pings, session);
    expect(large.status).toBe(400);
    expect((large.json as Answer).error).toMatchObject({
      code: -32600,
      message: 'Invalid Request: a batch holds at most 100 messages',
    });
    const full = await legacy(bounded.url, pings.slice(0, 100), session);
    expect(full.status).toBe(200);
    expect((full.json as Answer[]).length).toBe(100);
    const init = await legacy(bounded.url, [{ ...initializeRequest('2025-03-26') }], session);
    expect(init.status).toBe(400);
    expect((init.json as Answer).error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/initialize must not be part of a JSON-RPC batch/),
    });
  });

  it("stops a batch's answers past 16 MiB: the requests left get an error to send them alone", async () => {
    const session = await sessionFrom(bounded.url, '192.0.2.14', '2025-03-26');
    const size = (await (await fetch(`${bounded.url}/reviews.json`)).arrayBuffer()).byteLength;
    expect(size * 100).toBeGreaterThan(20 * 1024 * 1024);
    const batch = Array.from({ length: 100 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'resources/read',
      params: { uri: `${TEST_BASE_URL}/reviews.json` },
    }));
    const res = await legacy(bounded.url, batch, session);
    expect(res.status).toBe(200);
    const answers = res.json as Answer[];
    expect(answers.map((a) => a.id)).toEqual(batch.map((m) => m.id));
    const refused = answers.filter((a) => a.error);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.slice(0, 100 - refused.length).every((a) => a.result)).toBe(true);
    expect(refused[0]!.error).toEqual({
      code: -32000,
      message:
        'The answers of this batch passed 16 MiB before this request: send it again on its own',
    });
  });

  it('serves other requests between the calls of a batch', async () => {
    const session = await sessionFrom(bounded.url, '192.0.2.13', '2025-03-26');
    // A hundred calls no cache answers (each asks for another date range).
    const batch = Array.from({ length: 100 }, (_, i) =>
      summary(i, {
        group_by: 'month',
        since: `2020-01-${String((i % 28) + 1).padStart(2, '0')}`,
        until: `2030-${String((i % 12) + 1).padStart(2, '0')}-01`,
      }),
    );
    let done = false;
    const answered = legacy(bounded.url, batch, session).finally(() => {
      done = true;
    });
    // /healthz in a loop while the batch runs: answered between its calls, not after them all.
    let between = 0;
    while (!done) {
      const res = await fetch(`${bounded.url}/healthz`);
      await res.arrayBuffer();
      if (!done) between++;
    }
    const res = await answered;
    expect(res.status).toBe(200);
    expect((res.json as Answer[]).every((a) => a.result?.structuredContent)).toBe(true);
    expect(between).toBeGreaterThanOrEqual(10);
  });
});

describe('MCP event streams (GET /mcp)', () => {
  it('limits the streams one client address holds (MCP_STREAMS_PER_ADDRESS); other addresses get theirs', async () => {
    const address = '203.0.113.5';
    const sessions = [];
    for (let i = 0; i < 3; i++) sessions.push(await sessionFrom(bounded.url, address));
    const first = await openStream(bounded.url, sessions[0]!, address);
    const second = await openStream(bounded.url, sessions[1]!, address);
    expect([first.res.status, second.res.status]).toEqual([200, 200]);
    const third = await openStream(bounded.url, sessions[2]!, address);
    expect(third.res.status).toBe(429);
    expect(Number(third.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await third.res.json()).toMatchObject({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: expect.stringMatching(/too many event streams from this address/i),
      },
    });
    // Another address is not affected.
    const other = await openStream(
      bounded.url,
      await sessionFrom(bounded.url, '203.0.113.6'),
      '203.0.113.6',
    );
    expect(other.res.status).toBe(200);
    // When one of its streams closes, the address may open another.
    const open = bounded.mcpStreams();
    first.close();
    await waitUntil(() => bounded.mcpStreams() === open - 1, 'the closed stream to be forgotten');
    expect((await openStream(bounded.url, sessions[2]!, address)).res.status).toBe(200);
  });

  it('a flood of sessions and streams from many addresses leaves room for a new client', async () => {
    const before = bounded.mcpStreams();
    for (let a = 0; a < 20; a++) {
      const address = `198.51.100.${a + 1}`;
      for (let i = 0; i < 3; i++)
        await openStream(bounded.url, await sessionFrom(bounded.url, address), address);
    }
    expect(bounded.mcpStreams() - before).toBe(40);
    // The official client, from an address of its own, opens its session and its stream.
    const { client } = await connectClient(bounded.url);
    try {
      await waitUntil(() => bounded.mcpStreams() === before + 41, "the new client's stream");
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('closes a stream idle for MCP_STREAM_IDLE_SECONDS; the official client reconnects and keeps working', async () => {
    const raw = await openStream(idle.url, await initSession(idle.url));
    expect(raw.res.status).toBe(200);
    expect(await raw.ended).toBe(true);
    let gets = 0;
    const counting: typeof fetch = (input, init) => {
      if ((init?.method ?? 'GET') === 'GET') gets++;
      return fetch(input, init);
    };
    const client = new Client({ name: 'idle-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${idle.url}/mcp`), { fetch: counting }),
    );
    try {
      // Opened, closed when idle, opened again.
      await waitUntil(() => gets >= 3, 'the client to reconnect twice');
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
    await waitUntil(() => idle.mcpStreams() === 0, 'every stream to end');
  });
});
