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
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { run, runImport } from './commands.js';
import { memoryOf, resetPeak, ROOT, table } from './harness.js';
import { poller, storeProbes } from './probes.js';
import { describeStalls, startWatchedService, type WatchedService } from './watched-service.js';

const ms = (n: number) => `${Math.round(n)} ms`;

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
