import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';

/** The repository root (benchmarks run from `dist/tools/bench`). */
export const ROOT = join(import.meta.dirname, '..', '..', '..');

export interface LoadResult {
  name: string;
  rps: number;
  p99: number;
  p50: number;
  throughputMBs: number;
  non2xx: number;
  errors: number;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Waits until `url` answers 200. */
export async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${url}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A log entry of the service (a pino JSON line), as `startService` collects them. */
export interface LogEntry {
  level: number;
  time: number;
  msg: string;
  [key: string]: unknown;
}

/**
 * Starts the built service as a child process. With `logs`, its stdout (the JSON log lines) is
 * parsed into that array instead of shown (give the service `LOG_LEVEL=info` to have them).
 */
export async function startService(
  env: Record<string, string>,
  options: { logs?: LogEntry[] } = {},
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const { logs } = options;
  const child = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SAMPLE_DATA: 'off',
      ...env,
    },
    stdio: ['ignore', logs ? 'pipe' : 'inherit', 'inherit'],
  });
  if (logs) {
    let rest = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = rest + chunk.toString('utf8');
      const lines = text.split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as LogEntry;
        logs.push(entry);
        // Warnings and errors are still shown.
        if (entry.level >= 40) process.stderr.write(`${line}\n`);
      }
    });
  }
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`);
  return { url, child };
}

/** Peak and current resident memory of a process, in MB (Linux). */
export function memoryOf(pid: number): { rssMB: number; peakMB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMB: Math.round(kb('VmRSS') / 1024), peakMB: Math.round(kb('VmHWM') / 1024) };
}

/**
 * Resets a process's peak RSS (`VmHWM`) to its current RSS, so that `memoryOf(pid).peakMB` is the
 * peak of what follows (Linux: `5` into `/proc/<pid>/clear_refs`, allowed to the process's owner);
 * false where that cannot be done.
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** The service's `/healthz`: its data version and how many reviews it serves. */
export async function health(url: string): Promise<{ dataVersion: number; reviews: number }> {
  return (await (await fetch(`${url}/healthz`)).json()) as { dataVersion: number; reviews: number };
}

/**
 * A process's peak RSS, per phase: each phase resets the kernel's peak (`resetPeak`) before it
 * and notes it after; the run's peak is the largest noted, and the peak at the start.
 */
export class PeakRss {
  run: number;
  constructor(private readonly pid: number) {
    this.run = memoryOf(pid).peakMB;
  }
  /** The peak since the last reset, also kept as the run's if it is the largest yet. */
  note(): number {
    const peak = memoryOf(this.pid).peakMB;
    this.run = Math.max(this.run, peak);
    return peak;
  }
}

export interface LoadOptions {
  headers?: Record<string, string>;
  connections?: number;
  duration?: number;
  requests?: autocannon.Request[];
}

/** Runs autocannon against one URL and summarises it. */
export async function load(
  name: string,
  url: string,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 32,
    duration: options.duration ?? Number(process.env.BENCH_DURATION ?? 10),
    headers: options.headers ?? {},
    ...(options.requests ? { requests: options.requests } : {}),
  });
  return {
    name,
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    p50: result.latency.p50,
    throughputMBs: Math.round((result.throughput.average / 1024 / 1024) * 10) / 10,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** True when a command exists on PATH. */
export function hasCommand(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Prints rows as a Markdown table. */
export function table(rows: Record<string, string | number>[]): string {
  if (rows.length === 0) return '';
  const cols = Object.keys(rows[0]!);
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [
    line(cols),
    line(cols.map(() => '---')),
    ...rows.map((r) => line(cols.map((c) => r[c] ?? ''))),
  ].join('\n');
}

export { IDENTITY_HEAD } from './identity-head.js';
