import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusinessInput } from '../../src/domain/business.js';
import type { ReviewSourceInput } from '../../src/domain/review.js';
import { resultTokens } from '../../src/mcp/agent.js';
import { testBusiness } from '../helpers/fixtures.js';
import { connectClient } from '../helpers/mcp.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The token budgets of tool results (issue 17): at its defaults every tool answers in at most
 * 8,000 tokens, and at its maxima in at most 25,000 (common clients cut results at about 25,000).
 * Tokens are counted as the bytes of the whole JSON-RPC result (structured content, its text
 * copy and the rest) divided by 3.5.
 */
const DEFAULT_BUDGET = 8_000;
const MAX_BUDGET = 25_000;

const ROOT = join(import.meta.dirname, '..', '..');
const sample = JSON.parse(readFileSync(join(ROOT, 'sample/dealership.json'), 'utf8')) as {
  business: BusinessInput;
  reviews: ReviewSourceInput[];
};

/** Reviews as long as an import allows in practice: 4,000-character texts and long replies. */
function longReviews(count: number): ReviewSourceInput[] {
  const sentence =
    'Mike Torres replaced the brake pads and rotors, explained every line of the invoice and had the car back before lunch, which I did not expect on a Saturday. ';
  return Array.from({ length: count }, (_, i) => ({
    source: 'google',
    sourceReviewId: `long-${i}`,
    reviewRating: { ratingValue: (i % 5) + 1 },
    name: `A long visit, number ${i}`,
    reviewBody: sentence.repeat(26),
    author: { name: `Reviewer With A Long Name ${i}` },
    datePublished: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
    ownerResponse: { text: 'Thank you for taking the time to tell us. '.repeat(50) },
    sourceUrl: `https://www.google.com/maps/reviews/data=!4m8!14m7!1m6!2m5!1sChdDSUhNMG9nS0VJQ0FnSUQ${i}`,
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
    maxima: [{ limit: 100 }, { limit: 100, detail: 'full' }, { limit: 100, query: 'the' }],
  },
  { name: 'get_review', defaults: { id: '' }, maxima: [{ id: '', detail: 'full' }] },
  {
    name: 'get_reviews_since',
    defaults: { date: '2000-01-01' },
    maxima: [
      { date: '2000-01-01', limit: 500 },
      { date: '2000-01-01', limit: 500, detail: 'full' },
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
    name: 'get_insights',
    defaults: {},
    maxima: [
      'aspects',
      'staff',
      'services',
      'serviceAreas',
      'topics',
      'faq',
      'summary',
      'changes',
      'ownerResponses',
      'method',
      'entities',
    ].map((section) => ({ section })),
  },
];

describe.each([
  { data: 'the sample dealership', business: sample.business, reviews: sample.reviews },
  { data: 'long reviews', business: testBusiness(), reviews: longReviews(150) },
])('tool results within their token budgets, over $data', ({ business, reviews }) => {
  let svc: TestService;
  let client: Client;
  let anyId: string;

  beforeAll(async () => {
    svc = await startTestService({ business, reviews });
    ({ client } = await connectClient(svc.url));
    const first = await client.callTool({ name: 'search_reviews', arguments: { limit: 1 } });
    anyId = (first.structuredContent as { reviews: { id: string }[] }).reviews[0]!.id;
  }, 120_000);
  afterAll(async () => {
    await client.close();
    await svc.stop();
  });

  const tokens = async (name: string, args: Record<string, unknown>) => {
    const withId = 'id' in args ? { ...args, id: anyId } : args;
    const result = await client.callTool({ name, arguments: withId });
    expect(result.isError ?? false, `${name} ${JSON.stringify(args)}`).toBe(false);
    return resultTokens(result);
  };

  it('has a budget row for every tool the server lists', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(CALLS.map((c) => c.name).sort());
  });

  it.each(CALLS)('$name: at most 8,000 tokens at its defaults, 25,000 at its maxima', async (c) => {
    expect(await tokens(c.name, c.defaults)).toBeLessThanOrEqual(DEFAULT_BUDGET);
    for (const args of c.maxima) {
      expect(await tokens(c.name, args), JSON.stringify(args)).toBeLessThanOrEqual(MAX_BUDGET);
    }
  });
});
