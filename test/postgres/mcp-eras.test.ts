/**
 * The MCP clients users run, against two instances on one PostgreSQL database, each request sent
 * to the other instance in turn (a load balancer without sticky sessions): the SDK v2 client
 * pinned to 2026-07-28, in `auto` mode and in its default mode (the 2025 handshake), and the 1.x
 * client. Each lists the tools, calls `search_reviews`, reads a resource and hears of a new review
 * after an import made by another process.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freshReview,
  ingestInAnotherProcess,
  startChildService,
  waitUntil,
  type ChildService,
} from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { seedStore, TEST_BASE_URL } from '../helpers/service.js';
import { systemDatabaseUrl } from '../system/database.js';

const REVIEWS = `${TEST_BASE_URL}/reviews.json`;

let pgUrl: string;
let cleanup: (() => Promise<void>) | undefined;
let instances: ChildService[] = [];

beforeAll(async () => {
  ({ url: pgUrl, cleanup } = await systemDatabaseUrl(''));
  await seedStore(pgUrl, testBusiness(), testReviews(30));
  instances = await Promise.all([0, 1].map(() => startChildService({ databaseUrl: pgUrl })));
});

afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await cleanup?.();
});

/** Which instance each POST went to, in order. */
interface Balancer {
  fetch: typeof fetch;
  posts: number[];
}

/** A `fetch` that sends each request to the next instance (round robin). */
function roundRobin(): Balancer {
  let next = 0;
  const posts: number[] = [];
  return {
    posts,
    fetch: (input, init) => {
      const i = next++ % instances.length;
      if (init?.method === 'POST') posts.push(i);
      const url = new URL(String(input instanceof Request ? input.url : input));
      const target = new URL(instances[i]!.url);
      url.protocol = target.protocol;
      url.host = target.host;
      return fetch(url, init);
    },
  };
}

type Mode = 'pinned' | 'auto' | 'default';

function v2Client(mode: Mode): Client {
  const negotiation =
    mode === 'pinned'
      ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
      : mode === 'auto'
        ? { versionNegotiation: { mode: 'auto' as const } }
        : {};
  return new Client({ name: `tests-v2-${mode}`, version: '1.0.0' }, negotiation);
}

/** The id of a review `search_reviews` found (its structured result). */
function firstId(result: object): string {
  const { structuredContent } = result as { structuredContent?: { reviews: { id: string }[] } };
  const reviews = structuredContent!.reviews;
  expect(reviews.length).toBeGreaterThan(0);
  return reviews[0]!.id;
}

describe('the SDK v2 client (@modelcontextprotocol/client)', () => {
  for (const mode of ['pinned', 'auto', 'default'] as const) {
    it(`${mode}: lists, calls, reads and hears of an import across two instances`, async () => {
      const lb = roundRobin();
      const client = v2Client(mode);
      const transport = new StreamableHTTPClientTransport(new URL(`${TEST_BASE_URL}/mcp`), {
        fetch: lb.fetch,
      });
      await client.connect(transport);
      const modern = mode !== 'default';
      expect(client.getNegotiatedProtocolVersion()).toBe(modern ? '2026-07-28' : '2025-11-25');

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search_reviews');
      const found = await client.callTool({ name: 'search_reviews', arguments: { limit: 3 } });
      expect(found.isError).toBeFalsy();
      const id = firstId(found);
      const read = await client.readResource({ uri: `review://${id}` });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id });
      // Consecutive requests went to both instances.
      expect(new Set(lb.posts)).toEqual(new Set([0, 1]));

      const heard: string[] = [];
      client.setNotificationHandler('notifications/resources/updated', (n) => {
        heard.push(n.params.uri);
      });
      const subscription = modern
        ? await client.listen({ resourceSubscriptions: [REVIEWS] })
        : (await client.subscribeResource({ uri: REVIEWS }), null);
      if (subscription) expect(subscription.honoredFilter.resourceSubscriptions).toEqual([REVIEWS]);
      expect(await ingestInAnotherProcess(pgUrl, [freshReview()])).toBe(0);
      await waitUntil(() => heard.includes(REVIEWS), 'notifications/resources/updated');
      await subscription?.close();
      await client.close();
    });
  }
});

describe('the SDK 1.x client (@modelcontextprotocol/sdk)', () => {
  it('lists, calls, reads and hears of an import across two instances (2025-11-25)', async () => {
    const lb = roundRobin();
    const client = new V1Client({ name: 'tests-v1', version: '1.0.0' });
    const transport = new V1Transport(new URL(`${TEST_BASE_URL}/mcp`), { fetch: lb.fetch });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('search_reviews');
    const found = await client.callTool({ name: 'search_reviews', arguments: { limit: 3 } });
    const id = firstId(found);
    const read = await client.readResource({ uri: `review://${id}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id });
    expect(new Set(lb.posts)).toEqual(new Set([0, 1]));

    const heard: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      heard.push(n.params.uri);
    });
    await client.subscribeResource({ uri: REVIEWS });
    expect(await ingestInAnotherProcess(pgUrl, [freshReview()])).toBe(0);
    await waitUntil(() => heard.includes(REVIEWS), 'notifications/resources/updated');
    await client.close();
  });
});
