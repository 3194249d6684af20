/**
 * `npm run bench -- stalls`: does the service keep answering while it works?
 *
 * 1. Import under load: the service runs on the bundled sample store; a file of BENCH_IMPORT_COUNT
 *    generated reviews (default 100,000) is imported by the real command in another process while
 *    `/healthz` and a cached search are polled every 100 ms, and requests that touch the store
 *    (MCP `initialize`, `tools/call` on a session, `logging/setLevel`, a hub subscription request)
 *    every 100 to 250 ms. Reported: p99 and max of each, the
 *    service's event-loop delay (monitorEventLoopDelay in the service process), SQLITE_BUSY lines
 *    in its log, the time from the import's commit to the new version being served, and RSS.
 * 2. Requests at that size: six parallel `GET /api/reviews/since/0001-01-01` (the whole dataset,
 *    streamed), an MCP read of the `reviews.json` resource, text searches, a one-review import
 *    and its rebuild, each under the event-loop monitor; RSS over one-review versions; RSS while
 *    clients that never read a streamed since result stay connected across versions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { freePort, memoryOf, resetPeak, ROOT, table, waitFor } from './harness.js';

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

export interface WatchedService {
  url: string;
  child: ChildProcess;
  log: string[];
  /** The event-loop delay since the last call (the histogram is reset each time). */
  loop(): Promise<{ maxMs: number; p99Ms: number; meanMs: number; stalls: Stall[] }>;
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
        waiting.push((line) =>
          resolve(JSON.parse(line) as Awaited<ReturnType<WatchedService['loop']>>),
        );
        child.kill('SIGUSR2');
      }),
  };
}

/** Polls `url` every `everyMs` until stopped; keeps each response time. */
export function poller(url: string, everyMs: number) {
  return prober(async () => {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.ok;
  }, everyMs);
}

/** Runs `request` every `everyMs` until stopped (false or a throw is an error); keeps each time. */
function prober(request: () => Promise<boolean>, everyMs: number) {
  const times: number[] = [];
  let errors = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      try {
        if (!(await request())) errors++;
      } catch {
        errors++;
      }
      const took = performance.now() - started;
      times.push(took);
      await new Promise((r) => setTimeout(r, Math.max(0, everyMs - took)));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      const sorted = [...times].sort((a, b) => a - b);
      return {
        count: times.length,
        p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
        max: sorted.at(-1) ?? 0,
        errors,
      };
    },
  };
}

/** Runs a command to its end (output ignored); resolves its exit code. */
export function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/**
 * Runs `dealer-reviews import <file>` as an operator does, through the package's launcher (which
 * starts it at a lower priority from its first instruction); resolves its exit code.
 */
export function runImport(file: string, databaseUrl: string): Promise<number> {
  return run(join(ROOT, 'bin/dealer-reviews'), ['import', file], { DATABASE_URL: databaseUrl });
}

const ms = (n: number) => `${Math.round(n)} ms`;

const MCP_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

/** POSTs one JSON-RPC message to /mcp; true for a 200 without a JSON-RPC error. */
async function mcpCall(url: string, message: object, session?: string): Promise<boolean> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: session ? { ...MCP_HEADERS, 'Mcp-Session-Id': session } : MCP_HEADERS,
    body: JSON.stringify(message),
  });
  const body = (await res.json()) as { error?: unknown; result?: { isError?: boolean } };
  return res.status === 200 && body.error === undefined && body.result?.isError !== true;
}

async function mcpSession(url: string): Promise<string> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify(INITIALIZE),
  });
  await res.arrayBuffer();
  return res.headers.get('mcp-session-id')!;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  },
};

/**
 * Requests that touch the store, polled during the import: each MCP request checks its session
 * (a read), `initialize` counts a rate (a write), `logging/setLevel` writes the session's level,
 * a hub subscription request queues an intent (a write).
 */
export async function storeProbes(url: string) {
  const session = await mcpSession(url);
  let n = 0;
  const hubForm = () =>
    new URLSearchParams({
      'hub.mode': 'subscribe',
      'hub.topic': `${url}/feed.xml`,
      'hub.callback': `https://127.0.0.1:9/bench-${n++}`,
    }).toString();
  const probes = {
    'MCP `initialize`': prober(() => mcpCall(url, INITIALIZE), 250),
    'MCP `tools/call get_rating_summary` (a session)': prober(
      () =>
        mcpCall(
          url,
          {
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'get_rating_summary', arguments: {} },
          },
          session,
        ),
      100,
    ),
    'MCP `logging/setLevel` (a session write)': prober(
      () =>
        mcpCall(
          url,
          { jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'info' } },
          session,
        ),
      250,
    ),
    'hub `POST` subscribe (an intent write)': prober(async () => {
      const res = await fetch(`${url}/api/websub/hub`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: hubForm(),
      });
      await res.arrayBuffer();
      return res.status === 202;
    }, 250),
  };
  return {
    async stop() {
      const rows: { measure: string; value: string }[] = [];
      for (const [name, p] of Object.entries(probes)) {
        const r = await p.stop();
        rows.push({
          measure: `${name}: p99 / max`,
          value: `${ms(r.p99)} / ${ms(r.max)} (${r.count} requests, ${r.errors} errors)`,
        });
      }
      return rows;
    },
  };
}

/** The service's RSS once the insights have followed and the build worker is done (20 s on). */
async function settledRss(svc: WatchedService): Promise<number> {
  await new Promise((r) => setTimeout(r, 20_000));
  return memoryOf(svc.child.pid!).rssMB;
}

async function health(url: string): Promise<{ dataVersion: number; reviews: number }> {
  return (await (await fetch(`${url}/healthz`)).json()) as { dataVersion: number; reviews: number };
}

/**
 * Clients that never read a streamed since result, across data versions (the reproduction of a
 * review of issue 15): three such clients per version, while a review is removed and restored
 * three times; the service's RSS after each pair, and once the clients are gone.
 */
async function slowReaders(svc: WatchedService, databaseUrl: string): Promise<string> {
  const port = Number(new URL(svc.url).port);
  const sockets: Socket[] = [];
  const stall = () =>
    new Promise<void>((resolve) => {
      const s = connect(port, '127.0.0.1', () =>
        s.write(
          'GET /api/reviews/since/0001-01-01 HTTP/1.1\r\nHost: bench\r\nAccept-Encoding: identity\r\n\r\n',
        ),
      );
      s.once('data', () => {
        s.pause();
        resolve();
      });
      s.on('error', () => undefined);
      sockets.push(s);
    });
  const id = (
    (await (await fetch(`${svc.url}/api/reviews/search?limit=1`)).json()) as {
      reviews: { id: string }[];
    }
  ).reviews[0]!.id;
  const change = async (args: string[]) => {
    const v = (await health(svc.url)).dataVersion;
    await run(process.execPath, [join(ROOT, 'dist/src/bin.js'), 'remove', ...args], {
      DATABASE_URL: databaseUrl,
    });
    while ((await health(svc.url)).dataVersion === v) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 8_000));
  };
  const after: number[] = [];
  const start = memoryOf(svc.child.pid!).rssMB;
  const peakKnown = resetPeak(svc.child.pid!);
  for (let i = 0; i < 3; i++) {
    for (let k = 0; k < 3; k++) await stall();
    await change([id]);
    for (let k = 0; k < 3; k++) await stall();
    await change([id, '--undo']);
    after.push(memoryOf(svc.child.pid!).rssMB);
  }
  const peak = memoryOf(svc.child.pid!).peakMB;
  for (const s of sockets) s.destroy();
  await new Promise((r) => setTimeout(r, 12_000));
  return (
    `Clients that never read \`GET /api/reviews/since/0001-01-01\` (3 per version) while a review ` +
    `is removed and restored 3 times: RSS ${start} MB, then ${after.join(', ')} MB after each pair ` +
    `(peak ${peakKnown ? `${peak} MB` : 'unknown'}), ` +
    `${memoryOf(svc.child.pid!).rssMB} MB 12 s after the clients left.`
  );
}

export async function benchStalls(): Promise<string> {
  const count = Number(process.env.BENCH_IMPORT_COUNT ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'bench-stalls-'));
  const databaseUrl = `sqlite:${join(dir, 'reviews.db')}`;
  const file = join(dir, 'big.json');
  const out: string[] = [];
  try {
    await run(process.execPath, [
      join(ROOT, 'dist/tools/sample/cli.js'),
      '--count',
      String(count),
      '--seed',
      '7',
      '--out',
      file,
    ]);
    // The store probes open sessions and hub requests faster than the default limits allow; the
    // hub's verification GETs to 127.0.0.1:9 fail at once (nothing listens there).
    const svc = await startWatchedService(databaseUrl, {
      MCP_INITIALIZE_PER_MIN: '1000000',
      WEBSUB_RATE_LIMIT_PER_MIN: '1000000',
      WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: '10000000',
      WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8',
    });
    try {
      const before = await health(svc.url);
      const rssBefore = memoryOf(svc.child.pid!).rssMB;
      // Peaks are per phase (each reset before it); the run's is the largest of them.
      let runPeak = memoryOf(svc.child.pid!).peakMB;
      const notePeak = (): number => {
        const peak = memoryOf(svc.child.pid!).peakMB;
        runPeak = Math.max(runPeak, peak);
        return peak;
      };
      const importPeakKnown = resetPeak(svc.child.pid!);
      await fetch(`${svc.url}/api/reviews/search?rating=5&limit=20`); // cached from now on
      await svc.loop();
      const healthz = poller(`${svc.url}/healthz`, 100);
      const search = poller(`${svc.url}/api/reviews/search?rating=5&limit=20`, 100);
      const probes = await storeProbes(svc.url);
      const importStarted = performance.now();
      const code = await runImport(file, databaseUrl);
      const committed = performance.now();
      const committedAt = Date.now();
      if (code !== 0) throw new Error(`the import exited with ${code}`);
      let after = await health(svc.url);
      while (after.dataVersion === before.dataVersion) {
        await new Promise((r) => setTimeout(r, 20));
        after = await health(svc.url);
      }
      const served = performance.now();
      // Keep polling a little after the swap (the insights follow, the old version is collected).
      await new Promise((r) => setTimeout(r, 5_000));
      const h = await healthz.stop();
      const s = await search.stop();
      const probed = await probes.stop();
      const loop = await svc.loop();
      const busy = svc.log.filter((l) => l.includes('SQLITE_BUSY')).length;
      out.push(
        `### Import of ${count.toLocaleString('en-US')} reviews while serving\n`,
        table([
          {
            measure: '`/healthz` every 100 ms: p99 / max',
            value: `${ms(h.p99)} / ${ms(h.max)} (${h.count} requests, ${h.errors} errors)`,
          },
          {
            measure: 'cached search every 100 ms: p99 / max',
            value: `${ms(s.p99)} / ${ms(s.max)} (${s.count} requests, ${s.errors} errors)`,
          },
          ...probed,
          {
            measure: 'service event-loop delay: max / p99',
            value: `${ms(loop.maxMs)} / ${ms(loop.p99Ms)}`,
          },
          {
            measure: 'stalls over 50 ms (ran / waited for a core / gc, ms; when)',
            value: describeStalls(loop.stalls, { name: 'commit', at: committedAt }),
          },
          { measure: 'SQLITE_BUSY lines in the service log', value: busy },
          { measure: 'import (command start to commit)', value: ms(committed - importStarted) },
          { measure: 'commit to the new version served', value: ms(served - committed) },
          { measure: 'reviews served after', value: after.reviews },
          {
            measure: 'service RSS before the import / peak during it',
            value: `${rssBefore} MB / ${notePeak()} MB${importPeakKnown ? '' : ' (since start)'}`,
          },
          {
            measure: 'service RSS 20 s after the new version (settled) / peak in those 20 s',
            value: await (async () => {
              const known = resetPeak(svc.child.pid!);
              const settled = await settledRss(svc);
              return `${settled} MB / ${notePeak()} MB${known ? '' : ' (since start)'}`;
            })(),
          },
        ]),
        '',
      );

      // Requests at this size, each under the event-loop monitor.
      const rows: Record<string, string>[] = [];
      const measure = async (name: string, work: () => Promise<unknown>) => {
        await svc.loop();
        const known = resetPeak(svc.child.pid!);
        const started = performance.now();
        await work();
        const took = performance.now() - started;
        const loop = await svc.loop();
        rows.push({
          request: name,
          took: ms(took),
          'event-loop delay max': ms(loop.maxMs),
          'stalls over 50 ms (ran / waited / gc)': describeStalls(loop.stalls),
          'peak RSS': known ? `${notePeak()} MB` : 'unknown',
        });
      };
      // Large bodies are read by curl, in its own process, as a client would.
      const read = (path: string, headers: Record<string, string> = {}) =>
        run('curl', [
          '-s',
          '-o',
          '/dev/null',
          ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
          `${svc.url}${path}`,
        ]);
      await measure('6 parallel `GET /api/reviews/since/0001-01-01` (identity)', () =>
        Promise.all(Array.from({ length: 6 }, () => read('/api/reviews/since/0001-01-01'))),
      );
      await measure('6 parallel `GET /api/reviews/since/0001-01-01` (gzip)', () =>
        Promise.all(
          Array.from({ length: 6 }, () =>
            read('/api/reviews/since/0001-01-01', { 'Accept-Encoding': 'gzip' }),
          ),
        ),
      );
      await measure('`GET /reviews.json` (identity)', () => read('/reviews.json'));
      await measure('search `query=the` (uncached)', () =>
        read('/api/reviews/search?query=the&limit=100'),
      );
      await measure('search `query=great service` (uncached)', () =>
        read('/api/reviews/search?query=great%20service&limit=100'),
      );
      await measure('search `query=e` (uncached)', () => read('/api/reviews/search?query=e'));
      await measure('MCP `resources/read` of reviews.json', async () => {
        const headers = {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        };
        const init = await fetch(`${svc.url}/mcp`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-06-18',
              capabilities: {},
              clientInfo: { name: 'bench', version: '1' },
            },
          }),
        });
        await init.arrayBuffer();
        const session = init.headers.get('mcp-session-id')!;
        const res = await fetch(`${svc.url}/mcp`, {
          method: 'POST',
          headers: { ...headers, 'Mcp-Session-Id': session },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 2,
            method: 'resources/read',
            params: { uri: `${svc.url}/reviews.json` },
          }),
        });
        await res.arrayBuffer();
      });
      const small = join(dir, 'one.csv');
      writeFileSync(
        small,
        'source,review_id,rating,date,author,text\ngoogle,bench-one,5,2026-10-30T12:00:00Z,Ann,Quick oil change.\n',
      );
      await measure('import one review, until its version is served', async () => {
        const v = (await health(svc.url)).dataVersion;
        await runImport(small, databaseUrl);
        while ((await health(svc.url)).dataVersion === v)
          await new Promise((r) => setTimeout(r, 20));
      });
      out.push(
        `### Requests at ${after.reviews.toLocaleString('en-US')} reviews\n`,
        table(rows),
        '',
      );
      // Memory over many versions: one review at a time, each settled. The peak of each is split:
      // until the new version is served (the build), then the 15 s after (insights and codings).
      const versions = Number(process.env.BENCH_VERSIONS ?? 8);
      const settledAfter: number[] = [];
      const peaks: string[] = [];
      for (let i = 0; i < versions; i++) {
        notePeak();
        const peakKnown = resetPeak(svc.child.pid!);
        writeFileSync(
          small,
          `source,review_id,rating,date,author,text\ngoogle,bench-v${i},4,2026-10-29T12:00:00Z,Bo,Fine.\n`,
        );
        const { dataVersion } = await health(svc.url);
        await runImport(small, databaseUrl);
        while ((await health(svc.url)).dataVersion === dataVersion)
          await new Promise((r) => setTimeout(r, 20));
        const buildPeak = notePeak();
        resetPeak(svc.child.pid!);
        await new Promise((r) => setTimeout(r, 15_000));
        const mem = memoryOf(svc.child.pid!);
        settledAfter.push(mem.rssMB);
        if (peakKnown) peaks.push(`${buildPeak} / ${notePeak()}`);
      }
      out.push(
        `Settled RSS 15 s after each of ${versions} one-review imports: ${settledAfter.join(', ')} MB` +
          (peaks.length
            ? `; the peak during each, until the version was served / in the 15 s after: ${peaks.join(', ')} MB`
            : '') +
          ` (MALLOC_MMAP_THRESHOLD_=${process.env.MALLOC_MMAP_THRESHOLD_ ?? 'unset'}).`,
        '',
      );
      out.push(await slowReaders(svc, databaseUrl), '');
      const settled = await settledRss(svc);
      notePeak();
      out.push(
        `Service RSS at the end, settled 20 s: ${settled} MB (peak over the run ${runPeak} MB).`,
        '',
      );
    } finally {
      svc.child.kill('SIGTERM');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out.join('\n');
}
