import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/child-service.js';
import { connectClient, initSession, rpc, rpcError, toolCaller } from '../helpers/mcp.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * What the agent audit of issue 29 found, fixed and checked through the official client: what the
 * server says of itself, descriptions that state the schemas' defaults and bounds, errors that say
 * the way on (cursors, unknown tools and names, numeric bounds), list_technicians, and the
 * aspects' trends only on request.
 */

let svc: TestService;
let client: Client;

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(90) });
  ({ client } = await connectClient(svc.url));
});
afterAll(async () => {
  await client.close();
  await svc.stop();
});

const call = toolCaller(() => client);

interface Property {
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

/**
 * The clause of a description about `name`: from the name (a whole word) to the end of its
 * clause (`,`, `;` or a sentence's end outside parentheses, or the parenthesis around it).
 */
function clausesAbout(text: string, name: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(new RegExp(`\\b${name}\\b`, 'g'))) {
    let depth = 0;
    let end = m.index;
    for (; end < text.length; end++) {
      const c = text[end]!;
      if (c === '(') depth++;
      else if (c === ')' && --depth < 0) break;
      else if (
        depth === 0 &&
        (c === ',' || c === ';' || (c === '.' && /\s|$/.test(text[end + 1] ?? '')))
      )
        break;
    }
    out.push(text.slice(m.index, end));
  }
  return out;
}

/** The defaults a text states: `compact (default)`, `default 20`, `Default false`. */
function statedDefaults(text: string): string[] {
  const value = String.raw`"?([\w-]+(?:\.\d+)?)"?`;
  const before = [...text.matchAll(new RegExp(`${value} \\(default\\)`, 'g'))];
  const after = [...text.matchAll(new RegExp(`\\bdefault:? ${value}`, 'gi'))];
  return [...before, ...after].map((m) => m[1]!);
}

/** The ranges a text states: `1-100`, `1-5`. */
function statedRanges(text: string): [number, number][] {
  return [...text.matchAll(/\b(\d[\d,]*)-(\d[\d,]*)\b/g)].map((m) => [
    Number(m[1]!.replace(/,/g, '')),
    Number(m[2]!.replace(/,/g, '')),
  ]);
}

describe('what the server says of itself (2025-11-25)', () => {
  it('serverInfo has a description, a website and an icon in a data: URI', () => {
    const info = client.getServerVersion() as unknown as {
      name: string;
      description: string;
      websiteUrl: string;
      icons: { src: string; mimeType: string; sizes: string[] }[];
    };
    expect(info.name).toBe('dealer-reviews');
    expect(info.description).toMatch(/^Read-only verified customer reviews of Test Motors/);
    expect(info.websiteUrl).toMatch(/^https?:\/\//);
    expect(info.icons).toHaveLength(1);
    const [icon] = info.icons;
    expect(icon).toMatchObject({ mimeType: 'image/svg+xml', sizes: ['any'] });
    const svg = Buffer.from(icon!.src.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64');
    expect(svg.toString('utf8')).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });
});

describe('descriptions match the schemas', () => {
  it('every default and range a description states is the schema’s', async () => {
    const { tools } = await client.listTools();
    let checked = 0;
    for (const tool of tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, Property>;
      for (const [name, p] of Object.entries(properties)) {
        const texts = [p.description ?? '', ...clausesAbout(tool.description ?? '', name)];
        const where = `${tool.name}.${name}`;
        for (const text of texts) {
          for (const stated of statedDefaults(text)) {
            expect(p.default, `${where}: "${text.slice(0, 80)}"`).toBeDefined();
            expect(stated, `${where}: "${text.slice(0, 80)}"`).toBe(String(p.default));
            checked++;
          }
          if (p.minimum === undefined || p.maximum === undefined) continue;
          for (const range of statedRanges(text)) {
            expect(range, `${where}: "${text.slice(0, 80)}"`).toEqual([p.minimum, p.maximum]);
            checked++;
          }
        }
      }
    }
    // search_reviews (limit and detail, in the tool's and the fields' descriptions), get_review,
    // get_reviews_since, get_insights.trend.
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('get_review gives the full record by default, as its description says', async () => {
    const { tools } = await client.listTools();
    const detail = (
      tools.find((t) => t.name === 'get_review')!.inputSchema.properties as Record<string, Property>
    )['detail']!;
    expect(detail.default).toBe('full');
    expect(detail.description).toMatch(/^full \(default\)/);
    const all = (await (await fetch(`${svc.url}/reviews.json`)).json()) as {
      reviews: { id: string }[];
    };
    const { structured } = await call('get_review', { id: all.reviews[0]!.id });
    expect(structured.review).toEqual(all.reviews[0]);
  });
});

describe('errors that say the way on', () => {
  it('limit: 1e300 states the field’s bound once, never the safe integers', async () => {
    const { result, text } = await call('search_reviews', { limit: 1e300 });
    expect(result.isError).toBe(true);
    expect(text).toBe(
      'Invalid arguments for tool search_reviews: limit: Too big: expected number to be <=100',
    );
    // Before 2025-11-25: the -32602 error, one issue.
    const res = await rpc(
      svc.url,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'get_reviews_since', arguments: { date: '2024-01-01', limit: -1e300 } },
      },
      { 'Mcp-Session-Id': await initSession(svc.url), 'MCP-Protocol-Version': '2025-06-18' },
    );
    const { error } = res.json as { error: { message: string; data: { issues: unknown[] } } };
    expect(error.message).toBe(
      'Invalid arguments for tool get_reviews_since: limit: Too small: expected number to be >=1',
    );
    expect(error.data.issues).toHaveLength(1);
    expect(res.text).not.toContain('9007199254740991');
  });

  it('a cursor from other filters says it belongs to another call and to drop it', async () => {
    const first = await call('search_reviews', { limit: 2 });
    const cursor = first.structured.nextCursor as string;
    for (const [tool, args] of [
      ['search_reviews', { limit: 2, rating: 5, cursor }],
      ['get_reviews_since', { date: '2024-01-01', cursor }],
      ['get_rating_summary', { group_by: 'month', cursor }],
      ['list_staff', { cursor }],
    ] as const) {
      const { result, text } = await call(tool, args);
      expect(result.isError, tool).toBe(true);
      expect(text, tool).toMatch(
        /^Invalid arguments: cursor: belongs to another call \(other filters, or another tool(, or data that changed since)?\): drop cursor to start again from the first page, or send it with the arguments of the call that returned it$/,
      );
    }
  });

  it('a prompt with a misspelt staff name or service id suggests the closest, as the tools do', async () => {
    const tool = await call('search_reviews', { mentions_technician: 'Mike Tores' });
    expect(tool.text).toContain('Closest names: Mike Torres');
    const staff = await rpcError(() =>
      client.getPrompt({ name: 'technician_feedback', arguments: { technician: 'Mike Tores' } }),
    );
    expect(staff.code).toBe(-32602);
    expect(staff.message).toContain(
      'Invalid argument technician: No staff member is called "Mike Tores". Closest names: Mike Torres',
    );
    const shared = await rpcError(() =>
      client.getPrompt({ name: 'technician_feedback', arguments: { technician: 'mike' } }),
    );
    expect(shared.message).toMatch(
      /"mike" matches several staff members \((Mike Torres, Mike Chen|Mike Chen, Mike Torres)\); use the full name/,
    );
    const service = await rpcError(() =>
      client.getPrompt({ name: 'service_feedback', arguments: { service: 'brake' } }),
    );
    expect(service.message).toContain(
      'Invalid argument service: No service has the id "brake". Closest ids: brakes (Brake service).',
    );
  });
});

describe('list_technicians and get_insights', () => {
  it('list_technicians lists the technicians only, with no role argument', async () => {
    const { structured } = await call('list_technicians');
    const names = (structured.technicians as { name: string; role: string }[]).map((t) => [
      t.name,
      t.role,
    ]);
    expect(names.sort()).toEqual([
      ['Mike Torres', 'technician'],
      ['Sarah Lopez', 'technician'],
    ]);
    const { result, text } = await call('list_technicians', { role: 'sales' });
    expect(result.isError).toBe(true);
    expect(text).toContain('role: is not a known parameter');
  });

  it('the aspects come without their monthly trends unless asked for', async () => {
    await waitUntil(
      async () => (await fetch(`${svc.url}/insights.json`)).ok || undefined,
      'the insights',
      60_000,
    );
    const doc = (await (await fetch(`${svc.url}/insights.json`)).json()) as {
      aspects: { id: string; trend: unknown[] }[];
    };
    const lean = await call('get_insights', { section: 'aspects' });
    const items = lean.structured.aspects as Record<string, unknown>[];
    expect(items.length).toBeGreaterThan(0);
    for (const a of items) expect(a, String(a.id)).not.toHaveProperty('trend');
    const id = doc.aspects[0]!.id;
    const withTrend = await call('get_insights', { section: 'aspects', id, trend: true });
    expect((withTrend.structured.aspects as { trend: unknown }[])[0]!.trend).toEqual(
      doc.aspects[0]!.trend,
    );
    const wrong = await call('get_insights', { section: 'staff', trend: true });
    expect(wrong.result.isError).toBe(true);
    expect(wrong.text).toContain('trend');
  });
});
