/**
 * The soak's load (see soak.ts): closed loops over one undici Pool, each a request, its whole
 * answer, then the next request, over a mix of the read endpoints, the heavy bodies and MCP calls;
 * every request timed and tallied by kind.
 */
import type { Pool } from 'undici';

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

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const month = () => `2026-0${1 + Math.floor(Math.random() * 9)}-01`;

/**
 * The read endpoints, by weight: documents are served prepared, search computed, since paged,
 * and the HTML pages (the review pages of `reviewIds`, read from the service before the load).
 */
function reads(reviewIds: readonly string[]): Kind[] {
  return [
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
    { name: 'page `/reviews/{id}`', weight: 1, path: () => `/reviews/${pick(reviewIds)}` },
  ];
}

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

/** Each kind as many times as its weight, so that a uniform pick follows the weights. */
const weighted = (kinds: readonly Kind[]): Kind[] =>
  kinds.flatMap((k) => Array.from({ length: k.weight }, () => k));

/** A refusal by design: a rate limit (429) or too many streams at once (503). */
const refused = (error: string): boolean => error.startsWith('429') || error.startsWith('503');

/** Latencies and outcomes of one kind of request, in total and per 10 s window. */
export class Tally {
  readonly times: number[] = [];
  errors = 0;
  tooMany = 0;
  readonly samples: string[] = [];
  note(ms: number, error: string | null): void {
    this.times.push(ms);
    if (error === null) return;
    // Refusals by design (a rate limit, too many streams at once) are counted apart.
    if (refused(error)) this.tooMany++;
    else this.errors++;
    if (this.samples.length < 5) this.samples.push(error);
  }
}

/**
 * The soak's load on one Pool: `run` starts the closed loops and resolves when they reach the
 * deadline. Every request is tallied by kind, and counted in the current window; a `/healthz`
 * answer with another data version than `firstVersion` marks when the new version was first
 * served.
 */
export class SoakLoad {
  /** Each kind of request's tally, in the order of the table (MCP kinds as first met). */
  readonly tallies = new Map<string, Tally>();
  /** Requests, and errors (refusals by design left out), in the current window. */
  windowRequests = 0;
  windowErrors = 0;
  /** When `/healthz` first showed a new data version (`performance.now()`), and its reviews. */
  newVersion: { at: number; reviews: number } | null = null;
  private readonly reads: Kind[];
  private readonly heavy: Kind[];

  constructor(
    private readonly pool: Pool,
    private readonly firstVersion: number,
    reviewIds: readonly string[],
  ) {
    const light = reads(reviewIds);
    for (const k of [...light, ...HEAVY]) this.tally(k.name);
    this.reads = weighted(light);
    this.heavy = weighted(HEAVY);
  }

  /**
   * `connections` closed loops until `deadline` (`performance.now()`): every tenth an MCP client,
   * one in fifty a reader of the heavy bodies, the rest readers of the read endpoints.
   */
  async run(connections: number, deadline: number): Promise<void> {
    const loops = Array.from({ length: connections }, (_, i) =>
      i % 10 === 9
        ? this.mcpClient(i, deadline)
        : i % 50 === 0
          ? this.reader(this.heavy, deadline)
          : this.reader(this.reads, deadline),
    );
    await Promise.all(loops);
  }

  /** The tally of one kind of request (made on first use). */
  private tally(name: string): Tally {
    let t = this.tallies.get(name);
    if (!t) this.tallies.set(name, (t = new Tally()));
    return t;
  }

  /** Times one request (`work` resolves its error, or null) and notes it; a throw is an error. */
  private async timed(name: string, work: () => Promise<string | null>): Promise<void> {
    const t0 = performance.now();
    let error: string | null;
    try {
      error = await work();
    } catch (err) {
      error = `${(err as { code?: string }).code ?? ''} ${err instanceof Error ? err.message : String(err)}`;
    }
    this.tally(name).note(performance.now() - t0, error);
    this.windowRequests++;
    if (error !== null && !refused(error)) this.windowErrors++;
  }

  /** GETs `path`, reads its body to the end; resolves null for a 2xx or 304, else the error. */
  private async get(path: string): Promise<string | null> {
    // Clients take gzip (the documents are prepared in it); /healthz is read as JSON here.
    const headers: Record<string, string> =
      path === '/healthz' ? {} : { 'accept-encoding': 'gzip' };
    const res = await this.pool.request({ method: 'GET', path, headers });
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
      if (h.dataVersion !== this.firstVersion && this.newVersion === null) {
        this.newVersion = { at: performance.now(), reviews: h.reviews };
      }
    }
    if ((res.statusCode >= 200 && res.statusCode < 300) || res.statusCode === 304) return null;
    return `${res.statusCode} ${path}: ${body.slice(0, 120)}`;
  }

  /**
   * POSTs one JSON-RPC message to /mcp (on `session`, if any): the error (an HTTP status other
   * than 200, a JSON-RPC error, a tool error) or null, and the session the answer names.
   */
  private async mcp(
    message: object,
    session: string | null,
  ): Promise<{ error: string | null; session: string | null }> {
    const res = await this.pool.request({
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
  }

  /** A closed loop of GETs, each of a kind picked from `kinds`, until the deadline. */
  private async reader(kinds: readonly Kind[], deadline: number): Promise<void> {
    while (performance.now() < deadline) {
      const kind = kinds[Math.floor(Math.random() * kinds.length)]!;
      await this.timed(kind.name, () => this.get(kind.path()));
    }
  }

  /** An MCP client (the `n`th loop): it initializes once, then calls tools until the deadline. */
  private async mcpClient(n: number, deadline: number): Promise<void> {
    let session: string | null = null;
    await this.timed('MCP `initialize`', async () => {
      const r = await this.mcp(
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
    while (performance.now() < deadline) {
      const call = TOOL_CALLS[id % TOOL_CALLS.length]!;
      await this.timed(`MCP \`tools/call ${call.name}\``, async () => {
        const r = await this.mcp(
          { jsonrpc: '2.0', id: id++, method: 'tools/call', params: call },
          session,
        );
        return r.error;
      });
    }
  }
}
