/**
 * `npm run bench -- slow-readers`: many clients read `GET /api/reviews/since/0001-01-01` (the whole
 * dataset, streamed and compressed) at 1 KB every 2 s, the pace of a hostile audit that took the
 * service past 1.4 GB at 21,800 reviews with 60 of them.
 *
 * BENCH_SLOW_COUNT reviews (default 100,000) are imported, the service started on them and left
 * to settle; then BENCH_SLOW_READERS clients (default 128, every stream slot) ask at once with
 * `Accept-Encoding: BENCH_SLOW_CODING` (default br) and each reads 1 KB from its socket every 2 s
 * for BENCH_SLOW_SECONDS (default three floor windows plus 15 s: the kernel buffers fill first).
 * `/healthz` is polled every 100 ms, and a large since request is tried every 2 s (answered 200
 * once a slot is free again). BENCH_SLOW_WINDOW_MS sets the service's SINCE_MIN_RATE_WINDOW_MS (unset: its default, 30 s).
 * Reported: how many readers the service cut (their connection closed before the answer's end),
 * `/healthz` p99 / max, the event-loop delay, RSS before, at its peak and its growth.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryOf, resetPeak, table } from './harness.js';
import { generateSample, runImport } from './commands.js';
import { poller, type ProbeSummary } from './probes.js';
import {
  describeStalls,
  startWatchedService,
  type LoopDelay,
  type WatchedService,
} from './watched-service.js';

const PATH = '/api/reviews/since/0001-01-01';

interface Reader {
  status: number;
  /** The last bytes received (a chunked body ends with `0\r\n\r\n`). */
  tail: string;
  closed: boolean;
  /** From now on, reads as fast as the bytes come. */
  readAll(): void;
  destroy(): void;
}

/**
 * A client that reads at most `bytes` from the kernel every `everyMs` (a socket read into a buffer
 * of that size, then paused), so the server sees that pace.
 */
function slowReader(port: number, coding: string, bytes: number, everyMs: number): Reader {
  let fast = false;
  const socket: Socket = connect({
    port,
    host: '127.0.0.1',
    onread: {
      buffer: Buffer.alloc(bytes),
      callback: (n: number, buf: Uint8Array) => {
        const chunk = Buffer.from(buf.subarray(0, n)).toString('latin1');
        if (reader.status === 0) reader.status = Number(/^HTTP\/1\.1 (\d+)/.exec(chunk)?.[1]);
        reader.tail = (reader.tail + chunk).slice(-5);
        return fast; // false pauses the socket until the next tick
      },
    },
  });
  const timer = setInterval(() => socket.resume(), everyMs);
  const reader: Reader = {
    status: 0,
    tail: '',
    closed: false,
    readAll() {
      fast = true;
      socket.resume();
    },
    destroy: () => socket.destroy(),
  };
  socket.on('connect', () =>
    socket.write(`GET ${PATH} HTTP/1.1\r\nHost: bench\r\nAccept-Encoding: ${coding}\r\n\r\n`),
  );
  socket.on('error', () => undefined);
  socket.on('close', () => {
    reader.closed = true;
    clearInterval(timer);
  });
  return reader;
}

/** Tries a large since request: its status (the answer is dropped at once). */
function tryStream(port: number): Promise<number> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () =>
      s.write(`GET ${PATH} HTTP/1.1\r\nHost: bench\r\nAccept-Encoding: br\r\n\r\n`),
    );
    s.once('data', (c: Buffer) => {
      resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(c.toString('latin1'))?.[1]));
      s.destroy();
    });
    s.on('error', () => resolve(0));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (n: number) => `${Math.round(n)} ms`;

/** The benchmark's settings, from the environment (see the top of this file). */
function slowSettings() {
  const count = Number(process.env.BENCH_SLOW_COUNT ?? 100_000);
  const readers = Number(process.env.BENCH_SLOW_READERS ?? 128);
  const coding = process.env.BENCH_SLOW_CODING ?? 'br';
  const windowMs = Number(process.env.BENCH_SLOW_WINDOW_MS ?? 30_000);
  const seconds = Number(process.env.BENCH_SLOW_SECONDS ?? (3 * windowMs) / 1000 + 15);
  return { count, readers, coding, windowMs, seconds };
}

type Settings = ReturnType<typeof slowSettings>;

/** What the slow readers met, and the service meanwhile. */
interface SlowFigures {
  /** How many readers got each status. */
  statuses: Map<number, number>;
  /** Readers the service cut (closed short of the answer's end), and those whose answer ended. */
  cut: number;
  finished: number;
  /** When a large since request was answered 200 again (ms from the start), if it was. */
  freedAt: number | null;
  healthz: ProbeSummary;
  loop: LoopDelay;
  /** The service's RSS (MB): before, its peak (if known), every 10 s, 10 s after the readers. */
  before: number;
  peak: number;
  peakKnown: boolean;
  rss: number[];
  after: number;
}

/**
 * A reader the service cut has a closed connection short of the answer's end once it reads what
 * its kernel buffers still hold; the others are still being served. Counted after every reader
 * read at full speed for 5 s.
 */
async function outcome(clients: readonly Reader[]) {
  for (const c of clients) c.readAll();
  await sleep(5_000);
  const statuses = new Map<number, number>();
  for (const c of clients) statuses.set(c.status, (statuses.get(c.status) ?? 0) + 1);
  const ended = (c: Reader) => c.tail === '0\r\n\r\n';
  const cut = clients.filter((c) => c.status === 200 && c.closed && !ended(c));
  const finished = clients.filter(ended).length;
  return { statuses, cut: cut.length, finished };
}

/**
 * The readers on a settled service (20 s after its start), for the settings' seconds, while
 * `/healthz` is polled and a large since request tried every 2 s; then their outcome.
 */
async function readSlowly(svc: WatchedService, settings: Settings): Promise<SlowFigures> {
  const { readers, coding, seconds } = settings;
  const pid = svc.child.pid!;
  await sleep(20_000); // the insights, the codings of the large documents
  const port = Number(new URL(svc.url).port);
  const before = memoryOf(pid).rssMB;
  const peakKnown = resetPeak(pid);
  await svc.loop();
  const healthz = poller(`${svc.url}/healthz`, 100);
  const started = performance.now();
  const clients = Array.from({ length: readers }, () => slowReader(port, coding, 1024, 2000));
  const rss: number[] = [];
  let freedAt: number | null = null;
  while (performance.now() - started < seconds * 1000) {
    await sleep(2_000);
    if (freedAt === null && (await tryStream(port)) === 200) freedAt = performance.now() - started;
    if (rss.length * 10_000 <= performance.now() - started) rss.push(memoryOf(pid).rssMB);
  }
  const h = await healthz.stop();
  const loop = await svc.loop();
  const peak = memoryOf(pid).peakMB;
  const { statuses, cut, finished } = await outcome(clients);
  for (const c of clients) c.destroy();
  await sleep(10_000);
  const after = memoryOf(pid).rssMB;
  return {
    statuses,
    cut,
    finished,
    freedAt,
    healthz: h,
    loop,
    before,
    peak,
    peakKnown,
    rss,
    after,
  };
}

/** The benchmark's table. */
function slowTable(settings: Settings, f: SlowFigures): string {
  const { readers, coding, windowMs, seconds } = settings;
  const { healthz: h, loop, before, peak, peakKnown } = f;
  return table([
    {
      measure: 'readers (1 KB every 2 s), statuses',
      value: `${readers} × \`Accept-Encoding: ${coding}\`: ${[...f.statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}`,
    },
    {
      measure: `cut by the floor rate within ${seconds} s (window ${windowMs / 1000} s)`,
      value: `${f.cut} of ${readers} (${f.finished} not cut: their answer ended once read at full speed)`,
    },
    {
      measure: 'a large since request answered 200 again (a slot freed)',
      value: f.freedAt === null ? 'never' : `${(f.freedAt / 1000).toFixed(0)} s after the start`,
    },
    {
      measure: '`/healthz` every 100 ms: p99 / max',
      value: `${ms(h.p99)} / ${ms(h.max)} (${h.count} requests, ${h.errors} errors)`,
    },
    {
      measure: 'service event-loop delay: max / p99',
      value: `${ms(loop.maxMs)} / ${ms(loop.p99Ms)}`,
    },
    { measure: 'stalls over 50 ms (ran / waited / gc)', value: describeStalls(loop.stalls) },
    {
      measure: 'service RSS before / peak / growth',
      value: `${before} MB / ${peakKnown ? `${peak} MB` : 'unknown'} / ${peakKnown ? `${peak - before} MB` : 'unknown'}`,
    },
    { measure: 'service RSS every 10 s', value: `${f.rss.join(', ')} MB` },
    { measure: 'service RSS 10 s after the readers left', value: `${f.after} MB` },
  ]);
}

/** The slow readers benchmark (see the top of this file): its table. */
export async function benchSlowReaders(): Promise<string> {
  const settings = slowSettings();
  const { count, readers, windowMs } = settings;
  const dir = mkdtempSync(join(tmpdir(), 'bench-slow-'));
  const databaseUrl = `sqlite:${join(dir, 'reviews.db')}`;
  const file = join(dir, 'reviews.json');
  try {
    await generateSample(count, file);
    const imported = await runImport(file, databaseUrl);
    if (imported !== 0) throw new Error(`the import exited with ${imported}`);
    // Every stream slot taken by a reader: a large since request is refused until one is cut.
    const env: Record<string, string> = { SAMPLE_DATA: 'off', SINCE_MAX_STREAMS: String(readers) };
    if (process.env.BENCH_SLOW_WINDOW_MS) env.SINCE_MIN_RATE_WINDOW_MS = String(windowMs);
    const svc = await startWatchedService(databaseUrl, env);
    try {
      return slowTable(settings, await readSlowly(svc, settings));
    } finally {
      svc.child.kill('SIGTERM');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
