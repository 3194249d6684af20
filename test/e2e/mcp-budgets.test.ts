import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusinessInput } from '../../src/domain/business.js';
import { LIMITS, type ReviewSourceInput } from '../../src/domain/review.js';
import { SECTIONS } from '../../src/mcp/tools/insights-sections.js';
import { waitUntil } from '../helpers/child-service.js';
import { testBusiness } from '../helpers/fixtures.js';
import { connectMeteredClient, type MeteredClient } from '../helpers/mcp.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The token budgets of tool results (issue 17): at its defaults every tool answers in at most
 * 8,000 tokens, and at its maxima in at most 25,000 (common clients cut results at about 25,000).
 * Tokens are the bytes of the JSON-RPC response as it came on the wire divided by 3.5. The text
 * copy beside the structured content takes at most half the structured content's bytes (or 512
 * bytes for a tiny result), so the whole result is at most 1.5 times the structured content plus
 * the envelope. Both hold over the sample, and over reviews as long as the import accepts
 * (`LIMITS`) in ASCII, in CJK (3 bytes a character) and in characters JSON escapes.
 */
const DEFAULT_BUDGET = 8_000;
const MAX_BUDGET = 25_000;
const BYTES_PER_TOKEN = 3.5;
const TEXT_SHARE = 0.5;
const MIN_TEXT_BYTES = 512;

const ROOT = join(import.meta.dirname, '..', '..');
const sample = JSON.parse(readFileSync(join(ROOT, 'sample/dealership.json'), 'utf8')) as {
  business: BusinessInput;
  reviews: ReviewSourceInput[];
};

/**
 * `length` characters: `tag`, then `unit` repeated whole (a surrogate pair is never split), then
 * dots to the exact length.
 */
function fill(unit: string, length: number, tag = ''): string {
  const units = unit.repeat(Math.floor((length - tag.length) / unit.length));
  return `${tag}${units}`.padEnd(length, '.');
}

/**
 * A business profile at the import's limits: 2,000 staff, 500 services with 50 synonyms each, 50
 * brands, 20 departments and 20 profiles elsewhere with long URLs.
 */
function largestBusiness(): BusinessInput {
  const word = (i: number) => `w${i.toString(36)}`;
  return {
    ...testBusiness(),
    name: fill('Motors ', 200, 'Largest '),
    legalName: fill('Company ', 200),
    url: `https://www.example.com/${'u'.repeat(2_000)}`,
    brands: Array.from({ length: 50 }, (_, i) => fill('Brand ', 60, `${i} `)),
    sameAs: Array.from(
      { length: 20 },
      (_, i) => `https://profiles.example.com/${i}/${'p'.repeat(2_000)}`,
    ),
    departments: Array.from({ length: 20 }, (_, i) => ({
      id: `department-${i}`,
      name: fill('Department ', 120, `${i} `),
      telephone: '+1'.padEnd(40, '5'),
    })),
    staff: Array.from({ length: 2_000 }, (_, i) => ({
      id: `staff-${i}`,
      name: fill(' Longname', 120, `Person${word(i)}`),
      role: 'technician' as const,
      aliases: Array.from({ length: 10 }, (_, a) => fill('x', 60, `alias${word(i)}${a}`)),
    })),
    services: Array.from({ length: 500 }, (_, i) => ({
      id: `service-${i}`,
      name: fill(' service', 120, `Service${word(i)}`),
      synonyms: Array.from({ length: 50 }, (_, n) => fill(' y', 80, `syn${word(i)}q${n}`)),
    })),
  };
}

/**
 * Reviews at the import's limits: 20,000-character text, translation and owner reply, a 500-
 * character title, a 200-character author, 50 tagged staff with 200-character names, a 300-
 * character source id and a 4,000-character source URL.
 */
function longestReviews(count: number, unit: string, language: string): ReviewSourceInput[] {
  return Array.from({ length: count }, (_, i) => ({
    source: 'dealerrater',
    sourceReviewId: fill(unit, LIMITS.sourceReviewId, `max-${i}-`),
    sourceUrl: `https://www.dealerrater.com/review/${'a'.repeat(4_000)}${i}`,
    reviewRating: { ratingValue: (i % 5) + 1 },
    name: fill(unit, LIMITS.title, `${i} `),
    reviewBody: fill(unit, LIMITS.body, `${i} `),
    reviewBodyTranslated: fill(unit, LIMITS.body, `${i} `),
    inLanguage: language,
    author: { name: fill(unit, LIMITS.authorName, `${i} `) },
    datePublished: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
    department: 'service',
    subRatings: { customerService: 5, quality: 4, friendliness: 5, pricing: 3 },
    recommendsDealer: true,
    taggedStaff: Array.from({ length: 50 }, (_, s) => ({ name: fill(unit, 200, `${s} `) })),
    ownerResponse: { text: fill(unit, LIMITS.ownerResponse, `${i} `) },
    verification: { level: 'source-confirmed', checkedAt: '2025-06-01T00:00:00Z' },
  }));
}

/** One short review a month from January 1995 on: a rating history of 30 years. */
function monthly(): ReviewSourceInput[] {
  return Array.from({ length: 30 * 12 }, (_, m) => ({
    source: 'google',
    sourceReviewId: `month-${m}`,
    reviewRating: { ratingValue: (m % 5) + 1 },
    reviewBody: 'Fine.',
    author: { name: 'Monthly' },
    datePublished: new Date(Date.UTC(1995, m, 15, 15)).toISOString(),
  }));
}

/** The calls of every tool: its defaults, and its maxima. */
const CALLS: {
  name: string;
  defaults: Record<string, unknown>;
  maxima: Record<string, unknown>[];
}[] = [
  { name: 'get_business', defaults: {}, maxima: [] },
  {
    name: 'search_reviews',
    defaults: {},
    maxima: [
      { limit: 100 },
      { limit: 100, detail: 'full' },
      { limit: 100, query: 'the' },
      { limit: 1, detail: 'full' },
    ],
  },
  {
    name: 'get_review',
    defaults: { id: '' },
    maxima: [
      { id: '', detail: 'full' },
      { id: '', detail: 'compact' },
    ],
  },
  {
    name: 'get_reviews_since',
    defaults: { date: '1995-01-01' },
    maxima: [
      { date: '1995-01-01', limit: 500 },
      { date: '1995-01-01', limit: 500, detail: 'full' },
      { date: '2024-01-01', limit: 1, detail: 'full' },
    ],
  },
  {
    name: 'get_rating_summary',
    defaults: {},
    maxima: [{ group_by: 'month' }, { group_by: 'department' }, { group_by: 'source' }],
  },
  { name: 'list_staff', defaults: {}, maxima: [] },
  { name: 'list_technicians', defaults: {}, maxima: [] },
  { name: 'list_services', defaults: {}, maxima: [] },
  {
    name: 'get_changes',
    defaults: {},
    maxima: [{ limit: 100 }, { limit: 100, detail: 'full' }, { limit: 1, detail: 'full' }],
  },
  {
    name: 'get_insights',
    defaults: {},
    // Every section the tool offers, each at its largest.
    maxima: SECTIONS.map((section) => ({ section })),
  },
];

const DATASETS = [
  { data: 'the sample dealership', business: sample.business, reviews: sample.reviews },
  {
    data: 'the longest reviews the import accepts, in ASCII, with 30 years of history',
    business: testBusiness(),
    reviews: [...monthly(), ...longestReviews(24, 'The brake job was fair. ', 'en')],
  },
  {
    data: 'the largest business profile the import accepts',
    business: largestBusiness(),
    reviews: monthly().slice(-24),
  },
  {
    data: 'the longest reviews the import accepts, in CJK',
    business: testBusiness(),
    reviews: longestReviews(24, '刹车保养做得很好，等待时间也很短。', 'zh'),
  },
  {
    data: 'the longest reviews the import accepts, in characters JSON escapes',
    business: testBusiness(),
    reviews: longestReviews(24, 'a "quote" \\ \u0001\u0002 🚗 ', 'en'),
  },
];

describe.each(DATASETS)(
  'tool results within their token budgets, over $data',
  ({ business, reviews }) => {
    let svc: TestService;
    let mcp: MeteredClient;
    let anyId: string;

    beforeAll(async () => {
      svc = await startTestService({ business, reviews });
      await waitUntil(
        async () => (await fetch(`${svc.url}/insights.json`)).ok || undefined,
        'the insights',
        100_000,
      );
      mcp = await connectMeteredClient(svc.url);
      const first = await mcp.call('search_reviews', { limit: 1 });
      anyId = (first.result.structuredContent as { reviews: { id: string }[] }).reviews[0]!.id;
    }, 150_000);
    afterAll(async () => {
      await mcp?.client.close();
      await svc?.stop();
    });

    /** Calls a tool and checks the text copy's bound; the whole result's tokens. */
    const tokens = async (name: string, args: Record<string, unknown>) => {
      const withId = 'id' in args ? { ...args, id: anyId } : args;
      const what = `${name} ${JSON.stringify(args)}`;
      const { result, bytes } = await mcp.call(name, withId);
      expect(result.isError ?? false, what).toBe(false);
      const structured = Buffer.byteLength(JSON.stringify(result.structuredContent));
      const text = (result.content as { text: string }[])[0]!.text;
      // The text as it travels: a JSON string, escapes included.
      const textBytes = Buffer.byteLength(JSON.stringify(text)) - 2;
      expect(textBytes, what).toBeLessThanOrEqual(
        Math.max(Math.floor(structured * TEXT_SHARE), MIN_TEXT_BYTES),
      );
      expect(bytes, what).toBeGreaterThan(structured + textBytes);
      return bytes / BYTES_PER_TOKEN;
    };

    it('has a budget row for every tool the server lists', async () => {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(CALLS.map((c) => c.name).sort());
    });

    it('every prompt, for every staff member and service and the longest period, within 25,000 tokens', async () => {
      const { prompts } = await mcp.client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual([
        'service_feedback',
        'summarize_recent_reviews',
        'technician_feedback',
      ]);
      const staff = (await mcp.call('list_staff', {})).result.structuredContent as {
        staff: { name: string }[];
      };
      const services = (await mcp.call('list_services', {})).result.structuredContent as {
        services: { id: string }[];
      };
      const asks: [string, Record<string, string>][] = [
        ['summarize_recent_reviews', {}],
        ['summarize_recent_reviews', { days: '3650' }],
        ...staff.staff
          .slice(0, 10)
          .map((s): [string, Record<string, string>] => [
            'technician_feedback',
            { technician: s.name },
          ]),
        ...services.services
          .slice(0, 10)
          .map((s): [string, Record<string, string>] => ['service_feedback', { service: s.id }]),
      ];
      for (const [name, args] of asks) {
        const { result, bytes } = await mcp.prompt(name, args);
        expect(result.messages.length).toBeGreaterThan(0);
        expect(bytes / BYTES_PER_TOKEN, `${name} ${JSON.stringify(args)}`).toBeLessThanOrEqual(
          MAX_BUDGET,
        );
      }
    });

    it.each(CALLS)(
      '$name: at most 8,000 tokens at its defaults, 25,000 at its maxima; the text copy at most half the structured content',
      async (c) => {
        expect(await tokens(c.name, c.defaults)).toBeLessThanOrEqual(DEFAULT_BUDGET);
        for (const args of c.maxima) {
          expect(await tokens(c.name, args), JSON.stringify(args)).toBeLessThanOrEqual(MAX_BUDGET);
        }
      },
    );
  },
);

describe('texts cut to fit, saying so and where the whole is', () => {
  let svc: TestService;
  let mcp: MeteredClient;
  const reviews = longestReviews(3, '刹车保养做得很好，等待时间也很短。', 'zh');

  beforeAll(async () => {
    svc = await startTestService({ business: testBusiness(), reviews });
    mcp = await connectMeteredClient(svc.url);
  }, 120_000);
  afterAll(async () => {
    await mcp?.client.close();
    await svc?.stop();
  });

  it('get_review cuts a 20,000-character text to its budget, with a mark naming review://{id}', async () => {
    const page = await mcp.call('search_reviews', { limit: 1 });
    const id = (page.result.structuredContent as { reviews: { id: string }[] }).reviews[0]!.id;
    const { result, bytes } = await mcp.call('get_review', { id });
    expect(bytes / BYTES_PER_TOKEN).toBeLessThanOrEqual(DEFAULT_BUDGET);
    const review = (
      result.structuredContent as {
        review: { reviewBody: string; ownerResponse: { text: string }; verification: unknown };
      }
    ).review;
    expect(review.reviewBody).toMatch(
      new RegExp(`… \\[cut at \\d+ of 20000 characters; the whole review: review://${id}\\]$`),
    );
    expect(review.ownerResponse.text).toContain(`review://${id}`);
    // The other facts are whole.
    expect(review.verification).toEqual({
      level: 'source-confirmed',
      checkedAt: '2025-06-01T00:00:00.000Z',
    });
    // The text copy names the review and says where the whole is.
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain(`[${id}]`);
    expect(text).toContain('…[cut]');
    expect(text).toContain('each whole review: resource review://{id}');
    // The whole is there.
    const read = await mcp.read(`review://${id}`);
    const whole = JSON.parse((read.result.contents[0] as { text: string }).text) as {
      reviewBody: string;
    };
    expect(reviews.map((r) => r.reviewBody)).toContain(whole.reviewBody);
    expect(review.reviewBody.startsWith(whole.reviewBody.slice(0, 100))).toBe(true);
  });

  it('the compact shape cuts texts at 1,500 characters (or fewer, to fit), saying where the whole is', async () => {
    const { result } = await mcp.call('search_reviews', { limit: 1 });
    const [r] = (result.structuredContent as { reviews: { id: string; text: string }[] }).reviews;
    const cut =
      /… \[cut at (\d+) of 20000 characters; the whole review: review:\/\/[-0-9a-f]+\]$/.exec(
        r!.text,
      );
    expect(Number(cut![1])).toBeGreaterThan(500);
    expect(Number(cut![1])).toBeLessThanOrEqual(1_500);
  });

  it('the compact shape gives the language and the translation of a review not in English', async () => {
    const { result } = await mcp.call('search_reviews', { limit: 1 });
    const [r] = (
      result.structuredContent as { reviews: { language: string; translation: string }[] }
    ).reviews;
    expect(r!.language).toBe('zh');
    expect(r!.translation).toMatch(/^\d 刹车保养做得很好/);
    expect((result.content as { text: string }[])[0]!.text).toContain('translation from zh: ');
  });

  it('a page of full records of import-maximum length holds at least one review, cut to the budget', async () => {
    const { result, bytes } = await mcp.call('search_reviews', { limit: 1, detail: 'full' });
    const page = result.structuredContent as { count: number; nextCursor: string | null };
    expect(page.count).toBe(1);
    expect(page.nextCursor).not.toBeNull();
    expect(bytes / BYTES_PER_TOKEN).toBeLessThanOrEqual(DEFAULT_BUDGET);
  });
});

describe('a rating history of 30 years', () => {
  let svc: TestService;
  let mcp: MeteredClient;

  beforeAll(async () => {
    svc = await startTestService({ business: testBusiness(), reviews: monthly() });
    mcp = await connectMeteredClient(svc.url);
  }, 120_000);
  afterAll(async () => {
    await mcp?.client.close();
    await svc?.stop();
  });

  it('get_rating_summary by month pages within the default budget, oldest first, each month once', async () => {
    const keys: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { result, bytes } = await mcp.call('get_rating_summary', {
        group_by: 'month',
        ...(cursor ? { cursor } : {}),
      });
      expect(bytes / BYTES_PER_TOKEN).toBeLessThanOrEqual(DEFAULT_BUDGET);
      const summary = result.structuredContent as {
        overall: { ratingCount: number };
        groups: { key: string }[];
        groupCount: number;
        nextCursor: string | null;
      };
      expect(summary.overall.ratingCount).toBe(360);
      expect(summary.groupCount).toBe(360);
      keys.push(...summary.groups.map((g) => g.key));
      cursor = summary.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 50);
    expect(pages).toBeGreaterThan(1);
    const months = Array.from({ length: 360 }, (_, m) =>
      new Date(Date.UTC(1995, m, 1)).toISOString().slice(0, 7),
    );
    expect(keys).toEqual(months);
    // A cursor belongs to its filters.
    const first = await mcp.call('get_rating_summary', { group_by: 'month' });
    const other = await mcp.call('get_rating_summary', {
      group_by: 'month',
      since: '2000-01-01',
      cursor: (first.result.structuredContent as { nextCursor: string }).nextCursor,
    });
    expect(other.result.isError).toBe(true);
  });
});
