import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';

const MAIN = join(import.meta.dirname, '../../dist/src/main.js');

async function startMain(env: Record<string, string>): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // starting
    }
    if (Date.now() - started > 60_000) throw new Error('the service did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, stop: () => child.kill('SIGTERM') };
}

describe('the bundled sample dealership', () => {
  it('fills an empty store on start with SAMPLE_DATA on (the default), and keeps it on restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sample-'));
    try {
      const env = { DATABASE_URL: `sqlite:${join(dir, 'db', 'reviews.db')}` };
      const first = await startMain(env);
      const health = (await (await fetch(`${first.url}/healthz`)).json()) as {
        reviews: number;
        dataVersion: number;
      };
      const doc = (await (await fetch(`${first.url}/reviews.json`)).json()) as {
        business: { name: string; staff: unknown[] };
        aggregateRating: { ratingCount: number };
      };
      first.stop();
      expect(health.reviews).toBeGreaterThanOrEqual(1500);
      expect(doc.aggregateRating.ratingCount).toBe(health.reviews);
      expect(doc.business.staff.length).toBeGreaterThan(10);
      await new Promise((r) => setTimeout(r, 300));
      const again = await startMain(env);
      const health2 = (await (await fetch(`${again.url}/healthz`)).json()) as {
        reviews: number;
        dataVersion: number;
      };
      again.stop();
      expect(health2).toEqual(health);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('starts empty with SAMPLE_DATA=off', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sample-'));
    try {
      const svc = await startMain({
        DATABASE_URL: `sqlite:${join(dir, 'reviews.db')}`,
        SAMPLE_DATA: 'off',
      });
      const doc = (await (await fetch(`${svc.url}/reviews.json`)).json()) as {
        business: unknown;
        reviews: unknown[];
      };
      const feed = await fetch(`${svc.url}/feed.xml`);
      svc.stop();
      expect(doc).toMatchObject({ business: null, reviews: [] });
      expect(feed.status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
