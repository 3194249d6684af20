import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { http } from '../helpers/http.js';
import { initializeRequest } from '../helpers/mcp.js';
import { seedStore } from '../helpers/service.js';
import { systemDatabaseUrl } from './database.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The example configuration of docs/deployment.md (deploy/nginx.conf), run as it is in front of
 * two instances sharing one database: only the listen port and the instances' ports change.
 */
let dir: string;
let databaseUrl: string;
let cleanupDatabase: () => Promise<void>;
let instances: ChildService[];
let nginx: ChildProcess;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nginx-'));
  chmodSync(dir, 0o777); // nginx's workers run as an unprivileged user when started as root
  ({ url: databaseUrl, cleanup: cleanupDatabase } = await systemDatabaseUrl(dir));
  await seedStore(databaseUrl, testBusiness(), testReviews(60));
  const env = { TRUST_PROXY_CIDRS: '127.0.0.1/32', WEBSUB_RATE_LIMIT_PER_MIN: '4' };
  instances = [
    await startChildService({ databaseUrl, env }),
    await startChildService({ databaseUrl, env }),
  ];
  const port = await freePort();
  const [a, b] = instances.map((i) => new URL(i.url).port);
  const site = readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8')
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
    .replace('server 127.0.0.1:3001 ', `server 127.0.0.1:${a} `)
    .replace('server 127.0.0.1:3002 ', `server 127.0.0.1:${b} `);
  expect(site).toContain(`127.0.0.1:${a}`);
  expect(site).toContain(`127.0.0.1:${b}`);
  writeFileSync(join(dir, 'site.conf'), site);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(join(dir, temp));
    chmodSync(join(dir, temp), 0o777);
  }
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`,
  );
  nginx = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'inherit' });
  url = `http://127.0.0.1:${port}`;
  await waitUntil(async () => {
    try {
      return (await fetch(`${url}/healthz`)).ok;
    } catch {
      return false;
    }
  }, 'nginx to answer');
});

afterAll(async () => {
  nginx?.kill('SIGTERM');
  await Promise.all((instances ?? []).map((i) => i.stop()));
  await cleanupDatabase?.();
  rmSync(dir, { recursive: true, force: true });
});

const mcpHeaders = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

describe('the example nginx configuration, in front of two instances', () => {
  it('passes the prepared documents through: the same bytes and ETag from both, codings, 304s', async () => {
    const direct = await Promise.all(instances.map((i) => http(`${i.url}/reviews.json`)));
    expect(direct[0]!.headers.etag).toBe(direct[1]!.headers.etag);
    const first = await http(`${url}/reviews.json`);
    expect(first.status).toBe(200);
    expect(first.headers.etag).toBe(direct[0]!.headers.etag);
    expect(first.body.equals(direct[0]!.body)).toBe(true);
    const gzip = await http(`${url}/reviews.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    for (let i = 0; i < 4; i++) {
      const again = await http(`${url}/reviews.json`, {
        headers: { 'if-none-match': first.headers.etag as string },
      });
      expect(again.status).toBe(304);
    }
  });

  it('streams a since result through', async () => {
    const direct = await http(`${instances[0]!.url}/api/reviews/since/2020-01-01`);
    const proxied = await http(`${url}/api/reviews/since/2020-01-01`);
    expect(proxied.status).toBe(200);
    expect(proxied.body.equals(direct.body)).toBe(true);
  });

  it('keeps an MCP session whichever instance answers', async () => {
    const init = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: mcpHeaders,
      body: JSON.stringify(initializeRequest('2025-06-18', 'nginx-test')),
    });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id')!;
    // Round robin: these land on both instances.
    for (let id = 2; id < 8; id++) {
      const res = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders, 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { result: { tools: unknown[] } };
      expect(body.result.tools.length).toBeGreaterThan(0);
    }
  });

  it('counts the hub requests of one client across both instances, by its forwarded address', async () => {
    const form = {
      'hub.mode': 'subscribe',
      'hub.topic': 'https://reviews.example.com/feed.xml',
      'hub.callback': 'https://subscriber.invalid/cb',
    };
    // Clients behind nginx, told apart by the address nginx forwards (the test's requests come
    // from loopback, a trusted proxy here, so their own X-Forwarded-For stands for a proxy chain).
    const from = (client: string) =>
      fetch(`${url}/api/websub/hub`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': client,
        },
        body: new URLSearchParams(form).toString(),
      }).then((r) => r.status);
    // Four requests are within the limit whichever instance takes them; the fifth is not.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push(await from('198.51.100.7'));
    expect(statuses.slice(0, 4).every((s) => s !== 429)).toBe(true);
    expect(statuses[4]).toBe(429);
    // Another client has its own budget: the limit is per client, not per proxy.
    expect(await from('198.51.100.8')).not.toBe(429);
  });

  it('keeps answering GETs when one instance is down', async () => {
    await instances[1]!.crash();
    for (let i = 0; i < 6; i++) expect((await http(`${url}/api/feed.json`)).status).toBe(200);
  });
});
