import {
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/service.js';
import { freshReview, ingestInAnotherProcess, waitUntil } from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { connectClient, initSession, rpc } from '../helpers/mcp.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';

let svc: TestService;
let second: RunningService;

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(20) });
  // A second instance on the same store: subscriptions made there reach streams held here.
  second = await startService(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: TEST_BASE_URL,
      DATABASE_URL: svc.databaseUrl,
      SAMPLE_DATA: 'off',
      LOG_LEVEL: 'silent',
      DATA_POLL_MS: '100',
    }),
    createLogger('silent'),
  );
});
afterAll(async () => {
  await second.close();
  await svc.stop();
});

const REVIEWS = `${TEST_BASE_URL}/reviews.json`;
const INSIGHTS = `${TEST_BASE_URL}/insights.json`;

interface Heard {
  updated: string[];
  logs: { version: number; changed: string[] }[];
  listChanged: number;
}

describe('resource subscriptions (issue 17)', () => {
  it('declares subscribe and listChanged, and refuses subscriptions to unknown resources', async () => {
    const { client } = await connectClient(svc.url);
    expect(client.getServerCapabilities()?.resources).toEqual({
      subscribe: true,
      listChanged: true,
    });
    await expect(client.subscribeResource({ uri: 'https://elsewhere.example/x' })).rejects.toThrow(
      /not found/i,
    );
    await client.close();
  });

  it('tells a session of the documents it subscribed to when an import changes them, over its GET stream, whichever instance took the subscription', async () => {
    const { client, transport } = await connectClient(svc.url);
    const heard: Heard = { updated: [], logs: [], listChanged: 0 };
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      heard.updated.push(n.params.uri);
    });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      heard.listChanged++;
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      heard.logs.push(n.params.data as Heard['logs'][number]);
    });
    // The stream is opened by the client after initialization, on this instance.
    await waitUntil(() => svc.mcpStreams() === 1 || undefined, 'the event stream');

    // Subscribe through the other instance, with the same session.
    const viaSecond = await rpc(
      second.url,
      { jsonrpc: '2.0', id: 7, method: 'resources/subscribe', params: { uri: REVIEWS } },
      { 'Mcp-Session-Id': transport.sessionId!, 'Mcp-Protocol-Version': '2025-06-18' },
    );
    expect(viaSecond.json).toEqual({ jsonrpc: '2.0', id: 7, result: {} });

    const version = svc.publisher.current().state.version;
    expect(await ingestInAnotherProcess(svc.databaseUrl, [freshReview()])).toBe(0);
    // The log message of the new version comes after any update notification of that version.
    await waitUntil(
      () => heard.logs.find((l) => l.version > version && l.changed.includes(INSIGHTS)),
      'the log messages of the new version',
    );
    expect(heard.updated).toEqual([REVIEWS]);
    expect(heard.listChanged).toBe(0);

    // Unsubscribed (and a quieter log level): the next import is heard of no more.
    await client.unsubscribeResource({ uri: REVIEWS });
    await client.subscribeResource({ uri: INSIGHTS });
    await client.setLoggingLevel('warning');
    const next = svc.publisher.current().state.version;
    expect(await ingestInAnotherProcess(svc.databaseUrl, [freshReview()])).toBe(0);
    await waitUntil(() => heard.updated.includes(INSIGHTS) || undefined, 'the insights update');
    expect(heard.updated).toEqual([REVIEWS, INSIGHTS]);
    expect(heard.logs.every((l) => l.version <= next)).toBe(true);
    await client.close();
  });

  it('ends the streams of a session deleted on another instance, and refuses a stream to an unknown session', async () => {
    const { client, transport } = await connectClient(svc.url);
    await waitUntil(() => svc.mcpStreams() >= 1 || undefined, 'the event stream');
    const before = svc.mcpStreams();
    const del = await fetch(`${second.url}/mcp`, {
      method: 'DELETE',
      headers: { 'Mcp-Session-Id': transport.sessionId! },
    });
    expect(del.status).toBe(200);
    // The instance holding the stream learns of the end at the next change.
    expect(await ingestInAnotherProcess(svc.databaseUrl, [freshReview()])).toBe(0);
    await waitUntil(() => svc.mcpStreams() < before || undefined, 'the stream to end');
    const unknown = await fetch(`${svc.url}/mcp`, {
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': 'nope.nope' },
    });
    expect(unknown.status).toBe(404);
    await client.close().catch(() => undefined);
  });

  it('keeps subscriptions to the session: another session hears nothing of them', async () => {
    const id = await initSession(svc.url);
    const res = await rpc(
      svc.url,
      { jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: REVIEWS } },
      { 'Mcp-Session-Id': id },
    );
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    const other = await initSession(svc.url);
    const stillFine = await rpc(
      svc.url,
      { jsonrpc: '2.0', id: 4, method: 'resources/unsubscribe', params: { uri: REVIEWS } },
      { 'Mcp-Session-Id': other },
    );
    expect(stillFine.json).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    // The store keeps them under the session's key (the random first field of its signed id).
    const keyOf = (sessionId: string): string =>
      (JSON.parse(Buffer.from(sessionId.split('.')[0]!, 'base64url').toString()) as string[])[0]!;
    expect(await svc.store.sessions.subscriptions(keyOf(id), Date.now())).toEqual([REVIEWS]);
    expect(await svc.store.sessions.subscriptions(keyOf(other), Date.now())).toEqual([]);
  });
});

describe('resource metadata (issue 17)', () => {
  it('lists each document with its byte size, audience, priority and last change, as HTTP serves it', async () => {
    // The tests above import: let the insights of the last version arrive, so that the listing
    // and the GETs below read the same documents.
    await svc.publisher.settled();
    const { client } = await connectClient(svc.url);
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThanOrEqual(3);
    for (const r of resources) {
      const res = await http(`${svc.url}${new URL(r.uri).pathname}`, {
        headers: { 'Accept-Encoding': 'identity' },
      });
      expect(r.size, r.uri).toBe(res.body.length);
      expect(r.annotations?.audience).toEqual(['user', 'assistant']);
      expect(r.annotations?.priority).toBeGreaterThan(0);
      // HTTP dates have whole seconds.
      expect(Math.floor(Date.parse(r.annotations!.lastModified!) / 1000) * 1000).toBe(
        Date.parse(res.headers['last-modified'] as string),
      );
      expect(r.description).toMatch(/\d+ (KB|MB)\.$/);
    }
    await client.close();
  });
});
