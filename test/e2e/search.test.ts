import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewsDocument, SearchResponse } from '../../src/domain/public-schemas.js';
import type { Review } from '../../src/domain/review.js';
import { ASPECT_IDS } from '../../src/domain/aspects.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
let all: Review[];

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(150) });
  all = ReviewsDocument.parse((await http(`${svc.url}/reviews.json`)).json()).reviews;
});
afterAll(() => svc.stop());

async function search(qs: string) {
  const res = await http(`${svc.url}/api/reviews/search?${qs}`);
  expect(res.status, `${qs}: ${res.text}`).toBe(200);
  return SearchResponse.parse(res.json());
}

async function expectInvalid(qs: string, path: string) {
  const res = await http(`${svc.url}/api/reviews/search?${qs}`);
  expect(res.status, qs).toBe(400);
  expect(res.headers['content-type']).toBe('application/json');
  const body = res.json<{
    error: string;
    issues: { path: unknown[]; code: string; message: string }[];
  }>();
  expect(body.error).toBe('invalid_request');
  expect(body.issues.length).toBeGreaterThan(0);
  for (const issue of body.issues) {
    expect(typeof issue.code).toBe('string');
    expect(typeof issue.message).toBe('string');
  }
  expect(body.issues.map((i) => i.path.join('.'))).toContain(path);
}

describe('GET /api/reviews/search', () => {
  it('returns 20 newest reviews by default, with total counting every match', async () => {
    const res = await search('');
    expect(res).toMatchObject({ count: 20, total: 150, limit: 20 });
    expect(res.reviews.map((r) => r.id)).toEqual(all.slice(0, 20).map((r) => r.id));
  });

  it('filters by exact rating and by minimum rating, and combines filters with AND', async () => {
    const five = await search('rating=5&limit=100');
    expect(five.total).toBe(all.filter((r) => r.reviewRating.ratingValue === 5).length);
    expect(five.reviews.every((r) => r.reviewRating.ratingValue === 5)).toBe(true);
    const min = await search('min_rating=3.5&limit=100');
    expect(min.total).toBe(all.filter((r) => r.reviewRating.ratingValue >= 4).length);
    const both = await search('rating=3&min_rating=4');
    expect(both.total).toBe(0);
    const combo = await search(
      'min_rating=4&since=2024-01-01&until=2024-12-31&query=BRAKE&limit=100',
    );
    const expected = all.filter(
      (r) =>
        r.reviewRating.ratingValue >= 4 &&
        r.date >= '2024-01-01' &&
        r.date <= '2024-12-31' &&
        `${r.name ?? ''}\n${r.reviewBody ?? ''}`.toLowerCase().includes('brake'),
    );
    expect(combo.total).toBe(expected.length);
    expect(combo.reviews.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it('filters by maximum rating (issue 28): inclusive, fractional, a range with min_rating', async () => {
    const stars = (r: Review) => r.reviewRating.ratingValue;
    const low = await search('max_rating=2&limit=100');
    expect(low.total).toBe(all.filter((r) => stars(r) <= 2).length);
    expect(low.reviews.every((r) => stars(r) <= 2)).toBe(true);
    expect((await search('max_rating=2.5')).total).toBe(low.total);
    expect((await search('max_rating=5')).total).toBe(150);
    const range = await search('min_rating=3&max_rating=4&limit=100');
    expect(range.total).toBe(all.filter((r) => stars(r) >= 3 && stars(r) <= 4).length);
    expect((await search('min_rating=4&max_rating=4')).total).toBe(
      (await search('rating=4')).total,
    );
    expect((await search('max_rating=1&query=brake')).total).toBe(
      all.filter(
        (r) => stars(r) <= 1 && /brake/i.test(`${r.name ?? ''}\u0000${r.reviewBody ?? ''}`),
      ).length,
    );
  });

  it('refuses an unknown aspect with a message that lists the known ids (issue 28)', async () => {
    const res = await http(`${svc.url}/api/reviews/search?aspect=waiting`);
    expect(res.status).toBe(400);
    const [issue] = res.json<{ issues: { path: string[]; message: string }[] }>().issues;
    expect(issue!.path).toEqual(['aspect']);
    for (const id of ASPECT_IDS) expect(issue!.message).toContain(id);
    expect(res.text).not.toContain('waiting');
  });

  it('includes both ends of since/until', async () => {
    const day = all[10]!.date;
    const res = await search(`since=${day}&until=${day}`);
    expect(res.total).toBe(all.filter((r) => r.date === day).length);
    expect(res.total).toBeGreaterThan(0);
  });

  it('matches query as a case-insensitive substring of the title or the text, across word parts', async () => {
    for (const q of ['brake', 'RAKE PA', 'oil and', 'Visit number 1', 'rápido', '!', "sarah's"]) {
      const res = await search(`query=${encodeURIComponent(q)}&limit=100`);
      const lower = q.toLowerCase();
      const expected = all.filter(
        (r) =>
          (r.name ?? '').toLowerCase().includes(lower) ||
          (r.reviewBody ?? '').toLowerCase().includes(lower),
      );
      expect(res.total, q).toBe(expected.length);
      expect(
        res.reviews.map((r) => r.id),
        q,
      ).toEqual(expected.slice(0, 100).map((r) => r.id));
    }
  });

  it('matches a technician by full name or unique first name, in any case', async () => {
    const expected = all.filter((r) =>
      r.mentions.technicians.some((t) => t.name === 'Sarah Lopez'),
    ).length;
    expect(expected).toBeGreaterThan(0);
    for (const name of ['Sarah Lopez', 'sarah lopez', 'SARAH', '  Sarah  ']) {
      expect((await search(`mentions_technician=${encodeURIComponent(name)}`)).total, name).toBe(
        expected,
      );
    }
    expect((await search('mentions_technician=Nobody%20Here')).total).toBe(0);
  });

  it('rejects a first name shared by several staff members, naming the candidates', async () => {
    const res = await http(`${svc.url}/api/reviews/search?mentions_technician=mike`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('Mike Chen');
    expect(res.text).toContain('Mike Torres');
    expect((await search('mentions_technician=Mike%20Torres')).total).toBeGreaterThan(0);
  });

  it('answers a repeated query string with the same bytes, and never remembers a refusal', async () => {
    const first = await http(`${svc.url}/api/reviews/search?rating=5&limit=3`);
    const again = await http(`${svc.url}/api/reviews/search?rating=5&limit=3`);
    expect(again.status).toBe(200);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.text).toBe(first.text);
    // The same filters written otherwise: the same answer.
    expect((await http(`${svc.url}/api/reviews/search?limit=3&rating=5`)).text).toBe(first.text);
    for (let i = 0; i < 2; i++) {
      expect((await http(`${svc.url}/api/reviews/search?mentions_technician=mike`)).status).toBe(
        400,
      );
      expect((await http(`${svc.url}/api/reviews/search?rating=6`)).status).toBe(400);
    }
  });

  it('matches a service id case-insensitively', async () => {
    const expected = all.filter((r) => r.mentions.services.includes('oil-change')).length;
    expect(expected).toBeGreaterThan(0);
    expect((await search('mentions_service=oil-change')).total).toBe(expected);
    expect((await search('mentions_service=OIL-CHANGE')).total).toBe(expected);
    expect((await search('mentions_service=unknown-service')).total).toBe(0);
  });

  it('caps the page at limit and keeps newest-first order', async () => {
    const res = await search('limit=7&min_rating=1');
    expect(res.count).toBe(7);
    expect(res.limit).toBe(7);
    expect(res.reviews.map((r) => r.id)).toEqual(all.slice(0, 7).map((r) => r.id));
    expect((await search('limit=100')).count).toBe(100);
  });
});

describe('invalid search parameters give 400 with issues', () => {
  const cases: [string, string][] = [
    ['rating=0', 'rating'],
    ['rating=6', 'rating'],
    ['rating=abc', 'rating'],
    ['rating=2.5', 'rating'],
    ['rating=', 'rating'],
    ['rating=%203', 'rating'],
    ['rating=1e0', 'rating'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=-5', 'limit'],
    ['limit=99999999999999999999', 'limit'],
    ['min_rating=0', 'min_rating'],
    ['min_rating=5.5', 'min_rating'],
    ['min_rating=NaN', 'min_rating'],
    ['min_rating=Infinity', 'min_rating'],
    ['since=20240101', 'since'],
    ['since=2024-02-30', 'since'],
    ['until=2023-13-01', 'until'],
    ['until=2023-1-01', 'until'],
    ['since=2025-01-02&until=2025-01-01', 'since'],
    ['rating=5&rating=4', 'rating'],
    ['bogus=1', 'bogus'],
    ['query=', 'query'],
    [`query=${'x'.repeat(201)}`, 'query'],
    ['query=a%00b', 'query'],
    ['mentions_service=', 'mentions_service'],
    ['mentions_technician=%20%20', 'mentions_technician'],
    ['max_rating=0', 'max_rating'],
    ['max_rating=5.5', 'max_rating'],
    ['max_rating=two', 'max_rating'],
    ['min_rating=3&max_rating=2', 'max_rating'],
    ['aspect=wait_time', 'aspect'],
    ['aspect=', 'aspect'],
    ['polarity=complaints', 'polarity'],
  ];
  it.each(cases)('%s', (qs, path) => expectInvalid(qs, path));

  it('reports one issue per problem: a malformed date is not also an impossible one', async () => {
    const res = await http(`${svc.url}/api/reviews/search?since=20240101&until=2024-02-30`);
    const issues = res.json<{ issues: { path: string[]; code: string }[] }>().issues;
    expect(issues.map((i) => [i.path[0], i.code])).toEqual([
      ['since', 'invalid_format'],
      ['until', 'custom'],
    ]);
  });

  it('reports every invalid parameter at once', async () => {
    const res = await http(`${svc.url}/api/reviews/search?rating=9&limit=0&foo=bar`);
    const paths = res.json<{ issues: { path: string[] }[] }>().issues.map((i) => i.path[0]);
    expect(paths.sort()).toEqual(['foo', 'limit', 'rating']);
  });
});
