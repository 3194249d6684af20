import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initSession } from '../../test/helpers/mcp.js';
import { createApp } from '../app.js';
import { serviceUrls } from '../catalogue.js';
import { Business } from '../domain/business.js';
import { buildSnapshot } from '../snapshot/index.js';
import type { Published, Snapshot } from '../snapshot/index.js';
import { openStore, type Store } from '../store/index.js';
import { McpResultCache, toolResultKey } from './result-cache.js';
import { mcpRoutes } from './endpoint/route.js';
import { createMcpServerFactory } from './server.js';
import { createSessionManager } from './sessions.js';
import { createStreams } from './streams.js';

const urls = serviceUrls('http://127.0.0.1');

/** A snapshot of data version `version` whose business is called `name`. */
function snapshotOf(version: number, name: string): Snapshot {
  return buildSnapshot(
    {
      state: { version, changedAt: `2030-01-0${version}T00:00:00.000Z` },
      business: Business.parse({
        id: 'biz',
        name,
        url: 'https://dealer.example',
        address: {
          streetAddress: '1 Main St',
          addressLocality: 'Springfield',
          addressRegion: 'IL',
          postalCode: '62701',
          addressCountry: 'US',
        },
        timeZone: 'America/Chicago',
      }),
      reviews: [],
    },
    {
      urls,
      hub: false,
      responseCache: { maxEntries: 100, maxBytes: 1_000_000 },
      insights: '{}',
    },
  );
}

describe('the MCP result cache', () => {
  let dir: string;
  let store: Store;
  let server: Server;
  let url: string;
  let live: Snapshot;
  let next: Snapshot | null = null;
  /** SDK servers built so far (one per request the cache did not answer). */
  let built = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-cache-'));
    store = openStore(`sqlite:${join(dir, 'reviews.db')}`);
    live = await snapshotOf(1, 'Version One Motors');
    const published: Published = { current: () => live, onChange: () => () => undefined };
    const factory = createMcpServerFactory({ urls, version: '0.0.0', sessions: store.sessions });
    const routes = mcpRoutes({
      // A new data version goes live while the request is being served: right after its server
      // was built over the version it started with.
      createServer: (snapshot, request) => {
        built++;
        const server = factory(snapshot, request);
        if (next) [live, next] = [next, null];
        return server;
      },
      published,
      streams: createStreams({
        sessions: store.sessions,
        urls,
        logger: pino({ level: 'silent' }),
        idleMs: 300_000,
        perAddress: 32,
      }),
      resultCache: new McpResultCache(),
      sessions: await createSessionManager(store.sessions, { ttlSeconds: 600, secret: null }),
      allowedOrigins: [],
      maxBodyBytes: 65_536,
      logger: pino({ level: 'silent' }),
    });
    server = createServer(createApp({ routes, logger: pino({ level: 'silent' }) }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const businessName = async (client: Client): Promise<unknown> => {
    const result = await client.callTool({ name: 'get_business', arguments: {} });
    return (result.structuredContent as { business: { name: string } }).business.name;
  };

  it('keeps a result under the version it was computed from, even when a change lands mid-request', async () => {
    const client = new Client({ name: 'cache-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      next = await snapshotOf(2, 'Version Two Motors');
      // Served from version 1 (the version live when the request came in)...
      expect(await businessName(client)).toBe('Version One Motors');
      // ...and version 2, live now, answers from its own data, not from version 1's result.
      expect(await businessName(client)).toBe('Version Two Motors');
      // Repeated, it is answered from the cache of version 2.
      expect(await businessName(client)).toBe('Version Two Motors');
    } finally {
      await client.close();
    }
  });

  it('keeps the result of each call of a (legacy) batch, so a call repeated in it is computed once', async () => {
    const headers = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    };
    const session = await initSession(url.slice(0, -'/mcp'.length), '2025-03-26');
    const call = (id: number, group_by: string) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_rating_summary', arguments: { group_by } },
    });
    const batch = [call(1, 'month'), call(2, 'month'), call(3, 'source')];
    const before = built;
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-03-26' },
      body: JSON.stringify(batch),
    });
    const answers = (await res.json()) as { id: number; result: unknown }[];
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(answers[1]!.result).toEqual(answers[0]!.result);
    // Two distinct calls: two SDK servers; the repeated one came from the cache.
    expect(built - before).toBe(2);
    const cache = new McpResultCache();
    for (const m of batch) expect(cache.lookup(live, m)?.response).not.toBeNull();
  });

  it('keeps the result of a 2026-07-28 tool call with its version, so a repeated call is computed once', async () => {
    const params = { name: 'get_rating_summary', arguments: { group_by: 'source' } };
    const call = async (id: number) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/call',
          'Mcp-Name': params.name,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
      return ((await res.json()) as { result: Record<string, unknown> }).result;
    };
    const key = toolResultKey(params);
    expect(live.responses.get(key)).toBeUndefined();
    const first = await call(1);
    const kept = live.responses.get(key);
    expect(kept).toBeDefined();
    const second = await call(2);
    // Answered from what was kept: the same result, and the entry was not replaced.
    expect(live.responses.get(key)).toBe(kept);
    expect(second.structuredContent).toEqual(first.structuredContent);
    expect(second.resultType).toBe('complete');
  });
});
