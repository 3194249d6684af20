/**
 * The 2026-07-28 era on `POST /mcp`, over raw HTTP: stateless requests validated as the revision
 * says, `server/discover`, `resultType`, cache hints, and `subscriptions/listen` streams that
 * acknowledge first, honour the filter, tag frames with the subscription id and hear of an import
 * made by another process, on either of two instances sharing the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_CACHE_CONTROL } from '../../src/http/respond.js';
import { DATA_TTL_MS, SURFACE_TTL_MS } from '../../src/mcp/cache-hints.js';
import type { RunningService } from '../../src/service.js';
import { freshReview, ingestInAnotherProcess, waitUntil } from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { rpc } from '../helpers/mcp.js';
import {
  startInstanceOn,
  startTestService,
  TEST_BASE_URL,
  type TestService,
} from '../helpers/service.js';

let svc: TestService;
let second: RunningService;

const REVIEWS = `${TEST_BASE_URL}/reviews.json`;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const HEADERS = { 'MCP-Protocol-Version': '2026-07-28' };

/** A 2026-07-28 request: `_meta` envelope and the headers the revision asks for. */
function request(method: string, params: Record<string, unknown> = {}, id: number = 1) {
  const name = (params.name ?? params.uri) as string | undefined;
  return {
    body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } },
    headers: { ...HEADERS, 'Mcp-Method': method, ...(name ? { 'Mcp-Name': name } : {}) },
  };
}

async function call(base: string, method: string, params: Record<string, unknown> = {}) {
  const r = request(method, params);
  return rpc(base, r.body, r.headers);
}

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(20) });
  second = await startInstanceOn(svc.databaseUrl);
});
afterAll(async () => {
  await second.close();
  await svc.stop();
});

describe('2026-07-28 stateless requests', () => {
  it('answers server/discover with the versions, capabilities, server info and instructions', async () => {
    const res = await call(svc.url, 'server/discover');
    expect(res.status).toBe(200);
    const result = (res.json as Answer).result!;
    expect(result.supportedVersions).toContain('2026-07-28');
    expect(result).toMatchObject({
      resultType: 'complete',
      capabilities: { tools: {}, resources: { subscribe: true, listChanged: true } },
      // Server info travels in every 2026 result's _meta.
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'dealer-reviews' } },
      cacheScope: 'public',
      ttlMs: DATA_TTL_MS,
    });
    expect(result.instructions).toMatch(/search_reviews/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it('answers any request on any instance, with no session, and resultType on every result', async () => {
    for (const base of [svc.url, second.url]) {
      const res = await call(base, 'tools/call', {
        name: 'search_reviews',
        arguments: { limit: 2 },
      });
      expect(res.status).toBe(200);
      const result = (res.json as Answer).result!;
      expect(result.resultType).toBe('complete');
      expect((result.structuredContent as { reviews: unknown[] }).reviews).toHaveLength(2);
    }
  });

  it('gives lists and reads public cache hints that follow the service freshness policy', async () => {
    expect(DATA_CACHE_CONTROL).toContain(`max-age=${DATA_TTL_MS / 1000}`);
    const expected: [string, Record<string, unknown>, number][] = [
      ['tools/list', {}, SURFACE_TTL_MS],
      ['prompts/list', {}, SURFACE_TTL_MS],
      ['resources/templates/list', {}, SURFACE_TTL_MS],
      ['resources/list', {}, DATA_TTL_MS],
      ['resources/read', { uri: `${TEST_BASE_URL}/api/feed.json` }, DATA_TTL_MS],
    ];
    for (const [method, params, ttlMs] of expected) {
      const result = ((await call(svc.url, method, params)).json as Answer).result!;
      expect({ method, ttlMs: result.ttlMs, scope: result.cacheScope }).toEqual({
        method,
        ttlMs,
        scope: 'public',
      });
    }
  });

  it('refuses a request without the _meta keys (-32602) and headers that disagree with the body (400, -32020)', async () => {
    const bare = await rpc(
      svc.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: {} } },
      { ...HEADERS, 'Mcp-Method': 'tools/list' },
    );
    expect((bare.json as Answer).error?.code).toBe(-32602);
    const r = request('tools/list');
    const mismatch = await rpc(svc.url, r.body, { ...r.headers, 'Mcp-Method': 'prompts/list' });
    expect(mismatch.status).toBe(400);
    expect((mismatch.json as Answer).error?.code).toBe(-32020);
  });

  it('answers methods the revision removed with 404 and -32601', async () => {
    const res = await call(svc.url, 'resources/subscribe', { uri: REVIEWS });
    expect(res.status).toBe(404);
    expect((res.json as Answer).error?.code).toBe(-32601);
  });

  it('keeps the Origin rules for 2026 requests', async () => {
    const r = request('tools/list');
    const res = await rpc(svc.url, r.body, { ...r.headers, Origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });
});

/** Reads the SSE frames of a listen stream as they come. */
async function openListen(base: string, notifications: Record<string, unknown>) {
  const r = request('subscriptions/listen', { notifications }, 9);
  const abort = new AbortController();
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...r.headers,
    },
    body: JSON.stringify(r.body),
    signal: abort.signal,
  });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const frames: { method?: string; params?: Record<string, unknown> }[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for await (const chunk of res.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('');
          if (data) frames.push(JSON.parse(data) as (typeof frames)[number]);
        }
      }
    } catch {
      // aborted
    }
  })();
  return { frames, close: () => abort.abort() };
}

describe('subscriptions/listen', () => {
  it('acknowledges first, tags frames with the subscription id, and hears of an import on either instance', async () => {
    const streams = await Promise.all(
      [svc.url, second.url].map((base) => openListen(base, { resourceSubscriptions: [REVIEWS] })),
    );
    for (const s of streams) {
      await waitUntil(() => s.frames.length > 0, 'the acknowledgement');
      expect(s.frames[0]!.method).toBe('notifications/subscriptions/acknowledged');
    }
    expect(await ingestInAnotherProcess(svc.databaseUrl, [freshReview()])).toBe(0);
    for (const s of streams) {
      const updated = await waitUntil(
        () => s.frames.find((f) => f.method === 'notifications/resources/updated'),
        'notifications/resources/updated',
      );
      expect(updated.params).toMatchObject({ uri: REVIEWS });
      const meta = updated.params!._meta as Record<string, unknown>;
      expect(meta['io.modelcontextprotocol/subscriptionId']).toBeDefined();
      // Only what the filter asked for: no list changes, no other documents.
      for (const f of s.frames.slice(1)) {
        expect(f.method).toBe('notifications/resources/updated');
        expect(f.params?.uri).toBe(REVIEWS);
      }
      s.close();
    }
  });
});
