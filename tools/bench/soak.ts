/**
 * `npm run bench -- soak`: the service under sustained load with a large import in the middle.
 *
 * The service (built, its own process, the bundled sample store, an event-loop delay monitor in
 * it) is driven for BENCH_SOAK_SECONDS (default 60) by BENCH_SOAK_CONNECTIONS (default 1,000)
 * keep-alive connections of one undici Pool, each a closed loop (a request, its whole answer, the
 * next request) over a mix of the read endpoints and MCP calls. Every tenth loop is an MCP client:
 * it initializes once, then calls tools. BENCH_SOAK_IMPORT_AT seconds in (default 20), the real
 * `dealer-reviews import` of BENCH_IMPORT_COUNT generated reviews (default 100,000) starts as its
 * own process, as `npm run bench -- stalls` does.
 *
 * The mix includes the HTML pages and `/insights.json`; one loop in fifty reads only the heavy
 * bodies, the dataset (`/reviews.json`) and whole since results (streamed). Bodies are read to
 * their end and dropped.
 *
 * An error is any answer but a 2xx or 304, a failed connection, or an MCP answer that is a
 * JSON-RPC error or a tool error. The MCP initialize limit (MCP_INITIALIZE_PER_MIN, 60 per
 * client address) would refuse the hundred clients that all come from 127.0.0.1, so the soak
 * raises it; a 429 (and a 503 for too many streams at once, SINCE_MAX_STREAMS) would still be
 * counted apart, as refusals by design, and is not expected. The read endpoints have no rate
 * limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { memoryOf, ROOT, table } from './harness.js';
import { run, runImport } from './commands.js';
import { startWatchedService, type WatchedService } from './watched-service.js';

interface Kind {
  name: string;
  weight: number;
  path: () => string;
}

const SEARCHES = [
  'rating=5&limit=20',
  'min_rating=4&query=brake&limit=10',
  'query=oil%20change&min_rating=3&limit=20',
  'since=2025-06-01&until=2026-06-01&limit=20',
  'rating=1&limit=5',
];

/** Review ids for the review pages (read from the service before the load). */
const REVIEW_IDS: string[] = [];

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const month = () => `2026-0${1 + Math.floor(Math.random() * 9)}-01`;

/**
 * The read endpoints, by weight: documents are served prepared, search computed, since paged,
 * and the HTML pages.
 */
const READS: Kind[] = [
  { name: '`/healthz`', weight: 2, path: () => '/healthz' },
  {
    name: '`/api/reviews/search` (5 filter sets)',
    weight: 5,
    path: () => `/api/reviews/search?${pick(SEARCHES)}`,
  },
  { name: '`/api/feed.json`', weight: 2, path: () => '/api/feed.json' },
  { name: '`/feed.xml`', weight: 2, path: () => '/feed.xml' },
  {
    name: '`/api/reviews/since/{date}?limit=50`',
    weight: 3,
    path: () => `/api/reviews/since/${month()}?limit=50`,
  },
  { name: '`/insights.json`', weight: 1, path: () => '/insights.json' },
  {
    name: 'pages `/`, `/?rating=1`, `/insights`',
    weight: 2,
    path: () => pick(['/', '/?rating=1', '/insights']),
  },
  { name: 'page `/reviews/{id}`', weight: 1, path: () => `/reviews/${pick(REVIEW_IDS)}` },
];

/**
 * The heavy bodies, read by loops of their own (one in fifty): the dataset (15 MB in gzip at
 * 100,000 reviews) and whole since results (thousands of reviews, streamed and compressed on the
 * fly). In the same closed loops as the light requests they would hold nearly every connection
 * once the dataset is large, and measure nothing but the bandwidth.
 */
const HEAVY: Kind[] = [
  { name: '`/reviews.json` (the dataset; heavy loops)', weight: 1, path: () => '/reviews.json' },
  {
    name: '`/api/reviews/since/{date}` whole (streamed; heavy loops)',
    weight: 1,
    path: () => `/api/reviews/since/${month()}`,
  },
];

const TOOL_CALLS = [
  { name: 'search_reviews', arguments: { min_rating: 4, query: 'service', limit: 5 } },
  { name: 'get_insights', arguments: {} },
  { name: 'get_rating_summary', arguments: {} },
];

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** Latencies and outcomes of one kind of request, in total and per 10 s window. */
class Tally {
  readonly times: number[] = [];
  errors = 0;
  tooMany = 0;
  readonly samples: string[] = [];
  note(ms: number, error: string | null): void {
    this.times.push(ms);
    if (error === null) return;
    // Refusals by design (a rate limit, too many streams at once) are counted apart.
    if (error.startsWith('429') || error.startsWith('503')) this.tooMany++;
    else this.errors++;
    if (this.samples.length < 5) this.samples.push(error);
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const ms = (n: number) => (n < 10 ? `${n.toFixed(1)} ms` : `${Math.round(n)} ms`);

async function health(url: string): Promise<{ dataVersion: number; reviews: number }> {
  return (await (await fetch(`${url}/healthz`)).json()) as { dataVersion: number; reviews: number };
}

export async function benchSoak(): Promise<string> {
  const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
  const connections = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 1000);
  const importAt = Number(process.env.BENCH_SOAK_IMPORT_AT ?? 20);
  const count = Number(process.env.BENCH_IMPORT_COUNT ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'bench-soak-'));
  const databaseUrl = `sqlite:${join(dir, 'reviews.db')}`;
  const file = join(dir, 'big.json');
  const out: string[] = [];
  let svc: WatchedService | null = null;
  try {
    const generated = await run(process.execPath, [
      join(ROOT, 'dist/tools/sample/cli.js'),
      '--count',
      String(count),
      '--seed',
      '7',
      '--out',
      file,
    ]);
    if (generated !== 0) throw new Error(`the generator exited with ${generated}`);
    svc = await startWatchedService(databaseUrl, {
      MCP_INITIALIZE_PER_MIN: '1000000',
      MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
    });
    const url = svc.url;
    const pid = svc.child.pid!;
    const before = await health(url);
    const rssStart = memoryOf(pid).rssMB;
    const ids = (await (await fetch(`${url}/api/reviews/search?limit=20`)).json()) as {
      reviews: { id: string }[];
    };
    REVIEW_IDS.push(...ids.reviews.map((r) => r.id));

    const pool = new Pool(url, {
      connections,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
    const tallies = new Map<string, Tally>();
    const tally = (name: string) => {
      let t = tallies.get(name);
      if (!t) tallies.set(name, (t = new Tally()));
      return t;
    };
    for (const k of [...READS, ...HEAVY]) tally(k.name);
    const weights = READS.flatMap((k) => Array.from({ length: k.weight }, () => k));
    const heavyWeights = HEAVY.flatMap((k) => Array.from({ length: k.weight }, () => k));

    const started = performance.now();
    const deadline = started + seconds * 1000;
    let running = true;
    // Per 10 s window: requests, errors, event-loop delay max, RSS max.
    const windows: { requests: number; errors: number; loopMaxMs: number; rssMB: number }[] = [];
    let windowRequests = 0;
    let windowErrors = 0;
    let windowRss = 0;
    let rssPeakSampled = rssStart;
    let newVersionAt: number | null = null;
    let reviewsAfter = before.reviews;

    const timed = async (name: string, work: () => Promise<string | null>): Promise<void> => {
      const t0 = performance.now();
      let error: string | null;
      try {
        error = await work();
      } catch (err) {
        error = `${(err as { code?: string }).code ?? ''} ${err instanceof Error ? err.message : String(err)}`;
      }
      tally(name).note(performance.now() - t0, error);
      windowRequests++;
      if (error !== null && !error.startsWith('429') && !error.startsWith('503')) windowErrors++;
    };

    const get = async (path: string): Promise<string | null> => {
      // Clients take gzip (the documents are prepared in it); /healthz is read as JSON here.
      const headers: Record<string, string> =
        path === '/healthz' ? {} : { 'accept-encoding': 'gzip' };
      const res = await pool.request({ method: 'GET', path, headers });
      // Large bodies (the dataset is 15 MB in gzip) are read and dropped, not kept.
      const chunks: Buffer[] = [];
      let kept = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (kept < 4096) chunks.push(chunk);
        kept += chunk.length;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      if (path === '/healthz' && res.statusCode === 200) {
        const h = JSON.parse(body) as { dataVersion: number; reviews: number };
        if (h.dataVersion !== before.dataVersion && newVersionAt === null) {
          newVersionAt = performance.now();
          reviewsAfter = h.reviews;
        }
      }
      if ((res.statusCode >= 200 && res.statusCode < 300) || res.statusCode === 304) return null;
      return `${res.statusCode} ${path}: ${body.slice(0, 120)}`;
    };

    const mcp = async (
      message: object,
      session: string | null,
    ): Promise<{ error: string | null; session: string | null }> => {
      const res = await pool.request({
        method: 'POST',
        path: '/mcp',
        headers: session ? { ...MCP_HEADERS, 'mcp-session-id': session } : MCP_HEADERS,
        body: JSON.stringify(message),
      });
      const text = await res.body.text();
      const id = res.headers['mcp-session-id'];
      const sessionId = typeof id === 'string' ? id : session;
      if (res.statusCode !== 200)
        return { error: `${res.statusCode} /mcp: ${text.slice(0, 120)}`, session: sessionId };
      const json = JSON.parse(text) as {
        error?: { message: string };
        result?: { isError?: boolean; content?: { text?: string }[] };
      };
      if (json.error) return { error: `JSON-RPC error: ${json.error.message}`, session: sessionId };
      if (json.result?.isError)
        return { error: `tool error: ${json.result.content?.[0]?.text ?? ''}`, session: sessionId };
      return { error: null, session: sessionId };
    };

    const reader = async (kinds: readonly Kind[]): Promise<void> => {
      while (running && performance.now() < deadline) {
        const kind = kinds[Math.floor(Math.random() * kinds.length)]!;
        await timed(kind.name, () => get(kind.path()));
      }
    };

    const mcpClient = async (n: number): Promise<void> => {
      let session: string | null = null;
      await timed('MCP `initialize`', async () => {
        const r = await mcp(
          {
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: {
              protocolVersion: '2025-06-18',
              capabilities: {},
              clientInfo: { name: `soak-${n}`, version: '1' },
            },
          },
          null,
        );
        session = r.session;
        return r.error ?? (session ? null : 'no Mcp-Session-Id');
      });
      if (!session) return;
      let id = 1;
      while (running && performance.now() < deadline) {
        const call = TOOL_CALLS[id % TOOL_CALLS.length]!;
        await timed(`MCP \`tools/call ${call.name}\``, async () => {
          const r = await mcp(
            { jsonrpc: '2.0', id: id++, method: 'tools/call', params: call },
            session,
          );
          return r.error;
        });
      }
    };

    // Sampling: RSS every 500 ms, the event-loop delay every 10 s.
    await svc.loop(); // reset
    const rssTimer = setInterval(() => {
      const rss = memoryOf(pid).rssMB;
      rssPeakSampled = Math.max(rssPeakSampled, rss);
      windowRss = Math.max(windowRss, rss);
    }, 500);
    const service = svc;
    const windowTimer = setInterval(() => {
      void service.loop().then((loop) => {
        windows.push({
          requests: windowRequests,
          errors: windowErrors,
          loopMaxMs: loop.maxMs,
          rssMB: windowRss,
        });
        windowRequests = 0;
        windowErrors = 0;
        windowRss = 0;
      });
    }, 10_000);

    // The import, as its own process, `importAt` seconds in.
    let importStartedAt = 0;
    let importEndedAt = 0;
    let importCode: number | null = null;
    const importDone = new Promise<void>((resolve) => {
      setTimeout(() => {
        importStartedAt = performance.now();
        void runImport(file, databaseUrl).then((code) => {
          importCode = code;
          importEndedAt = performance.now();
          resolve();
        });
      }, importAt * 1000);
    });

    const loops = Array.from({ length: connections }, (_, i) =>
      i % 10 === 9 ? mcpClient(i) : i % 50 === 0 ? reader(heavyWeights) : reader(weights),
    );
    await Promise.all(loops);
    running = false;
    const wall = (performance.now() - started) / 1000;
    clearInterval(windowTimer);
    clearInterval(rssTimer);
    const lastLoop = await svc.loop();
    windows.push({
      requests: windowRequests,
      errors: windowErrors,
      loopMaxMs: lastLoop.maxMs,
      rssMB: windowRss,
    });
    await importDone;
    await pool.close();
    const rssEnd = memoryOf(pid).rssMB;
    const peak = Math.max(memoryOf(pid).peakMB, rssPeakSampled);
    // The version the import made, if the load ended before the service served it.
    if (newVersionAt === null) {
      for (let i = 0; i < 600 && newVersionAt === null; i++) {
        const h = await health(url);
        if (h.dataVersion !== before.dataVersion) {
          newVersionAt = performance.now();
          reviewsAfter = h.reviews;
        } else await new Promise((r) => setTimeout(r, 100));
      }
    }
    await new Promise((r) => setTimeout(r, 10_000));
    const rssSettled = memoryOf(pid).rssMB;
    const busy = svc.log.filter((l) => l.includes('SQLITE_BUSY')).length;
    const logged = svc.log.filter((l) => /"level":(40|50|60)/.test(l));

    const all = [...tallies.values()];
    const total = all.reduce((n, t) => n + t.times.length, 0);
    const errors = all.reduce((n, t) => n + t.errors, 0);
    const tooMany = all.reduce((n, t) => n + t.tooMany, 0);
    const allTimes = all.flatMap((t) => t.times).sort((a, b) => a - b);
    const rows = [...tallies].map(([name, t]) => {
      const sorted = [...t.times].sort((a, b) => a - b);
      return {
        request: name,
        requests: t.times.length.toLocaleString('en-US'),
        'req/s': Math.round(t.times.length / wall).toLocaleString('en-US'),
        errors: t.errors,
        p50: ms(percentile(sorted, 0.5)),
        p99: ms(percentile(sorted, 0.99)),
        max: ms(sorted.at(-1) ?? 0),
      };
    });
    rows.push({
      request: '**all**',
      requests: total.toLocaleString('en-US'),
      'req/s': Math.round(total / wall).toLocaleString('en-US'),
      errors,
      p50: ms(percentile(allTimes, 0.5)),
      p99: ms(percentile(allTimes, 0.99)),
      max: ms(allTimes.at(-1) ?? 0),
    });
    const at = (t: number) => `${((t - started) / 1000).toFixed(1)} s`;
    out.push(
      `### Soak: ${seconds} s at ${connections.toLocaleString('en-US')} connections, ${count.toLocaleString('en-US')}-review import at ${importAt} s\n`,
      table(rows),
      '',
      table([
        {
          measure: 'requests / errors / refusals by design (429, 503)',
          value: `${total} / ${errors} / ${tooMany}`,
        },
        { measure: 'wall time of the load', value: `${wall.toFixed(1)} s` },
        {
          measure: 'import: started / committed (exit code)',
          value: `${at(importStartedAt)} / ${importEndedAt ? at(importEndedAt) : 'after the load'} (${importCode})`,
        },
        {
          measure: 'new version first served (healthz)',
          value:
            newVersionAt === null
              ? 'not within 60 s'
              : `${at(newVersionAt)}, ${reviewsAfter} reviews`,
        },
        {
          measure: 'commit to the new version served',
          value:
            newVersionAt === null || !importEndedAt
              ? 'not measured'
              : `${((newVersionAt - importEndedAt) / 1000).toFixed(1)} s`,
        },
        {
          measure: 'service RSS: start / peak / end of load / 10 s later',
          value: `${rssStart} MB / ${peak} MB / ${rssEnd} MB / ${rssSettled} MB`,
        },
        {
          measure: 'service event-loop delay max, per 10 s window',
          value: windows.map((w) => ms(w.loopMaxMs)).join(', '),
        },
        {
          measure: 'requests per 10 s window',
          value: windows.map((w) => w.requests).join(', '),
        },
        {
          measure: 'errors per 10 s window',
          value: windows.map((w) => w.errors).join(', '),
        },
        {
          measure: 'service RSS max per 10 s window',
          value: windows.map((w) => `${w.rssMB} MB`).join(', '),
        },
        {
          measure: 'SQLITE_BUSY / warn-or-worse lines in the service log',
          value: `${busy} / ${logged.length}`,
        },
      ]),
      '',
    );
    const samples = all.flatMap((t) => t.samples);
    if (samples.length > 0)
      out.push('Errors (first of each kind):', '', ...samples.map((s) => `- ${s}`), '');
    if (logged.length > 0)
      out.push(
        'Service log (warn or worse, first 5):',
        '',
        ...logged.slice(0, 5).map((l) => `- ${l.slice(0, 300)}`),
        '',
      );
    if (importCode !== 0)
      throw new Error(`${out.join('\n')}\nthe import exited with ${importCode}`);
  } finally {
    svc?.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  return out.join('\n');
}
