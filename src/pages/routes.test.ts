import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reviewRecord } from '../../test/helpers/records.js';
import { testSnapshot } from '../../test/helpers/snapshots.js';
import { serviceUrls } from '../catalogue.js';
import { createRouter } from '../http/router.js';
import type { Published } from '../snapshot/types.js';
import type * as sitemaps from './internal/sitemap.js';
import { renderSitemap } from './internal/sitemap.js';
import { createPages } from './routes.js';

// The real renderer, watched: how often a sitemap file is rendered.
vi.mock('./internal/sitemap.js', async (importOriginal) => {
  const real = await importOriginal<typeof sitemaps>();
  return { ...real, renderSitemap: vi.fn(real.renderSitemap) };
});

let server: Server;
let base: string;

beforeAll(async () => {
  const reviews = Array.from({ length: 30 }, (_, i) =>
    reviewRecord({ key: `r${i}`, date: `2025-01-${String(i + 1).padStart(2, '0')}` }),
  );
  const snapshot = await testSnapshot(
    { version: 1, changedAt: '2025-02-01T00:00:00.000Z' },
    reviews,
  );
  // One data version that never changes.
  const published: Published = { current: () => snapshot, onChange: () => () => undefined };
  const pages = createPages({
    published,
    urls: serviceUrls('https://reviews.example.com'),
    embedAllowedOrigins: ['*'],
  });
  const route = createRouter(pages.routes);
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = route(url.pathname);
    if (!match?.route.methods.GET) return void res.writeHead(404).end();
    void match.route.methods.GET(req, res, {
      path: url.pathname,
      query: url.search.slice(1),
      params: match.params,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('sitemap files', () => {
  it('are rendered once per data version, not on every request', async () => {
    const rendered = vi.mocked(renderSitemap);
    rendered.mockClear();
    const bodies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/sitemaps/1.xml`);
      expect(res.status).toBe(200);
      bodies.push(await res.text());
    }
    expect(bodies[0]).toContain('<loc>https://reviews.example.com/insights</loc>');
    expect(new Set(bodies).size).toBe(1);
    expect(rendered).toHaveBeenCalledTimes(1);
    // A file past the last is a 404 without rendering anything.
    expect((await fetch(`${base}/sitemaps/2.xml`)).status).toBe(404);
    expect(rendered).toHaveBeenCalledTimes(1);
  });
});
