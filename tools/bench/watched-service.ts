/**
 * The built service as a child process with an event-loop delay monitor in it: the stalls, soak,
 * slow-readers, MCP batches and WebSub fan-out benchmarks read its delay and stalls (the pages
 * benchmark loads the same hook).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort, ROOT, waitFor } from './harness.js';

/**
 * Loaded into the service process (its main thread): its event-loop delay, reported (and reset)
 * on SIGUSR2 (also used by the pages benchmark), with each stall over 50 ms broken down: a 5 ms
 * timer sees the gap, and the thread's own scheduler figures (`/proc/<pid>/task/<pid>/schedstat`:
 * time run on a core, time waited in the run queue for one) and V8's garbage-collection pauses
 * say whether the thread was busy with our work, waiting for a core, or collecting garbage.
 */
export const DELAY_HOOK = `data:text/javascript,${encodeURIComponent(`
import { isMainThread } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
if (isMainThread) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const path = '/proc/' + process.pid + '/task/' + process.pid + '/schedstat';
  const sched = () => { try { return readFileSync(path, 'utf8').split(' ').map(Number); } catch { return [0, 0]; } };
  const pauses = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push([e.startTime, e.startTime + e.duration]);
    if (pauses.length > 1000) pauses.splice(0, 500);
  }).observe({ entryTypes: ['gc'] });
  const stalls = [];
  let last = performance.now();
  let lastSched = sched();
  setInterval(() => {
    const now = performance.now();
    const s = sched();
    if (now - last > 50) {
      let gc = 0;
      for (const [a, b] of pauses) gc += Math.max(0, Math.min(b, now) - Math.max(a, last));
      stalls.push({ at: Date.now(), ms: Math.round(now - last), ran: Math.round((s[0] - lastSched[0]) / 1e6),
        waited: Math.round((s[1] - lastSched[1]) / 1e6), gc: Math.round(gc) });
    }
    last = now;
    lastSched = s;
  }, 5).unref();
  process.on('SIGUSR2', () => {
    process.stderr.write('LOOP ' + JSON.stringify({ maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, meanMs: h.mean / 1e6, stalls: stalls.splice(0) }) + '\\n');
    h.reset();
  });
}
`)}`;

/** One gap of over 50 ms between two turns of a 5 ms timer on the service's event loop. */
export interface Stall {
  /** When the gap ended (epoch milliseconds). */
  at: number;
  /** The gap. */
  ms: number;
  /** Of it: time the thread ran on a core, waited for one, and spent in V8's GC pauses. */
  ran: number;
  waited: number;
  gc: number;
}

/** The stalls of a window in a line: `none`, or each as `gap (ran / waited for a core / gc)`. */
export function describeStalls(
  stalls: readonly Stall[],
  since?: { name: string; at: number },
): string {
  if (stalls.length === 0) return 'none';
  const worst = [...stalls].sort((a, b) => b.ms - a.ms).slice(0, 3);
  const when = (s: Stall) => {
    if (!since) return '';
    const seconds = (s.at - s.ms - since.at) / 1000;
    return `, ${seconds >= 0 ? '+' : ''}${seconds.toFixed(1)} s from the ${since.name}`;
  };
  const each = worst.map(
    (s) => `${s.ms} ms (ran ${s.ran}, waited ${s.waited}, gc ${s.gc}${when(s)})`,
  );
  return `${stalls.length}: ${each.join('; ')}${stalls.length > 3 ? '; …' : ''}`;
}

/** The service's event-loop delay over a span, as its monitor reports it. */
export interface LoopDelay {
  maxMs: number;
  p99Ms: number;
  meanMs: number;
  stalls: Stall[];
}

/** A service started by `startWatchedService`: its URL, its process, its log lines, its monitor. */
export interface WatchedService {
  url: string;
  child: ChildProcess;
  log: string[];
  /** The event-loop delay since the last call (the histogram is reset each time). */
  loop(): Promise<LoopDelay>;
}

/**
 * Starts the built service as a child process with an event-loop delay monitor in it, on the
 * bundled sample store (the soak reuses it; `env` adds or overrides variables).
 */
export async function startWatchedService(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<WatchedService> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', DELAY_HOOK, join(ROOT, 'dist/src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      BASE_URL: `http://127.0.0.1:${port}`,
      SAMPLE_DATA: 'on',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  child.stdout!.on('data', (d: Buffer) => log.push(...d.toString().split('\n').filter(Boolean)));
  child.stderr!.on('data', (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (line.startsWith('LOOP ')) waiting.shift()?.(line.slice(5));
      else if (line) log.push(line);
    }
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`, 600_000);
  return {
    url,
    child,
    log,
    loop: () =>
      new Promise((resolve) => {
        waiting.push((line) => resolve(JSON.parse(line) as LoopDelay));
        child.kill('SIGUSR2');
      }),
  };
}
