/**
 * Requests repeated at a steady pace while the service works (an import, slow readers, a batch of
 * MCP calls): each response time and error, summed up as p99 and max.
 */

/** What a prober measured: its requests, their p99 and max time (ms), and its errors. */
export interface ProbeSummary {
  count: number;
  p99: number;
  max: number;
  errors: number;
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
    async stop(): Promise<ProbeSummary> {
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

/** Opens an MCP session (an `initialize`); resolves its `Mcp-Session-Id`. */
export async function mcpSession(url: string): Promise<string> {
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
