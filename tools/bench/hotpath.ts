/**
 * The hot path (issue 27): the service against a bare `node:http` server that sends the same
 * status, headers and bytes, in turns, with 32 connections, for the three answers most requests
 * get: a conditional GET of `/reviews.json` answered 304, a cached search and `/api/feed.json`.
 * The ratio (service rate / bare rate) is what the service's own logic costs; the goal is 0.9 or
 * more for each.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { freePort, load, ROOT, startService, table } from './harness.js';
import { benchStore, stopped } from './http.js';

/** One answer of the service as the bare server replays it (the body in base64). */
export interface RecordedAnswer {
  status: number;
  headers: [string, string][];
  body: string;
}

interface Target {
  name: string;
  path: string;
  headers: Record<string, string>;
  /** Answered 304 (every answer is then a non-2xx to the load generator). */
  notModified?: boolean;
}

/** The fields Node writes by itself on every answer: the bare server gets them from Node too. */
const NODE_FIELDS = new Set(['date', 'connection', 'keep-alive']);

/** The goal of issue 27: the service at 0.9 of the bare rate or more. */
const GOAL = 0.9;

/** Sends one request and records the answer, with the header block's size in bytes. */
function record(
  url: string,
  headers: Record<string, string>,
): Promise<{ answer: RecordedAnswer; headerBytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        const statusLine = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`;
        const headerBytes =
          statusLine.length + pairs.reduce((n, [k, v]) => n + k.length + v.length + 4, 0) + 2;
        const answer = {
          status: res.statusCode ?? 0,
          headers: pairs.filter(([k]) => !NODE_FIELDS.has(k.toLowerCase())),
          body: Buffer.concat(chunks).toString('base64'),
        };
        resolve({ answer, headerBytes });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Starts the bare server replaying `answers` (path → answer) in a process of its own. */
async function startBare(
  dir: string,
  answers: Record<string, RecordedAnswer>,
): Promise<{ url: string; child: ChildProcess }> {
  const file = join(dir, 'hotpath-answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'dist/tools/bench/hotpath-bare.js')], {
    env: { ...process.env, PORT: String(port), HOTPATH_ANSWERS: file },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
    child.stdout!.once('data', () => resolve());
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** Throws unless the bare server answers `target` with the service's status, headers and body. */
async function checkSame(target: Target, mine: RecordedAnswer, bareUrl: string): Promise<void> {
  const { answer } = await record(`${bareUrl}${target.path}`, target.headers);
  if (JSON.stringify(answer) !== JSON.stringify(mine))
    throw new Error(`the bare server does not answer ${target.name} as the service does`);
}

/** Rates of one load on each server, in the given order. */
async function turn(
  target: Target,
  urls: { service: string; bare: string },
  serviceFirst: boolean,
): Promise<{ service: number; bare: number }> {
  const options = { connections: 32, headers: target.headers };
  const run = async (who: 'service' | 'bare') => {
    const r = await load(`${who} ${target.name}`, `${urls[who]}${target.path}`, options);
    if (r.errors > 0) throw new Error(`${r.name}: ${r.errors} errors`);
    // A 200 answered otherwise under load (a 503, a 429) would make the ratio meaningless.
    if (!target.notModified && r.non2xx > 0) throw new Error(`${r.name}: ${r.non2xx} not 2xx`);
    return r.rps;
  };
  if (serviceFirst) {
    const service = await run('service');
    return { service, bare: await run('bare') };
  }
  const bare = await run('bare');
  return { service: await run('service'), bare };
}

/** The three targets: the 304 of `/reviews.json` (with its current tag), a search, the feed. */
async function hotpathTargets(serviceUrl: string): Promise<Target[]> {
  const { answer } = await record(`${serviceUrl}/reviews.json`, {});
  const etag = answer.headers.find(([k]) => k.toLowerCase() === 'etag')![1];
  return [
    {
      name: '/reviews.json 304',
      path: '/reviews.json',
      headers: { 'If-None-Match': etag },
      notModified: true,
    },
    { name: 'cached search', path: '/api/reviews/search?rating=5&limit=20', headers: {} },
    { name: '/api/feed.json', path: '/api/feed.json', headers: {} },
  ];
}

/** The service's answer to each target (path → answer) and the size of its header block. */
async function recordAnswers(
  serviceUrl: string,
  targets: Target[],
): Promise<{ answers: Record<string, RecordedAnswer>; bytes: Map<string, number> }> {
  const answers: Record<string, RecordedAnswer> = {};
  const bytes = new Map<string, number>();
  for (const t of targets) {
    // The first search computes and caches; the second is the cached answer.
    await record(`${serviceUrl}${t.path}`, t.headers);
    const { answer, headerBytes } = await record(`${serviceUrl}${t.path}`, t.headers);
    answers[t.path] = answer;
    bytes.set(t.name, headerBytes);
  }
  return { answers, bytes };
}

/**
 * A warm-up of each server, then `rounds` rounds of every target on both, the order alternating:
 * a row per round and target, and the summed rates per target.
 */
async function runRounds(
  targets: Target[],
  urls: { service: string; bare: string },
  rounds: number,
): Promise<{
  rows: Record<string, string | number>[];
  sums: Map<string, { service: number; bare: number }>;
}> {
  // A fresh process runs its first requests unoptimised: a short load on each, not counted.
  for (const t of targets) {
    for (const url of [urls.service, urls.bare])
      await load('warm-up', `${url}${t.path}`, { duration: 1, headers: t.headers });
  }
  const rows: Record<string, string | number>[] = [];
  const sums = new Map(targets.map((t) => [t.name, { service: 0, bare: 0 }]));
  for (let round = 1; round <= rounds; round++) {
    for (const t of targets) {
      const rates = await turn(t, urls, round % 2 === 1);
      const sum = sums.get(t.name)!;
      sum.service += rates.service;
      sum.bare += rates.bare;
      const ratio = (rates.service / rates.bare).toFixed(2);
      rows.push({
        target: t.name,
        round,
        'service req/s': rates.service,
        'bare req/s': rates.bare,
        ratio,
      });
    }
  }
  return { rows, sums };
}

/**
 * `npm run bench -- hotpath`: BENCH_HOTPATH_COUNT reviews (default 1,000), BENCH_HOTPATH_ROUNDS
 * rounds (default 3) of BENCH_DURATION seconds per load (default 10); the order of the two
 * servers alternates from one round to the next, so that both see the same machine.
 */
export async function benchHotpath(count: number, rounds: number): Promise<string> {
  const { dir, databaseUrl, drop } = await benchStore('hotpath', count);
  // BENCH_HOTPATH_METRICS=on: the service with its metrics on (each request observed).
  const metrics: Record<string, string> =
    process.env.BENCH_HOTPATH_METRICS === 'on' ? { METRICS_PORT: '0' } : {};
  const svc = await startService({ DATABASE_URL: databaseUrl, ...metrics });
  let bare: { url: string; child: ChildProcess } | null = null;
  try {
    const targets = await hotpathTargets(svc.url);
    const { answers, bytes } = await recordAnswers(svc.url, targets);
    bare = await startBare(dir, answers);
    for (const t of targets) await checkSame(t, answers[t.path]!, bare.url);
    const { rows, sums } = await runRounds(targets, { service: svc.url, bare: bare.url }, rounds);
    const summary = targets.map((t) => {
      const sum = sums.get(t.name)!;
      const ratio = sum.service / sum.bare;
      return {
        target: t.name,
        status: answers[t.path]!.status,
        'header bytes': bytes.get(t.name)!,
        'service req/s': Math.round(sum.service / rounds),
        'bare req/s': Math.round(sum.bare / rounds),
        'service/bare': ratio.toFixed(2),
        [`≥ ${GOAL}`]: ratio >= GOAL ? 'yes' : 'NO',
      };
    });
    const sent304 = answers['/reviews.json']!.headers.map(([k]) => k).join(', ');
    return [
      `${count.toLocaleString('en-US')} reviews, ${rounds} rounds, 32 connections`,
      '',
      table(rows),
      '',
      table(summary),
      '',
      `The 304 sends: ${sent304} (and Node's Date, Connection, Keep-Alive).`,
      '',
    ].join('\n');
  } finally {
    await Promise.all([stopped(svc.child), bare ? stopped(bare.child) : undefined]);
    await drop();
  }
}
