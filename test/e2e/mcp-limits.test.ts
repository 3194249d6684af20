import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { initializeRequest, initSession, rpc } from '../helpers/mcp.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';

let svc: TestService;
let second: RunningService;

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
});
afterAll(async () => {
  await second.close();
  await svc.stop();
});

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
