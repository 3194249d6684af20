import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { initializeRequest, initSession, rpc } from '../helpers/mcp.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';

/**
 * Another process (an import, an operator's tool) holds the store's write lock. The service's
 * reads (MCP sessions, the data) must not queue behind it, and the writes it makes for requests
 * must not wait for it: a rate counter lets the request through uncounted, a write the request
 * needs is a 503 with Retry-After. Every request below is sent, and answered, while the lock is
 * still held: the lock is released only once they all have their answer.
 */

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    business: testBusiness(),
    reviews: testReviews(30),
    env: { WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8' },
  });
});
afterAll(() => svc.stop());

/** Holds SQLite's write lock from this process, as an import's commit (or a stuck tool) does. */
function holdWriteLock(): () => void {
  const db = new Database(svc.databaseUrl.slice('sqlite:'.length));
  db.exec('BEGIN IMMEDIATE');
  return () => {
    db.exec('ROLLBACK');
    db.close();
  };
}

/** Fails a request that is still waiting long after it should have been answered (a hang). */
function answeredWhileLocked<T>(what: string, p: Promise<T>): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} still waits for the lock`)), 25_000),
    ),
  ]);
}

const hubForm = (callback: string) =>
  new URLSearchParams({
    'hub.mode': 'subscribe',
    'hub.topic': `${TEST_BASE_URL}/feed.xml`,
    'hub.callback': callback,
  }).toString();

function hubPost(callback: string) {
  return http(`${svc.url}/api/websub/hub`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: hubForm(callback),
  });
}

describe('while another process holds the store write lock', () => {
  it('reads answer, a rate counter does not hold a request, and writes a request needs are 503 with Retry-After', async () => {
    const session = await initSession(svc.url);
    const headers = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-06-18' };
    const release = holdWriteLock();
    try {
      const [initialize, call, setLevel, hub, health] = await answeredWhileLocked(
        'a request',
        Promise.all([
          rpc(svc.url, initializeRequest('2025-06-18', 'locked')),
          rpc(
            svc.url,
            {
              jsonrpc: '2.0',
              id: 2,
              method: 'tools/call',
              params: { name: 'get_business', arguments: {} },
            },
            headers,
          ),
          rpc(
            svc.url,
            { jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'debug' } },
            headers,
          ),
          hubPost('https://127.0.0.1:9/locked'),
          http(`${svc.url}/healthz`),
        ]),
      );
      // A session needs no write: initialize passes, its rate counter uncounted.
      expect(initialize.status).toBe(200);
      expect(initialize.headers.get('mcp-session-id')).toBeTruthy();
      // A session's reads do not queue behind the lock.
      expect(call.status).toBe(200);
      expect((call.json as { result?: { isError?: boolean } }).result?.isError).toBeFalsy();
      // A session setting must be written: refused in a moment, with a reason and when to retry
      // (a server error of its own, -32000, not the SDK's -32603 Internal error).
      expect(setLevel.json).toMatchObject({
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32000, data: { retryAfterSeconds: 2 } },
      });
      expect((setLevel.json as { error: { message: string } }).error.message).toMatch(
        /try again in a moment/,
      );
      // A WebSub request must be queued in the store: 503 with Retry-After.
      expect(hub.status).toBe(503);
      expect(hub.headers['retry-after']).toBe('2');
      expect(health.status).toBe(200);
    } finally {
      release();
    }
    // Once the lock is free, the same writes go through.
    const again = await rpc(
      svc.url,
      { jsonrpc: '2.0', id: 4, method: 'logging/setLevel', params: { level: 'debug' } },
      headers,
    );
    expect(again.status).toBe(200);
    expect((again.json as { error?: unknown }).error).toBeUndefined();
    expect((await hubPost('https://127.0.0.1:9/unlocked')).status).toBe(202);
  });

  it('a DELETE of an MCP session is a JSON-RPC 503 with Retry-After, then works once the lock is free', async () => {
    const session = await initSession(svc.url);
    const del = () =>
      fetch(`${svc.url}/mcp`, {
        method: 'DELETE',
        headers: { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-06-18' },
      });
    const release = holdWriteLock();
    try {
      const res = await answeredWhileLocked('DELETE /mcp', del());
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      const body = (await res.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32000);
      expect(body.error.message).toMatch(/writing to the store/);
    } finally {
      release();
    }
    expect((await del()).status).toBe(200);
  });
});
