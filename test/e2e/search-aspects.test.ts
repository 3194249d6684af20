import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASPECT_IDS, REVIEW_POLARITIES, type ReviewPolarity } from '../../src/domain/aspects.js';
import { SearchResponse } from '../../src/domain/public-schemas.js';
import { Insights } from '../../src/insights/schema.js';
import { http } from '../helpers/http.js';
import { connectClient } from '../helpers/mcp.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Issue 28: search by what a review is about. The search's `aspect` and `polarity` answer from
 * the insights' own analysis of the version served, so their totals are the insights' counts.
 */

const ROOT = join(import.meta.dirname, '../..');
const sample = JSON.parse(readFileSync(join(ROOT, 'sample/dealership.json'), 'utf8')) as {
  business: never;
  reviews: never[];
};

let svc: TestService;
let insights: Insights;
let client: Client;

beforeAll(async () => {
  svc = await startTestService({ business: sample.business, reviews: sample.reviews });
  insights = Insights.parse((await http(`${svc.url}/insights.json`)).json());
  ({ client } = await connectClient(svc.url));
}, 120_000);
afterAll(async () => {
  await client?.close();
  await svc?.stop();
});

async function search(qs: string) {
  const res = await http(`${svc.url}/api/reviews/search?${qs}`);
  expect(res.status, `${qs}: ${res.text}`).toBe(200);
  return SearchResponse.parse(res.json());
}

interface ToolPage {
  total: number;
  reviews: { id: string; rating: number }[];
  nextCursor: string | null;
}

async function searchTool(args: Record<string, unknown>): Promise<ToolPage> {
  const result = await client.callTool({ name: 'search_reviews', arguments: args });
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent as unknown as ToolPage;
}

/** Every review id of an MCP search, page after page with its cursor. */
async function allIds(filters: Record<string, unknown>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: ToolPage = await searchTool({
      ...filters,
      limit: 100,
      ...(cursor ? { cursor } : {}),
    });
    ids.push(...page.reviews.map((r) => r.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

describe('search by aspect and polarity', () => {
  it('names the aspects of /insights.json, in its order', () => {
    expect(insights.aspects.map((a) => a.id)).toEqual(ASPECT_IDS);
    expect(insights.reviewCount).toBe(sample.reviews.length);
  });

  it('counts, for every aspect and polarity, what /insights.json counts', async () => {
    let compared = 0;
    for (const a of insights.aspects) {
      for (const polarity of REVIEW_POLARITIES) {
        const res = await search(`aspect=${a.id}&polarity=${polarity}`);
        expect(res.total, `${a.id} ${polarity}`).toBe(a[polarity]);
        compared += a[polarity];
      }
      expect((await search(`aspect=${a.id}`)).total, a.id).toBe(a.mentions);
    }
    // The sample speaks of its aspects: this compared thousands of reviews, not zeros.
    expect(compared).toBeGreaterThan(insights.reviewCount);
  });

  it('with polarity alone, counts the reviews with it on at least one aspect (the union over aspects)', async () => {
    // A second route: the union of the reviews of each aspect with that polarity, paged through
    // the MCP tool; each aspect's set was checked against the insights above.
    for (const polarity of REVIEW_POLARITIES) {
      const union = new Set<string>();
      for (const id of ASPECT_IDS) {
        for (const review of await allIds({ aspect: id, polarity })) union.add(review);
      }
      const alone = await search(`polarity=${polarity}&limit=1`);
      expect(alone.total, polarity).toBe(union.size);
      const ids = await allIds({ polarity });
      expect(new Set(ids), polarity).toEqual(union);
      expect(ids).toHaveLength(union.size);
    }
  });

  it('finds the wait-time complaints that do not say "wait" (the case of the issue)', async () => {
    const wait = insights.aspects.find((a) => a.id === 'wait-time')!;
    const about = await search('aspect=wait-time&polarity=negative&max_rating=2&limit=100');
    const words = await search('query=wait&max_rating=2&limit=100');
    expect(about.total).toBeGreaterThan(0);
    expect(about.total).toBeLessThanOrEqual(wait.negative);
    expect(about.reviews.every((r) => r.reviewRating.ratingValue <= 2)).toBe(true);
    const byWord = new Set(words.reviews.map((r) => r.id));
    expect(about.reviews.some((r) => !byWord.has(r.id))).toBe(true);
    // Quoted complaints about the wait come from reviews the filter finds.
    const found = new Set(await allIds({ aspect: 'wait-time' }));
    for (const e of wait.evidence.negative) expect(found.has(e.reviewId)).toBe(true);
  });
});

describe('the MCP tool search_reviews', () => {
  it('takes the same filters, with the same totals, paged with its cursor', async () => {
    const qs = 'aspect=price-value&polarity=negative&max_rating=3';
    const http = await search(`${qs}&limit=100`);
    const page = await searchTool({
      aspect: 'price-value',
      polarity: 'negative',
      max_rating: 3,
      limit: 5,
    });
    expect(page.total).toBe(http.total);
    expect(page.reviews.map((r) => r.id)).toEqual(http.reviews.slice(0, 5).map((r) => r.id));
    expect(page.reviews.every((r) => r.rating <= 3)).toBe(true);
    const ids = await allIds({ aspect: 'price-value', polarity: 'negative', max_rating: 3 });
    expect(ids).toHaveLength(http.total);
  });

  it('describes the new filters', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'search_reviews')!;
    for (const name of ['max_rating', 'aspect', 'polarity']) {
      expect(tool.description).toContain(name);
      expect(Object.keys(tool.inputSchema.properties ?? {})).toContain(name);
    }
    const aspect = tool.inputSchema.properties!.aspect as { enum?: string[] };
    expect(aspect.enum).toEqual(ASPECT_IDS);
  });

  it('refuses an unknown aspect as a tool error that lists the known ids', async () => {
    const result = await client.callTool({
      name: 'search_reviews',
      arguments: { aspect: 'waiting' },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    for (const id of ASPECT_IDS) expect(text).toContain(id);
  });
});

describe('the pages', () => {
  it('link each aspect of /insights to its reviews and its complaints', async () => {
    const page = (await http(`${svc.url}/insights`)).text;
    for (const a of insights.aspects.filter((x) => x.mentions > 0)) {
      expect(page).toContain(`href="/?aspect=${a.id}#reviews"`);
      if (a.negative > 0)
        expect(page).toContain(`href="/?aspect=${a.id}&amp;polarity=negative#reviews"`);
    }
  });

  it('filter by what reviews are about, in plain words, with the search totals', async () => {
    const wait = insights.aspects.find((a) => a.id === 'wait-time')!;
    const res = await http(`${svc.url}/?aspect=wait-time&polarity=negative`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('About: wait time');
    expect(res.text).toContain('Said: complaints');
    expect(res.text).toContain(`of ${wait.negative.toLocaleString('en-US')} matching reviews`);
    expect(res.text).toMatch(/<option value="negative"\s+selected>complaints<\/option>/);
    const form = (await http(`${svc.url}/`)).text;
    for (const label of ['About', 'Said', 'Up to']) expect(form).toContain(`>${label}</label`);
    expect(form).toContain('>Up to 2 stars</option>');
    expect(form).toContain('>Wait time</option>');
  });

  it('refuse an unknown aspect or a maximum below the minimum with the 400 page', async () => {
    expect((await http(`${svc.url}/?aspect=waiting`)).status).toBe(400);
    expect((await http(`${svc.url}/?min_rating=4&max_rating=2`)).status).toBe(400);
  });
});

/** The polarity a shopper reads in the form, per value. */
const SAID: Record<ReviewPolarity, string> = {
  positive: 'praise',
  negative: 'complaints',
  mixed: 'mixed (praise and complaints)',
  neutral: 'neutral remarks',
};

describe('the filter form', () => {
  it('offers every polarity in plain words', async () => {
    const form = (await http(`${svc.url}/`)).text;
    for (const [value, label] of Object.entries(SAID)) {
      expect(form).toMatch(
        new RegExp(`<option value="${value}"\\s*>${label.replace(/[()]/g, '\\$&')}</option>`),
      );
    }
  });
});
