import { load, startService, table } from './harness.js';
import { benchStore } from './http.js';

async function initSession(url: string): Promise<string> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
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
  return res.headers.get('mcp-session-id')!;
}

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
        const session = await initSession(svc.url);
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
