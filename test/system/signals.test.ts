/**
 * Issue 31: SIGTERM to `npm start` left the Node server orphaned and listening (npm's `sh -c`
 * died of the signal without passing it on). Each way of starting from a checkout, stopped by
 * each signal as a supervisor sends it (to the process it started) or a terminal does (Ctrl-C:
 * SIGINT to the whole process group, which npm then passes on once more): the requests under way
 * finish, the event streams end, the process exits 0 within 10 s, and nothing is left: no
 * process of the tree, and the port is free. (`npx dealer-reviews serve`, from an installed
 * release, is in release.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/child-service.js';
import {
  gone,
  killTree,
  logged,
  openListenStream,
  openUnfinishedRequest,
  startTree,
  type Started,
} from './stopping.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'signals-'));
let running: Started | null = null;
let stores = 0;

afterEach(() => {
  if (running) killTree(running);
  running = null;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WAYS = {
  'node dist/src/main.js': [process.execPath, ['dist/src/main.js']],
  'npm start': ['npm', ['start']],
} as const;

function start(way: keyof typeof WAYS): Promise<Started> {
  const [command, args] = WAYS[way];
  return startTree(command, args, {
    cwd: ROOT,
    env: { DATABASE_URL: `sqlite:${join(dir, `store-${++stores}.db`)}`, SAMPLE_DATA: 'off' },
  });
}

/** A supervisor signals the process it started; a terminal's Ctrl-C reaches the whole group. */
function send(s: Started, signal: 'SIGTERM' | 'SIGINT'): void {
  if (signal === 'SIGINT') process.kill(-s.child.pid!, signal);
  else s.child.kill(signal);
}

describe.each(Object.keys(WAYS) as (keyof typeof WAYS)[])('%s', (way) => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops on %s: finishes the request under way, ends the event stream, exits 0, leaves nothing',
    async (signal) => {
      const s = (running = await start(way));
      const stream = await openListenStream(s.url);
      const inFlight = await fetch(`${s.url}/reviews.json`, {
        headers: { 'Accept-Encoding': 'identity' },
      });
      send(s, signal);
      expect(inFlight.status).toBe(200);
      expect((await inFlight.json()) as unknown).toMatchObject({ reviews: [] });
      await stream.ended;
      expect(await gone(s)).toEqual({ code: 0, signal: null });
      // The listen stream was ended by the shutdown, not cut at the end of its grace.
      expect(logged(s, 'cut the connections still open at shutdown')).toEqual([]);
      expect(logged(s, 'shutting down')).toEqual([expect.objectContaining({ signal })]);
      expect(logged(s, 'stopped')).toHaveLength(1);
      // Served nothing after the signal, and took no new connection.
      await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();
    },
  );
});

describe('a second signal', () => {
  it('exits at once while the first shutdown still drains (143 for SIGTERM)', async () => {
    const s = (running = await start('node dist/src/main.js'));
    // A request under way that only the end of the grace would cut keeps the first shutdown busy.
    await openUnfinishedRequest(s.url);
    send(s, 'SIGTERM');
    // The same signal again within a second counts as the one signal (npm passes Ctrl-C on): the
    // second is sent well over a second after the service took the first (a busy machine may
    // take the first late).
    await waitUntil(() => logged(s, 'shutting down').length > 0, 'the first signal to be taken');
    await new Promise((r) => setTimeout(r, 1_200));
    expect(s.child.exitCode).toBeNull();
    send(s, 'SIGTERM');
    expect(await gone(s)).toEqual({ code: 143, signal: null });
    expect(logged(s, 'second signal: exiting at once')).toHaveLength(1);
    expect(logged(s, 'stopped')).toHaveLength(0);
  });
});
