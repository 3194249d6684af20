import fc from 'fast-check';
import { RequestIdSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review } from '../../src/domain/review.js';
import { openStore, type Store } from '../../src/store/index.js';
import { testBusiness } from '../helpers/fixtures.js';
import { initSession } from '../helpers/mcp.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { anyText, mutated, rawBytes } from './helpers/arbitraries.js';
import { expectHealthy, expectNoEcho, jsonOf, publishedFingerprint } from './helpers/checks.js';
import { fuzzReviews } from './helpers/data.js';
import { nearLimitBody, PROTOCOL_VERSIONS, rpcBody, type RpcBody } from './helpers/json-rpc.js';
import { wire, type WireResponse } from './helpers/raw-http.js';
import { checkBoundary, noteOutcome, timeoutOf } from './helpers/settings.js';

/** Runs in `npm run test:slow` (fixed seed); `npm run fuzz` runs FUZZ_RUNS. */
const RUNS = 150;
const MAX_BODY = 65_536;
const ALLOWED_ORIGIN = 'https://reviews.example.com';

let svc: TestService;
let store: Store;
let fingerprint: string;
let dataVersion: number;
let reviewIds: string[];
/** A live session per protocol version. */
const sessions = new Map<string, string>();

beforeAll(async () => {
  // Every run may open a session (an initialize body, a DELETE's own session): the per-address
  // limit of initializations, which has tests of its own, would answer 429 after 60 a minute.
  svc = await startTestService({
    business: testBusiness(),
    reviews: fuzzReviews(),
    env: { MCP_INITIALIZE_PER_MIN: '1000000' },
  });
  store = openStore(svc.databaseUrl);
  fingerprint = await publishedFingerprint(store);
  dataVersion = ((await (await fetch(`${svc.url}/healthz`)).json()) as { dataVersion: number })
    .dataVersion;
  reviewIds = (
    (await (await fetch(`${svc.url}/reviews.json`)).json()) as { reviews: Review[] }
  ).reviews.map((r) => r.id);
  for (const v of PROTOCOL_VERSIONS) sessions.set(v, await initSession(svc.url, v));
});
afterAll(async () => {
  await store?.close();
  await svc?.stop();
});

const ACCEPT = 'application/json, text/event-stream';

/** A header: absent, as a client should send it, or a near miss. */
const header = (valid: string, weight = 8): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { weight, arbitrary: fc.constant(valid) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: mutated(valid) },
    { weight: 1, arbitrary: anyText() },
  );

/** Headers as the SDK client sends them: most requests test their body only. */
const CLEAN_HEADERS = {
  accept: ACCEPT as string | undefined,
  contentType: 'application/json' as string | undefined,
  protocolHeader: undefined as string | undefined,
  origin: undefined as string | undefined,
  noHost: false,
  extra: [] as [string, string][],
};

const FUZZED_HEADERS = fc.record({
  accept: header(ACCEPT),
  contentType: fc.oneof(
    {
      weight: 2,
      arbitrary: fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON'),
    },
    { weight: 10, arbitrary: header('application/json') },
  ),
  protocolHeader: fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTOCOL_VERSIONS) },
    { weight: 1, arbitrary: anyText(20) },
  ),
  origin: fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constant(ALLOWED_ORIGIN) },
    { weight: 1, arbitrary: fc.oneof(mutated(ALLOWED_ORIGIN), anyText(30)) },
  ),
  noHost: fc.oneof(
    { weight: 20, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  extra: fc.array(
    fc.tuple(
      fc.constantFrom('Last-Event-ID', 'Mcp-Session-Id', 'X-Extra', 'Authorization'),
      anyText(40),
    ),
    { maxLength: 1 },
  ),
});

const mcpRequest = (ids: readonly string[]) =>
  fc
    .tuple(
      fc.record({
        method: fc.oneof(
          { weight: 20, arbitrary: fc.constant('POST') },
          { weight: 1, arbitrary: fc.constantFrom('DELETE', 'GET', 'PUT', 'OPTIONS') },
        ),
        body: fc.oneof(
          { weight: 10, arbitrary: rpcBody(ids) },
          { weight: 1, arbitrary: nearLimitBody(MAX_BODY) },
        ),
        session: fc.oneof(
          {
            weight: 8,
            arbitrary: fc.constantFrom(...PROTOCOL_VERSIONS).map((v) => ({ version: v })),
          },
          { weight: 1, arbitrary: fc.constant(null) },
          {
            weight: 1,
            arbitrary: fc
              .tuple(fc.constantFrom(...PROTOCOL_VERSIONS), fc.nat())
              .map(([v, n]) => ({ version: v, forge: n })),
          },
          { weight: 1, arbitrary: anyText(600).map((raw) => ({ raw })) },
        ),
      }),
      fc.oneof(
        { weight: 3, arbitrary: fc.constant(CLEAN_HEADERS) },
        { weight: 2, arbitrary: FUZZED_HEADERS },
      ),
    )
    .map(([request, headers]) => ({ ...request, ...headers }));

type McpRequest = ReturnType<typeof mcpRequest> extends fc.Arbitrary<infer T> ? T : never;

/** A session id with one character changed: signed by nobody. */
function forge(id: string, n: number): string {
  const i = n % id.length;
  const c = id[i] === 'A' ? 'B' : 'A';
  return id.slice(0, i) + c + id.slice(i + 1);
}

function headersOf(r: McpRequest, fresh: string | null): [string, string][] {
  const h: [string, string][] = [];
  if (r.accept !== undefined) h.push(['Accept', r.accept]);
  if (r.contentType !== undefined) h.push(['Content-Type', r.contentType]);
  const s = r.session;
  if (s && 'raw' in s) h.push(['Mcp-Session-Id', s.raw]);
  else if (s && 'forge' in s) h.push(['Mcp-Session-Id', forge(sessions.get(s.version)!, s.forge)]);
  else if (s) h.push(['Mcp-Session-Id', fresh ?? sessions.get(s.version)!]);
  if (r.protocolHeader !== undefined) h.push(['MCP-Protocol-Version', r.protocolHeader]);
  if (r.origin !== undefined) h.push(['Origin', r.origin]);
  h.push(...r.extra);
  // Header values go on the wire as UTF-8 bytes; CR and LF would end the header.
  return h.map(([k, v]) => [k, rawBytes(v)]);
}

interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC response object: version, an id, and a result or an error (never -32603). */
function expectRpcResponse(value: unknown): RpcError | null {
  const m = value as { jsonrpc: unknown; id: unknown; result?: unknown; error?: RpcError };
  expect(m.jsonrpc).toBe('2.0');
  expect(['string', 'number'].includes(typeof m.id) || m.id === null, 'id').toBe(true);
  expect('result' in m !== 'error' in m, 'a result or an error').toBe(true);
  if (!m.error) return null;
  expect(Number.isInteger(m.error.code)).toBe(true);
  expect(typeof m.error.message).toBe('string');
  expect(m.error.code, `an internal error: ${m.error.message}`).not.toBe(-32603);
  return m.error;
}

/** The id an error must answer: the request's, when it is a string or an integer. */
function readableId(text: string): unknown {
  try {
    const body = JSON.parse(text) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
    const parsed = RequestIdSchema.safeParse((body as { id?: unknown }).id);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function expectAnswer(
  r: McpRequest,
  body: RpcBody,
  res: WireResponse,
  sent: [string, string][],
): void {
  expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
  // eslint-disable-next-line no-control-regex
  if (sent.some(([, v]) => /[\x00-\x08\x0a-\x1f\x7f]/.test(v))) {
    // Control characters in a header: node's HTTP parser refuses the request before any route
    // (the service's JSON 400 for every path), or takes it.
    if (res.status === 400 && (jsonOf(res) as { error?: unknown }).error === 'bad_request') return;
  }
  // Header values arrive without their surrounding spaces and tabs (RFC 9110 OWS).
  const origin =
    r.origin === undefined ? undefined : rawBytes(r.origin).replace(/^[ \t]+|[ \t]+$/g, '');
  const refusedOrigin = origin !== undefined && origin !== ALLOWED_ORIGIN;
  const acao = res.headers['access-control-allow-origin'];
  expect(acao, '/mcp never answers CORS to any origin').not.toBe('*');
  if (refusedOrigin) {
    expect(res.status).toBe(403);
    expect(acao).toBeUndefined();
  } else if (origin !== undefined && res.status !== 400) {
    expect(acao).toBe(origin);
  }
  if (r.method === 'POST' && (res.status === 200 || res.status === 202)) {
    expect(Buffer.byteLength(body.text), 'a body over the cap is refused').toBeLessThanOrEqual(
      MAX_BODY,
    );
  }
  if (res.status === 204) {
    expect(r.method).toBe('OPTIONS');
    return;
  }
  if (res.streamed) {
    // A session's event stream: GET with a live session that accepts text/event-stream.
    expect(r.method).toBe('GET');
    expect(res.status).toBe(200);
    return;
  }
  if (res.status === 202 || (r.method === 'DELETE' && res.status === 200)) {
    expect(res.body.length).toBe(0);
    return;
  }
  expect(res.headers['content-type'], res.text.slice(0, 200)).toMatch(/^application\/json/);
  const json = jsonOf(res);
  if (res.status >= 400) {
    const error = expectRpcResponse(json);
    expect(error).not.toBeNull();
    expectNoEcho(error!.message, body.canaries);
    const id = (json as { id: unknown }).id;
    // Errors found once the body is read answer its id (a parse error has none to read).
    if (
      r.method === 'POST' &&
      !r.noHost &&
      error!.code !== -32700 &&
      [400, 404].includes(res.status)
    ) {
      const readable = readableId(body.text);
      if (readable !== null && !Array.isArray(JSON.parse(body.text)))
        expect(JSON.stringify(id)).toBe(JSON.stringify(readable));
    }
    if (res.status === 413) expect(Buffer.byteLength(body.text)).toBeGreaterThan(MAX_BODY);
    return;
  }
  expect(res.status).toBe(200);
  const answers = Array.isArray(json) ? json : [json];
  for (const a of answers) {
    const error = expectRpcResponse(a);
    if (error) expectNoEcho(error.message, body.canaries);
    const result = (a as { result?: { isError?: boolean; content?: { text?: string }[] } }).result;
    if (result?.isError)
      for (const c of result.content ?? []) expectNoEcho(c.text ?? '', body.canaries);
  }
}

describe('fuzz: JSON-RPC bodies to POST /mcp (and its headers and methods)', () => {
  it(
    'never answers 5xx or -32603; every error is a JSON-RPC error with the readable id; CORS only to the allowed origin; nothing changes',
    async () => {
      await checkBoundary(
        'MCP JSON-RPC bodies',
        fc.asyncProperty(mcpRequest(reviewIds), async (r) => {
          const body = r.body;
          // A DELETE ends its session: it gets a session of its own, so the others live on.
          const s = r.session;
          const fresh =
            r.method === 'DELETE' && s && 'version' in s && !('forge' in s)
              ? await initSession(svc.url, s.version)
              : null;
          const headers = headersOf(r, fresh);
          const res = await wire(svc.url, {
            method: r.method,
            target: '/mcp',
            headers,
            noHost: r.noHost,
            ...(r.method === 'POST' || r.method === 'DELETE' ? { body: body.text } : {}),
          });
          noteOutcome(res.status);
          expectAnswer(r, body, res, headers);
          await expectHealthy(svc.url, dataVersion);
          expect(await publishedFingerprint(store)).toBe(fingerprint);
        }),
        RUNS,
      );
    },
    timeoutOf(60_000),
  );
});

/** A message of a legacy batch, and what it must get back. */
interface BatchItem {
  message: Record<string, unknown>;
  /** `result` or `-32602` for a request; `null` for a notification or a response. */
  expects: 'result' | -32602 | null;
}

/** The messages of the batches below: cheap and heavy calls, invalid params, notifications. */
const batchItem = (id: fc.Arbitrary<string | number>): fc.Arbitrary<BatchItem> => {
  const request = (method: string, params?: Record<string, unknown>) =>
    id.map((i) => ({
      message: { jsonrpc: '2.0', id: i, method, ...(params ? { params } : {}) },
      expects: 'result' as const,
    }));
  return fc.oneof(
    request('ping'),
    request('tools/list', {}),
    fc
      .constantFrom('month', 'department', 'source')
      .chain((group_by) =>
        request('tools/call', { name: 'get_rating_summary', arguments: { group_by } }),
      ),
    request('tools/call', { name: 'get_insights', arguments: {} }),
    request('tools/call', { name: 'get_business', arguments: {} }),
    id.map((i) => ({
      message: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 5 } },
      expects: -32602 as const,
    })),
    fc.constant({
      message: { jsonrpc: '2.0', method: 'notifications/initialized' },
      expects: null,
    }),
    id.map((i) => ({ message: { jsonrpc: '2.0', id: i, result: {} }, expects: null })),
  );
};

describe('fuzz: JSON-RPC batches of a 2025-03-26 session (repeated ids, up to past the bound)', () => {
  it(
    'answers every request once, in order, whatever its id; refuses more than 100 messages whole',
    async () => {
      // A few ids only, so that they repeat.
      const id = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('a', 'b'));
      const batches = fc.oneof(
        { weight: 4, arbitrary: fc.array(batchItem(id), { minLength: 1, maxLength: 12 }) },
        { weight: 1, arbitrary: fc.array(batchItem(id), { minLength: 95, maxLength: 130 }) },
      );
      await checkBoundary(
        'MCP legacy batches',
        fc.asyncProperty(batches, async (items) => {
          const res = await wire(svc.url, {
            method: 'POST',
            target: '/mcp',
            headers: [
              ['Accept', ACCEPT],
              ['Content-Type', 'application/json'],
              ['Mcp-Session-Id', sessions.get('2025-03-26')!],
            ],
            body: JSON.stringify(items.map((i) => i.message)),
          });
          noteOutcome(res.status);
          const requests = items.filter((i) => i.expects !== null);
          if (items.length > 100) {
            expect(res.status).toBe(400);
            expect((jsonOf(res) as { error: unknown }).error).toEqual({
              code: -32600,
              message: 'Invalid Request: a batch holds at most 100 messages',
            });
          } else if (requests.length === 0) {
            expect(res.status).toBe(202);
          } else {
            expect(res.status, res.text.slice(0, 300)).toBe(200);
            const answers = jsonOf(res) as { id: unknown; result?: unknown; error?: RpcError }[];
            expect(answers.map((a) => a.id)).toEqual(requests.map((r) => r.message.id));
            answers.forEach((a, n) => {
              expectRpcResponse(a);
              if (requests[n]!.expects === 'result') expect(a.result).toBeDefined();
              else expect(a.error?.code).toBe(-32602);
            });
          }
          await expectHealthy(svc.url, dataVersion);
        }),
        40,
      );
    },
    timeoutOf(60_000),
  );
});
