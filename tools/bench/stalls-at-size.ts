/**
 * The second part of `npm run bench -- stalls` (see stalls.ts), at the size the import left:
 * requests one after another under the event-loop monitor, memory over one-review versions, and
 * clients that never read a streamed since result while versions change.
 */
import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { run, runImport } from './commands.js';
import { health, memoryOf, resetPeak, ROOT, type PeakRss } from './harness.js';
import { mcpSession } from './probes.js';
import { describeStalls, type WatchedService } from './watched-service.js';

const ms = (n: number) => `${Math.round(n)} ms`;

/** Imports `file` (a small one) and waits until the service serves the version it made. */
async function importUntilServed(svc: WatchedService, file: string, databaseUrl: string) {
  const { dataVersion } = await health(svc.url);
  await runImport(file, databaseUrl);
  while ((await health(svc.url)).dataVersion === dataVersion)
    await new Promise((r) => setTimeout(r, 20));
}

/** Reads `url` with curl, in its own process as a client would, and drops the body. */
function curl(url: string, headers: Record<string, string> = {}): Promise<number> {
  return run('curl', [
    '-s',
    '-o',
    '/dev/null',
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    url,
  ]);
}

/** Reads the `reviews.json` resource over MCP, on a session of its own. */
async function mcpReadDataset(url: string): Promise<void> {
  const session = await mcpSession(url);
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Mcp-Session-Id': session,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'resources/read',
      params: { uri: `${url}/reviews.json` },
    }),
  });
  await res.arrayBuffer();
}

/**
 * Runs `work` under the event-loop monitor, with the peak RSS reset before it: a row of the
 * requests table (its time, the loop's delay and stalls, the peak).
 */
async function underMonitor(
  svc: WatchedService,
  peaks: PeakRss,
  name: string,
  work: () => Promise<unknown>,
): Promise<Record<string, string>> {
  await svc.loop();
  const known = resetPeak(svc.child.pid!);
  const started = performance.now();
  await work();
  const took = performance.now() - started;
  const loop = await svc.loop();
  return {
    request: name,
    took: ms(took),
    'event-loop delay max': ms(loop.maxMs),
    'stalls over 50 ms (ran / waited / gc)': describeStalls(loop.stalls),
    'peak RSS': known ? `${peaks.note()} MB` : 'unknown',
  };
}

/**
 * Requests at the imported size, one after another, each under the event-loop monitor: whole since
 * results in parallel, the dataset, uncached searches, an MCP read of the dataset, and a
 * one-review import (written to `small`) until its version is served.
 */
export async function requestsAtSize(
  svc: WatchedService,
  peaks: PeakRss,
  small: string,
  databaseUrl: string,
): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  const measure = async (name: string, work: () => Promise<unknown>) => {
    rows.push(await underMonitor(svc, peaks, name, work));
  };
  // Large bodies are read by curl, in its own process, as a client would.
  const read = (path: string, headers: Record<string, string> = {}) =>
    curl(`${svc.url}${path}`, headers);
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
  await measure('MCP `resources/read` of reviews.json', () => mcpReadDataset(svc.url));
  writeFileSync(
    small,
    'source,review_id,rating,date,author,text\ngoogle,bench-one,5,2026-10-30T12:00:00Z,Ann,Quick oil change.\n',
  );
  await measure('import one review, until its version is served', () =>
    importUntilServed(svc, small, databaseUrl),
  );
  return rows;
}

/**
 * Memory over many versions (BENCH_VERSIONS, default 8): one review at a time (written to
 * `small`), each settled. The peak of each is split: until the new version is served (the build),
 * then the 15 s after (insights and codings).
 */
export async function memoryOverVersions(
  svc: WatchedService,
  peaks: PeakRss,
  small: string,
  databaseUrl: string,
): Promise<string> {
  const versions = Number(process.env.BENCH_VERSIONS ?? 8);
  const settledAfter: number[] = [];
  const peaksOf: string[] = [];
  for (let i = 0; i < versions; i++) {
    peaks.note();
    const peakKnown = resetPeak(svc.child.pid!);
    writeFileSync(
      small,
      `source,review_id,rating,date,author,text\ngoogle,bench-v${i},4,2026-10-29T12:00:00Z,Bo,Fine.\n`,
    );
    await importUntilServed(svc, small, databaseUrl);
    const buildPeak = peaks.note();
    resetPeak(svc.child.pid!);
    await new Promise((r) => setTimeout(r, 15_000));
    const mem = memoryOf(svc.child.pid!);
    settledAfter.push(mem.rssMB);
    if (peakKnown) peaksOf.push(`${buildPeak} / ${peaks.note()}`);
  }
  return (
    `Settled RSS 15 s after each of ${versions} one-review imports: ${settledAfter.join(', ')} MB` +
    (peaksOf.length
      ? `; the peak during each, until the version was served / in the 15 s after: ${peaksOf.join(', ')} MB`
      : '') +
    ` (MALLOC_MMAP_THRESHOLD_=${process.env.MALLOC_MMAP_THRESHOLD_ ?? 'unset'}).`
  );
}

/**
 * Clients that never read a streamed since result, across data versions (the reproduction of a
 * review of issue 15): three such clients per version, while a review is removed and restored
 * three times; the service's RSS after each pair, and once the clients are gone.
 */
export async function slowReaders(svc: WatchedService, databaseUrl: string): Promise<string> {
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
