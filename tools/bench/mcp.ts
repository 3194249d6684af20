import { load, startService, table } from './harness.js';
import { benchStore } from './http.js';
import { mcpSession, poller } from './probes.js';
import { describeStalls, startWatchedService } from './watched-service.js';

/**
 * Compares `tools/call search_reviews` with the same query over `GET /api/reviews/search`, per
 * request, on the same service (response cache on and off).
 */
export async function benchMcp(count: number): Promise<string> {
  const { databaseUrl, drop } = await benchStore('mcp', count);
  const rows: Record<string, string | number>[] = [];
  try {
    for (const cache of ['2000', '0']) {
      const svc = await startService({ DATABASE_URL: databaseUrl, RESPONSE_CACHE_ENTRIES: cache });
      try {
        const session = await mcpSession(svc.url);
        const args = { min_rating: 4, query: 'service', limit: 20 };
        const httpRun = await load(
          'http',
          `${svc.url}/api/reviews/search?min_rating=4&query=service&limit=20`,
        );
        const mcpRun = await load('mcp', `${svc.url}/mcp`, {
          requests: [
            {
              method: 'POST',
              headers: {
                'Content-Type': 'application/json',
                Accept: 'application/json, text/event-stream',
                'Mcp-Session-Id': session,
                'MCP-Protocol-Version': '2025-06-18',
              },
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: 7,
                method: 'tools/call',
                params: { name: 'search_reviews', arguments: args },
              }),
            },
          ],
        });
        rows.push({
          'response cache': cache === '0' ? 'off' : 'on',
          'HTTP req/s': httpRun.rps,
          'HTTP p99 ms': httpRun.p99,
          'MCP req/s': mcpRun.rps,
          'MCP p99 ms': mcpRun.p99,
          'MCP cost / HTTP cost': (httpRun.rps / mcpRun.rps).toFixed(2),
          'MCP non-2xx': mcpRun.non2xx,
        });
      } finally {
        svc.child.kill('SIGTERM');
      }
    }
    return [
      `### ${count.toLocaleString('en-US')} reviews: search_reviews over MCP vs HTTP`,
      '',
      table(rows),
      '',
    ].join('\n');
  } finally {
    await drop();
  }
}

const LEGACY_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': '2025-03-26',
};

/** A `tools/call` message. */
const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/**
 * The batches of the two modes: `repeated` is the audit's (50 get_rating_summary and 50
 * get_insights calls, the same arguments each time: the result cache answers all but the first
 * of each); `distinct` is the worst case, 100 get_rating_summary calls that no cache answers (each
 * asks for another start date and grouping, never asked before).
 */
function batchOf(mode: 'repeated' | 'distinct', serial: { n: number }): unknown[] {
  return Array.from({ length: 100 }, (_, i) => {
    if (mode === 'repeated')
      return i % 2 ? call(i, 'get_insights', {}) : call(i, 'get_rating_summary', {});
    const n = serial.n++;
    const since = new Date(Date.UTC(1990, 0, 1) + Math.floor(n / 3) * 86_400_000);
    const group_by = ['month', 'department', 'source'][n % 3];
    return call(i, 'get_rating_summary', { since: since.toISOString().slice(0, 10), group_by });
  });
}

/** A session of protocol 2025-03-26, the last with JSON-RPC batches. */
async function legacySession(url: string): Promise<string> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: LEGACY_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-03-26',
        capabilities: {},
        clientInfo: { name: 'b', version: '1' },
      },
    }),
  });
  await res.arrayBuffer();
  return res.headers.get('mcp-session-id')!;
}

/** POSTs a message or batch of a session; the time it took and whether every answer is a result. */
async function post(
  url: string,
  session: string,
  body: unknown,
): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { ...LEGACY_HEADERS, 'Mcp-Session-Id': session },
    body: JSON.stringify(body),
  });
  // Not parsed: the probe's times are taken on this process's event loop too.
  const text = await res.text();
  const ok = res.status === 200 && !text.includes('"error":{') && !text.includes('"isError":true');
  return { ms: performance.now() - started, ok };
}

const pct = (sorted: number[], p: number) => sorted[Math.floor(sorted.length * p)] ?? 0;

/**
 * `/healthz` while two clients send JSON-RPC batches of 100 heavy tool calls in a loop (issue:
 * MCP bounded per request): the probe's p99 and max (the goal: never over 100 ms), the service's
 * own event-loop delay, and the batches' times. Waits until the insights are computed, so that
 * `get_insights` does its work rather than answer "try again".
 */
export async function benchMcpBatches(count: number): Promise<string> {
  const { databaseUrl, drop } = await benchStore('mcp-batches', count);
  const rows: Record<string, string | number>[] = [];
  const svc = await startWatchedService(databaseUrl, {
    SAMPLE_DATA: 'off',
    LOG_LEVEL: 'warn',
    MCP_INITIALIZE_PER_MIN: '1000000',
  });
  try {
    const sessions = [await legacySession(svc.url), await legacySession(svc.url)];
    const started = performance.now();
    while (!(await post(svc.url, sessions[0]!, call(1, 'get_insights', {}))).ok) {
      if (performance.now() - started > 1_800_000) throw new Error('the insights never came');
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const first = await post(
      svc.url,
      sessions[0]!,
      call(2, 'get_rating_summary', { group_by: 'month' }),
    );
    const durationMs = Number(process.env.BENCH_DURATION ?? 10) * 1000;
    const serial = { n: 0 };
    for (const mode of ['repeated', 'distinct'] as const) {
      await svc.loop();
      const healthz = poller(`${svc.url}/healthz`, 20);
      const times: number[] = [];
      let errors = 0;
      const until = performance.now() + durationMs;
      await Promise.all(
        sessions.map(async (session) => {
          while (performance.now() < until) {
            const r = await post(svc.url, session, batchOf(mode, serial));
            times.push(r.ms);
            if (!r.ok) errors++;
          }
        }),
      );
      const h = await healthz.stop();
      const loop = await svc.loop();
      times.sort((a, b) => a - b);
      rows.push({
        batches: `${mode} (${times.length})`,
        'calls/s': Math.round((times.length * 100 * 1000) / durationMs),
        'batch p50 / max ms': `${Math.round(pct(times, 0.5))} / ${Math.round(times.at(-1) ?? 0)}`,
        '/healthz p99 / max ms': `${Math.round(h.p99)} / ${Math.round(h.max)} (${h.count})`,
        'event loop max ms': Math.round(loop.maxMs),
        'stalls over 50 ms (ran / waited for a core / gc)': describeStalls(loop.stalls),
        'failed batches': errors + h.errors,
      });
    }
    return [
      `### ${count.toLocaleString('en-US')} reviews: batches of 100 tool calls from 2 clients, /healthz every 20 ms`,
      '',
      `One uncached get_rating_summary (group_by month) alone: ${Math.round(first.ms)} ms.`,
      '',
      table(rows),
      '',
    ].join('\n');
  } finally {
    svc.child.kill('SIGTERM');
    await drop();
  }
}
