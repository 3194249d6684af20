import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  startChildService,
  waitUntil,
  type ChildService,
} from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { gbpReview } from '../helpers/gbp-stand-in.js';
import { connectClient, toolCaller } from '../helpers/mcp.js';
import { seedStore } from '../helpers/service.js';
import { systemDatabaseUrl } from './database.js';

/**
 * A real Prometheus (Debian's `prometheus`) scraping two instances on one PostgreSQL database,
 * as deploy/prometheus/prometheus.yml does (issue 31): a series of every metric the issue
 * requires appears in its API, and `promtool check metrics` accepts a scrape.
 */

/** The metrics the issue asks for; a histogram by its `_count` series. */
const REQUIRED = [
  'http_request_duration_seconds_count',
  'nodejs_eventloop_lag_p99_seconds',
  'nodejs_heap_size_used_bytes',
  'process_resident_memory_bytes',
  'nodejs_gc_duration_seconds_count',
  'dealer_reviews_data_version',
  'dealer_reviews_data_age_seconds',
  'dealer_reviews_reviews',
  'dealer_reviews_version_build_seconds_count',
  'dealer_reviews_websub_subscribers',
  'dealer_reviews_websub_queue_depth',
  'dealer_reviews_websub_deliveries_total',
  'dealer_reviews_mcp_calls_total',
  'dealer_reviews_mcp_sessions_total',
  'dealer_reviews_mcp_streams',
  'dealer_reviews_sync_runs_total',
  'dealer_reviews_sync_last_success_timestamp_seconds',
  'dealer_reviews_store_errors_total',
];

let dir = '';
let cleanupDatabase: () => Promise<void>;
let exportServer: Server;
const instances: { svc: ChildService; metrics: string }[] = [];
let prometheus: ChildProcess;
let prometheusUrl = '';

/** A watched export URL for the review sources (`SYNC_URLS`), served by this process. */
async function serveExport(): Promise<string> {
  const body = JSON.stringify({
    reviews: ['m1', 'm2'].map((id) => gbpReview(id, '2025-03-01T10:00:00.000Z')),
  });
  exportServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => exportServer.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(exportServer.address() as AddressInfo).port}/reviews.json`;
}

async function startInstance(databaseUrl: string, exportUrl: string) {
  const port = await freePort();
  const svc = await startChildService({
    databaseUrl,
    env: {
      METRICS_PORT: String(port),
      SYNC_URLS: exportUrl,
      SYNC_ALLOW_CIDRS: '127.0.0.1/32',
      SYNC_INTERVAL_SECONDS: '2',
    },
  });
  instances.push({ svc, metrics: `127.0.0.1:${port}` });
}

/** Starts Prometheus on a free port, with its own configuration and storage in `dir`. */
async function startPrometheus(): Promise<void> {
  const port = await freePort();
  const targets = instances.map((i) => `'${i.metrics}'`).join(', ');
  writeFileSync(
    join(dir, 'prometheus.yml'),
    `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: dealer-reviews\n    static_configs:\n      - targets: [${targets}]\n`,
  );
  prometheus = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: 'ignore' },
  );
  prometheusUrl = `http://127.0.0.1:${port}`;
  await waitUntil(
    async () => (await fetch(`${prometheusUrl}/-/ready`).catch(() => null))?.ok,
    'Prometheus to be ready',
    60_000,
  );
}

/** The series of a query's answer, by Prometheus's HTTP API. */
async function query(promql: string): Promise<{ metric: Record<string, string> }[]> {
  const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { data: { result: { metric: Record<string, string> }[] } };
  return body.data.result;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'metrics-system-'));
  let databaseUrl: string;
  ({ url: databaseUrl, cleanup: cleanupDatabase } = await systemDatabaseUrl(dir));
  await seedStore(databaseUrl, testBusiness(), testReviews(40));
  const exportUrl = await serveExport();
  await startInstance(databaseUrl, exportUrl);
  await startInstance(databaseUrl, exportUrl);
  // A tool call on each instance, so that the call counter has a series there.
  for (const { svc } of instances) {
    const { client, transport } = await connectClient(svc.url);
    await toolCaller(() => client)('get_business');
    await transport.terminateSession();
    await client.close();
  }
  await startPrometheus();
});

afterAll(async () => {
  prometheus?.kill('SIGTERM');
  await Promise.all(instances.map((i) => i.svc.stop()));
  exportServer?.close();
  await cleanupDatabase?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('a real Prometheus scraping two instances', () => {
  it('finds a series of every required metric', async () => {
    for (const name of REQUIRED) {
      await waitUntil(async () => (await query(name)).length > 0, `a series of ${name}`, 60_000);
    }
  });

  it('scrapes both instances, each serving the same data version', async () => {
    const versions = await waitUntil(
      async () => {
        const result = await query('dealer_reviews_data_version');
        return result.length === 2 ? result : null;
      },
      'both instances scraped',
      60_000,
    );
    expect(versions.map((s) => s.metric.instance).sort()).toEqual(
      instances.map((i) => i.metrics).sort(),
    );
    // The rule of DealerReviewsInstancesDisagree (deploy/prometheus/alerts.yml) finds nothing.
    const disagree =
      'max by (job) (dealer_reviews_data_version) != min by (job) (dealer_reviews_data_version)';
    await waitUntil(async () => (await query(disagree)).length === 0, 'the instances to agree');
  });

  it('sees the review source run and succeed', async () => {
    await waitUntil(
      async () => (await query('dealer_reviews_sync_runs_total{outcome="success"} > 0')).length > 0,
      'a successful sync run',
      60_000,
    );
    // The gauge comes from the run's status, told after its outcome: it may be a scrape later.
    const gauge = 'dealer_reviews_sync_last_success_timestamp_seconds';
    await waitUntil(async () => (await query(gauge)).length > 0, 'the last success gauge');
    const last = await query(gauge);
    expect(last[0]!.metric.source).toMatch(/^url:127\.0\.0\.1:\d+\/reviews\.json$/);
  });
});

describe('promtool', () => {
  it('accepts a scrape of each instance (`promtool check metrics`)', async () => {
    for (const { metrics } of instances) {
      const text = await (await fetch(`http://${metrics}/metrics`)).text();
      const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      expect(check.status, check.stdout + check.stderr).toBe(0);
    }
  });
});
