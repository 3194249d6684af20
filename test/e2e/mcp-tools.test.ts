import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewsDocument, SearchResponse } from '../../src/domain/public-schemas.js';
import type { Review } from '../../src/domain/review.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { waitUntil } from '../helpers/child-service.js';
import { connectClient, initSession, rpc, rpcError, toolCaller } from '../helpers/mcp.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';

let svc: TestService;
let client: Client;
let all: Review[];

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(90) });
  ({ client } = await connectClient(svc.url));
  all = ReviewsDocument.parse((await http(`${svc.url}/reviews.json`)).json()).reviews;
});
afterAll(async () => {
  await client.close();
  await svc.stop();
});

const call = toolCaller(() => client);

describe('initialize', () => {
  it('tells the agent what the server holds and what it can do', () => {
    expect(client.getServerVersion()?.name).toBe('dealer-reviews');
    expect(client.getInstructions()).toMatch(/Test Motors/);
    expect(client.getInstructions()).toMatch(/search_reviews/);
    const caps = client.getServerCapabilities()!;
    expect(Object.keys(caps).sort()).toEqual([
      'completions',
      'logging',
      'prompts',
      'resources',
      'tools',
    ]);
  });
});

describe('initialize instructions', () => {
  it('name only tools the server lists, and say of each what it gives', async () => {
    const instructions = client.getInstructions()!;
    const { tools } = await client.listTools();
    const names = new Set(tools.map((t) => t.name));
    const named = instructions.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? [];
    expect(named.length).toBeGreaterThan(5);
    for (const name of named) expect(names, name).toContain(name);
    // What each named tool is said to give is what its description says it gives.
    const says = (tool: string) => {
      const at = instructions.indexOf(tool);
      return instructions.slice(at, instructions.indexOf(';', at) + 1 || undefined);
    };
    expect(says('get_business')).not.toMatch(/staff|roster|service catalogue/);
    expect(tools.find((t) => t.name === 'get_business')!.description).not.toMatch(
      /^[^(]*\((?:[^)]*)(?:roster|staff)/,
    );
    expect(says('list_staff')).toMatch(/staff/);
    expect(instructions).not.toContain('list_technicians');
  });
});

describe('tools', () => {
  // 6,000 until issue 28: get_changes (about 450 tokens) and search_reviews' max_rating, aspect
  // (its 12 ids as an enum) and polarity (about 130), with the texts of both cut to make room.
  it('lists the tools in at most 6,650 tokens (output schemas share what repeats)', async () => {
    const res = await rpc(
      svc.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'Mcp-Session-Id': await initSession(svc.url), 'MCP-Protocol-Version': '2025-06-18' },
    );
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.text) / 3.5).toBeLessThanOrEqual(6_650);
  });

  it('lists read-only tools with descriptions, input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'get_business',
      'search_reviews',
      'get_review',
      'get_reviews_since',
      'get_rating_summary',
      'list_staff',
      'list_services',
      'get_insights',
      'list_technicians',
      'get_changes',
    ]);
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(30);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.annotations?.readOnlyHint).toBe(true);
    }
    const search = tools.find((t) => t.name === 'search_reviews')!;
    expect(Object.keys(search.inputSchema.properties!).sort()).toEqual([
      'aspect',
      'cursor',
      'detail',
      'limit',
      'max_rating',
      'mentions_service',
      'mentions_technician',
      'min_rating',
      'polarity',
      'query',
      'rating',
      'since',
      'until',
    ]);
  });

  it('get_business returns the business and aggregate, with a plain-text copy', async () => {
    const { structured, text } = await call('get_business');
    expect(structured).toMatchObject({
      business: { name: 'Test Motors' },
      aggregateRating: { ratingCount: 90 },
      staffCount: 4,
      serviceCount: 3,
    });
    // No empty fields, and the roster is left to list_staff.
    const business = structured.business as Record<string, unknown>;
    expect(business.staff).toBeUndefined();
    for (const v of Object.values(business)) expect(v).not.toBeNull();
    expect(text).toContain('Test Motors: 1 Main St, Springfield, IL 62701, US');
    expect(text).toContain('/5 of 90 (80 with text)');
    expect(text, text).toContain('4 staff, 3 services');
  });

  it.each([
    { rating: 5, limit: 7 },
    { min_rating: 3.5, query: 'BRAKE' },
    { mentions_technician: 'sarah', since: '2024-01-01', until: '2025-06-30', limit: 100 },
    { mentions_service: 'oil-change' },
    {},
  ])('search_reviews %j finds what GET /api/reviews/search finds', async (args) => {
    const qs = new URLSearchParams(
      Object.entries(args).map(([k, v]): [string, string] => [k, String(v)]),
    );
    const viaHttp = SearchResponse.parse(
      (await http(`${svc.url}/api/reviews/search?${qs}`)).json(),
    );
    // The full records: exactly the HTTP answer.
    const full = await call('search_reviews', { ...args, detail: 'full' });
    const { nextCursor, ...rest } = full.structured;
    expect(rest).toEqual(viaHttp);
    expect(nextCursor === null).toBe(viaHttp.total <= viaHttp.count);
    // The compact shape (the default): the same reviews, in the same order, with no empty field.
    const { structured, text } = await call('search_reviews', args);
    const compact = structured.reviews as Record<string, unknown>[];
    expect(compact.map((r) => r.id)).toEqual(viaHttp.reviews.map((r) => r.id));
    expect(structured.total).toBe(viaHttp.total);
    compact.forEach((r, i) => {
      const record = viaHttp.reviews[i]!;
      expect(r).toMatchObject({
        id: record.id,
        date: record.date,
        rating: record.reviewRating.ratingValue,
        author: record.author.name,
        link: `${TEST_BASE_URL}/reviews/${record.id}`,
      });
      if (record.reviewBody) expect(r.text).toBe(record.reviewBody);
      for (const v of Object.values(r)) {
        expect(v).not.toBeNull();
        expect(v).not.toEqual([]);
      }
      // The text copy holds every review, by id.
      expect(text).toContain(`[${record.id}]`);
    });
  });

  it('search_reviews names the closest staff and services when one is unknown', async () => {
    const staff = await call('search_reviews', { mentions_technician: 'Sara Lopes' });
    expect(staff.result.isError).toBe(true);
    expect(staff.text).toContain('Sarah Lopez');
    const service = await call('search_reviews', { mentions_service: 'brake' });
    expect(service.result.isError).toBe(true);
    expect(service.text).toContain('brakes');
  });

  it('search_reviews pages with cursors through every match, newest first', async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { structured } = await call('search_reviews', {
        min_rating: 2,
        limit: 7,
        ...(cursor ? { cursor } : {}),
      });
      ids.push(...(structured.reviews as Review[]).map((r) => r.id));
      cursor = (structured.nextCursor as string | null) ?? undefined;
      pages++;
    } while (cursor && pages < 50);
    const expected = all.filter((r) => r.reviewRating.ratingValue >= 2).map((r) => r.id);
    expect(ids).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 7));
  });

  it('rejects a cursor used with other filters', async () => {
    const { structured } = await call('search_reviews', { limit: 2 });
    const rejected = await call('search_reviews', {
      limit: 2,
      rating: 5,
      cursor: structured.nextCursor,
    });
    expect(rejected.result.isError).toBe(true);
    expect(rejected.text).toMatch(/cursor/);
  });

  const invalidArguments = [
    [{ rating: 9 }, 'rating'],
    [{ rating: 2.5 }, 'rating'],
    [{ limit: 0 }, 'limit'],
    [{ since: '2024-02-30' }, 'since'],
    [{ since: '2025-02-01', until: '2025-01-01' }, 'since'],
    [{ unknown_filter: 1 }, 'unknown_filter'],
    [{ rating: '5' }, 'rating'],
    [{ mentions_technician: 'mike' }, 'mentions_technician'],
    [{ max_rating: 0 }, 'max_rating'],
    [{ min_rating: 4, max_rating: 2 }, 'max_rating'],
    [{ aspect: 'wait_time' }, 'aspect'],
    [{ polarity: 'complaints' }, 'polarity'],
  ] as const;

  // The SDK client negotiates 2025-11-25, where input validation failures are tool results
  // (SEP-1303), so the model reads why and can correct the call.
  it.each(invalidArguments)(
    'search_reviews %j is a tool error naming %s (2025-11-25)',
    async (args, field) => {
      const { result, text } = await call('search_reviews', args);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(text).toContain(field);
    },
  );

  it.each(invalidArguments)(
    'search_reviews %j is a -32602 error naming %s before 2025-11-25',
    async (args, field) => {
      const session = await initSession(svc.url, '2025-06-18');
      const res = await rpc(
        svc.url,
        {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'search_reviews', arguments: args },
        },
        { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-06-18' },
      );
      const { id, error } = res.json as {
        id: number;
        error: { code: number; message: string; data: { issues: { path: string[] }[] } };
      };
      expect(id).toBe(7);
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(field);
      expect(error.data.issues.map((i) => i.path[0])).toContain(field);
    },
  );

  it('an unknown tool is a JSON-RPC error naming the closest tools, without echoing the name', async () => {
    const err = await rpcError(() => client.callTool({ name: 'search_review', arguments: {} }));
    expect(err.code).toBe(-32602);
    expect(err.message).toBe(
      'MCP error -32602: Unknown tool: not a tool of this server; did you mean search_reviews or get_review?',
    );
    expect(err.data).toEqual({
      issues: [
        {
          path: ['name'],
          code: 'unknown_tool',
          message: 'is not a tool of this server; did you mean search_reviews or get_review?',
        },
      ],
    });
    // Nothing close: every tool is named, and the name asked for is not echoed.
    const far = await rpcError(() => client.callTool({ name: 'drop_tables', arguments: {} }));
    expect(far.code).toBe(-32602);
    expect(far.message).not.toContain('drop_tables');
    expect(far.message).toContain('its tools are get_business, search_reviews,');
  });

  it('get_review finds a review by id, and reports an unknown id as a tool error', async () => {
    const { structured } = await call('get_review', { id: all[3]!.id });
    expect(structured).toEqual({ review: all[3] });
    const compact = await call('get_review', { id: all[3]!.id, detail: 'compact' });
    expect(compact.structured).toMatchObject({ review: { id: all[3]!.id } });
    const missing = await client.callTool({ name: 'get_review', arguments: { id: 'nope' } });
    expect(missing.isError).toBe(true);
  });

  it('get_reviews_since pages oldest first through the since set', async () => {
    const day = all[40]!.date;
    const expected = all
      .filter((r) => r.date >= day)
      .reverse()
      .map((r) => r.id);
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const { structured } = await call('get_reviews_since', {
        date: day,
        limit: 6,
        ...(cursor ? { cursor } : {}),
      });
      expect(structured.total).toBe(expected.length);
      ids.push(...(structured.reviews as Review[]).map((r) => r.id));
      cursor = (structured.nextCursor as string | null) ?? undefined;
    } while (cursor);
    expect(ids).toEqual(expected);
  });

  it('a cursor continues with another page size or shape: it is bound to the filters only', async () => {
    const first = await call('search_reviews', { min_rating: 2, limit: 3 });
    const next = await call('search_reviews', {
      min_rating: 2,
      limit: 5,
      detail: 'full',
      cursor: first.structured.nextCursor,
    });
    expect(next.result.isError ?? false).toBe(false);
    const expected = all.filter((r) => r.reviewRating.ratingValue >= 2).map((r) => r.id);
    expect(
      [...(first.structured.reviews as Review[]), ...(next.structured.reviews as Review[])].map(
        (r) => r.id,
      ),
    ).toEqual(expected.slice(0, 8));
    const day = all[40]!.date;
    const since = await call('get_reviews_since', { date: day, limit: 2 });
    const more = await call('get_reviews_since', {
      date: day,
      limit: 4,
      detail: 'full',
      cursor: since.structured.nextCursor,
    });
    expect(more.result.isError ?? false).toBe(false);
    expect((more.structured.reviews as Review[]).length).toBe(4);
  });

  it('with detail "full", the text copy carries the facts of the full record', async () => {
    const record = all.find((r) => r.department && r.ownerResponse)!;
    const { text } = await call('get_review', { id: record.id });
    expect(text).toContain(`[${record.id}] ${record.date} ${record.reviewRating.ratingValue}★`);
    expect(text).toContain(`department ${record.department}`);
    expect(text).toContain(`source ${record.source}`);
    expect(text).toContain(`verification ${record.verification.level}`);
    expect(text).toContain(`reply: ${record.ownerResponse!.text}`);
    const compact = await call('get_review', { id: record.id, detail: 'compact' });
    expect(compact.text).not.toContain('department');
  });

  it('get_insights says when an argument does not apply, and reads staff names as search does', async () => {
    await waitUntil(
      async () => (await fetch(`${svc.url}/insights.json`)).ok || undefined,
      'the insights',
      60_000,
    );
    for (const [args, field] of [
      [{ id: 'wait-time' }, 'id'],
      [{ section: 'summary', id: 'wait-time' }, 'id'],
      [{ cursor: 'abc' }, 'cursor'],
      [{ section: 'changes', cursor: 'abc' }, 'cursor'],
    ] as const) {
      const { result, text } = await call('get_insights', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(text).toContain(field);
    }
    const sarah = await call('get_insights', { section: 'staff', id: 'sarah' });
    expect((sarah.structured.staff as { name: string }[]).map((s) => s.name)).toEqual([
      'Sarah Lopez',
    ]);
    const mike = await call('get_insights', { section: 'staff', id: 'Mike' });
    expect(mike.result.isError).toBe(true);
    expect(mike.text).toMatch(/Mike Chen.*Mike Torres|Mike Torres.*Mike Chen/);
    const unknown = await call('get_insights', { section: 'staff', id: 'Sara Lopes' });
    expect(unknown.result.isError).toBe(true);
    expect(unknown.text).toContain('Sarah Lopez');
  });

  it('get_rating_summary gives distributions overall and per month', async () => {
    const { structured } = await call('get_rating_summary', {
      group_by: 'month',
      since: '2024-01-01',
      until: '2024-12-31',
    });
    const inYear = all.filter((r) => r.date.startsWith('2024'));
    const overall = structured.overall as {
      ratingCount: number;
      distribution: Record<string, number>;
    };
    expect(overall.ratingCount).toBe(inYear.length);
    const groups = structured.groups as { key: string; aggregateRating: { ratingCount: number } }[];
    expect(groups.every((g) => g.key.startsWith('2024-'))).toBe(true);
    expect(groups.reduce((a, g) => a + g.aggregateRating.ratingCount, 0)).toBe(inYear.length);
  });

  it('list_staff and list_services count the reviews that mention each; list_technicians lists the technicians', async () => {
    const { structured: staff } = await call('list_staff');
    expect((staff.staff as unknown[]).length).toBe(4);
    for (const t of staff.staff as { name: string; mentions: number }[]) {
      expect(t.mentions, t.name).toBe(
        all.filter((r) => r.mentions.technicians.some((m) => m.name === t.name)).length,
      );
    }
    const { structured: techOnly } = await call('list_staff', { role: 'technician' });
    expect((techOnly.staff as { role: string }[]).every((t) => t.role === 'technician')).toBe(true);
    expect((techOnly.staff as unknown[]).length).toBe(2);
    // The tool's first name now means what it says: the technicians, no other role.
    const old = await call('list_technicians');
    expect(old.structured).toEqual({ technicians: techOnly.staff, total: 2, nextCursor: null });
    const { structured: services } = await call('list_services');
    for (const s of services.services as { id: string; mentions: number }[]) {
      expect(s.mentions, s.id).toBe(all.filter((r) => r.mentions.services.includes(s.id)).length);
    }
  });
});

describe('resources and prompts', () => {
  it('lists the datasets and feeds and reads them byte for byte', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      `${TEST_BASE_URL}/reviews.json`,
      `${TEST_BASE_URL}/api/feed.json`,
      `${TEST_BASE_URL}/feed.xml`,
      `${TEST_BASE_URL}/insights.json`,
    ]);
    const read = await client.readResource({ uri: `${TEST_BASE_URL}/feed.xml` });
    const content = read.contents[0] as { text: string; mimeType: string };
    expect(content.mimeType).toBe('application/atom+xml');
    expect(content.text).toBe((await http(`${svc.url}/feed.xml`)).text);
  });

  it('reads one review through the resource template, and -32002 for an unknown one', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates[0]!.uriTemplate).toBe('review://{id}');
    const read = await client.readResource({ uri: `review://${all[0]!.id}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual(all[0]);
    const err = await rpcError(() => client.readResource({ uri: 'review://missing' }));
    expect(err.code).toBe(-32002);
  });

  it('lists prompts and fills them from the data', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'summarize_recent_reviews',
      'technician_feedback',
      'service_feedback',
    ]);
    const tech = await client.getPrompt({
      name: 'technician_feedback',
      arguments: { technician: 'Sarah Lopez' },
    });
    const text = (tech.messages[0]!.content as { text: string }).text;
    expect(text).toContain('Sarah Lopez');
    const mentioned = all.filter((r) =>
      r.mentions.technicians.some((t) => t.name === 'Sarah Lopez'),
    );
    expect(text).toContain(`from the ${mentioned.length} reviews`);
    const svcPrompt = await client.getPrompt({
      name: 'service_feedback',
      arguments: { service: 'brakes' },
    });
    expect((svcPrompt.messages[0]!.content as { text: string }).text).toContain('Brake service');
    const recent = await client.getPrompt({
      name: 'summarize_recent_reviews',
      arguments: { days: '365' },
    });
    expect((recent.messages[0]!.content as { text: string }).text).toMatch(/last 365 days/);
    const err = await rpcError(() =>
      client.getPrompt({ name: 'technician_feedback', arguments: { technician: 'Mike' } }),
    );
    expect(err.code).toBe(-32602);
  });

  it('completes technician names and service ids', async () => {
    const tech = await client.complete({
      ref: { type: 'ref/prompt', name: 'technician_feedback' },
      argument: { name: 'technician', value: 'mi' },
    });
    expect(tech.completion.values).toEqual(['Mike Chen', 'Mike Torres']);
    const svcIds = await client.complete({
      ref: { type: 'ref/prompt', name: 'service_feedback' },
      argument: { name: 'service', value: '' },
    });
    expect(svcIds.completion.values.sort()).toEqual(['brakes', 'oil-change', 'tire-rotation']);
  });

  it('accepts a logging level', async () => {
    expect(await client.setLoggingLevel('warning')).toEqual({});
  });
});
