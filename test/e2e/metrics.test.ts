import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_INVALID, loadConfig } from '../../src/config.js';
import { connectClient, toolCaller } from '../helpers/mcp.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';

/**
 * Prometheus metrics (issue 31, docs/metrics.md): on their own listener only, labelled by
 * declared routes and bounded values, fed as things happen.
 */

let svc: TestService;
let plain: TestService;

/** The metrics text of an instance. */
async function scrape(service: TestService): Promise<string> {
  const res = await fetch(`${service.metricsUrl}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

/** Every value of `label` in the samples of `metric` (`name{...} value` lines). */
function labelValues(text: string, metric: string, label: string): Set<string> {
  const values = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}{`)) continue;
    const m = new RegExp(`[{,]${label}="((?:[^"\\\\]|\\\\.)*)"`).exec(line);
    if (m) values.add(m[1]!);
  }
  return values;
}

/** The value of one sample, by its exact name and labels as printed. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  [svc, plain] = await Promise.all([
    startTestService({
      business: testBusiness(),
      reviews: testReviews(25),
      env: { METRICS_PORT: '0', WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8' },
    }),
    startTestService({ business: testBusiness(), reviews: testReviews(3) }),
  ]);
});

afterAll(async () => {
  await Promise.all([svc?.stop(), plain?.stop()]);
});

describe('the metrics listener', () => {
  it('is off unless METRICS_PORT is set, and then listens on 127.0.0.1 by default', () => {
    expect(plain.metricsUrl).toBeNull();
    expect(svc.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(svc.metricsUrl).not.toBe(svc.url);
  });

  it('serves GET /metrics in the Prometheus text format', async () => {
    const res = await fetch(`${svc.metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
    expect(text).toContain('# TYPE process_resident_memory_bytes gauge');
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });

  it('answers anything else with a JSON 404, and another method on /metrics with 405', async () => {
    for (const path of ['/', '/healthz', '/reviews.json', '/metrics/x']) {
      const res = await fetch(`${svc.metricsUrl}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ error: 'not_found' });
    }
    const post = await fetch(`${svc.metricsUrl}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('is never served on the public port, metrics on or off', async () => {
    for (const service of [svc, plain]) {
      const res = await fetch(`${service.url}/metrics`, { headers: { Accept: 'text/plain' } });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('http_request_duration_seconds');
    }
  });

  it('refuses a bad METRICS_PORT, or the public PORT again, in one line', () => {
    const env = { DATABASE_URL: 'sqlite:/tmp/x.db' };
    for (const bad of [{ METRICS_PORT: 'nine' }, { METRICS_PORT: '70000' }]) {
      expect(() => loadConfig({ ...env, ...bad })).toThrow(
        expect.objectContaining({
          code: CONFIG_INVALID,
          message: expect.stringMatching(/^invalid METRICS_PORT=/),
        }),
      );
    }
    expect(() => loadConfig({ ...env, PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      'invalid METRICS_PORT="8080": must differ from PORT',
    );
    expect(loadConfig({ ...env, METRICS_PORT: '9464' }).metrics).toEqual({
      host: '127.0.0.1',
      port: 9464,
    });
    expect(loadConfig(env).metrics).toBeNull();
  });
});

describe('the request histogram', () => {
  it('labels each request with its declared route, never the raw path, id or query', async () => {
    const tokens = ['zq81x', 'secret-id-4471', 'xy.example.org', '10.9.8.7'];
    const paths = [
      `/api/reviews/search?q=${tokens[0]}`,
      `/api/reviews/since/2025-01-01?x=${tokens[1]}`,
      `/api/reviews/since/${tokens[1]}`,
      `/reviews/${tokens[1]}`,
      `/${tokens[2]}/${tokens[3]}`,
      `/nothing-here-${tokens[0]}`,
      '/reviews.json',
    ];
    for (const path of paths) await (await fetch(`${svc.url}${path}`)).arrayBuffer();
    const text = await scrape(svc);
    const routes = labelValues(text, 'http_request_duration_seconds_count', 'route');
    expect(routes).toContain('/api/reviews/search');
    expect(routes).toContain('/api/reviews/since/{date}');
    expect(routes).toContain('/reviews.json');
    expect(routes).toContain('unmatched');
    for (const token of tokens) expect(text).not.toContain(token);
    for (const route of routes) expect(route).not.toMatch(/[?#]/);
  });

  it('keeps the label values bounded, whatever the requests', async () => {
    const before = labelValues(await scrape(svc), 'http_request_duration_seconds_count', 'route');
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${svc.url}/x${i}/api/reviews/${i}?since=${i}&q=${'a'.repeat(i)}`).then((r) =>
          r.arrayBuffer(),
        ),
      ),
    );
    const text = await scrape(svc);
    const routes = labelValues(text, 'http_request_duration_seconds_count', 'route');
    expect([...routes].filter((r) => !before.has(r))).toEqual([]);
    for (const route of routes) expect(route === 'unmatched' || route.startsWith('/')).toBe(true);
    const methods = labelValues(text, 'http_request_duration_seconds_count', 'method');
    for (const m of methods)
      expect(['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS', 'other']).toContain(m);
  });

  it('counts a request as it is answered, with its status', async () => {
    const series =
      'http_request_duration_seconds_count{route="/healthz",method="GET",status="200"}';
    const before = sample(await scrape(svc), series) ?? 0;
    for (let i = 0; i < 3; i++) await (await fetch(`${svc.url}/healthz`)).arrayBuffer();
    expect(sample(await scrape(svc), series)).toBe(before + 3);
  });
});

describe('the service metrics', () => {
  it('say which data version is served, how many reviews and how old', async () => {
    const text = await scrape(svc);
    expect(sample(text, 'dealer_reviews_data_version')).toBe(svc.publisher.current().state.version);
    expect(sample(text, 'dealer_reviews_reviews')).toBe(25);
    expect(sample(text, 'dealer_reviews_data_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'dealer_reviews_version_build_seconds_count')).toBeGreaterThanOrEqual(1);
  });

  it('count MCP tool calls by tool and outcome, an unknown tool under "other"', async () => {
    const { client, transport } = await connectClient(svc.url);
    try {
      const call = toolCaller(() => client);
      await call('get_business');
      await call('get_business');
      const bad = await client
        .callTool({ name: 'get_review', arguments: { id: 'no-such-review-5521' } })
        .catch((err: unknown) => err);
      expect(bad).toBeTruthy();
      await client.callTool({ name: 'no_such_tool_8812', arguments: {} }).catch(() => null);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
    const text = await scrape(svc);
    expect(sample(text, 'dealer_reviews_mcp_calls_total{tool="get_business",outcome="ok"}')).toBe(
      2,
    );
    const tools = labelValues(text, 'dealer_reviews_mcp_calls_total', 'tool');
    expect([...tools].sort()).toEqual(['get_business', 'get_review', 'other']);
    const outcomes = labelValues(text, 'dealer_reviews_mcp_calls_total', 'outcome');
    expect(outcomes).toContain('invalid_params');
    expect(text).not.toContain('no_such_tool_8812');
    expect(text).not.toContain('no-such-review-5521');
    expect(
      sample(text, 'dealer_reviews_mcp_sessions_total{event="started"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'dealer_reviews_mcp_sessions_total{event="ended"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, 'dealer_reviews_mcp_streams{kind="session"}')).toBe(svc.mcpStreams());
  });

  it('show the WebSub queues and the store faults from the first scrape, at zero', async () => {
    const text = await scrape(svc);
    expect(sample(text, 'dealer_reviews_websub_subscribers')).toBe(0);
    expect(sample(text, 'dealer_reviews_websub_queue_depth{queue="deliveries"}')).toBe(0);
    expect(sample(text, 'dealer_reviews_websub_deliveries_total{outcome="delivered"}')).toBe(0);
    for (const kind of ['busy', 'unreachable', 'conflict', 'deadline', 'other']) {
      expect(sample(text, `dealer_reviews_store_errors_total{kind="${kind}"}`), kind).toBe(0);
    }
  });

  it('count a store fault by kind: a write that meets the write lock of another process is busy', async () => {
    const busy = 'dealer_reviews_store_errors_total{kind="busy"}';
    const answered503 =
      'http_request_duration_seconds_count{route="/api/websub/hub",method="POST",status="503"}';
    const before = await scrape(svc);
    const db = new Database(svc.databaseUrl.slice('sqlite:'.length));
    db.exec('BEGIN IMMEDIATE');
    let status: number;
    try {
      const form = new URLSearchParams({
        'hub.mode': 'subscribe',
        'hub.topic': `${TEST_BASE_URL}/feed.xml`,
        'hub.callback': 'https://127.0.0.1:9/metrics-test',
      });
      const res = await fetch(`${svc.url}/api/websub/hub`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      status = res.status;
      await res.arrayBuffer();
    } finally {
      db.exec('ROLLBACK');
      db.close();
    }
    expect(status).toBe(503);
    const after = await scrape(svc);
    expect(sample(after, busy)).toBeGreaterThan(sample(before, busy)!);
    expect(sample(after, answered503)).toBe((sample(before, answered503) ?? 0) + 1);
  });
});
