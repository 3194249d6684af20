import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewsDocument, SinceResponse } from '../../src/domain/public-schemas.js';
import type { Review } from '../../src/domain/review.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
let all: Review[];

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(80) });
  all = ReviewsDocument.parse((await http(`${svc.url}/reviews.json`)).json()).reviews;
});
afterAll(() => svc.stop());

describe('GET /api/reviews/since/{date}', () => {
  it('returns reviews dated on or after the date, oldest first', async () => {
    const day = all[20]!.date;
    const res = await http(`${svc.url}/api/reviews/since/${day}`);
    expect(res.status).toBe(200);
    const body = SinceResponse.parse(res.json());
    const expected = all.filter((r) => r.date >= day).reverse();
    expect(body.since).toBe(day);
    expect(body.count).toBe(expected.length);
    expect(body.reviews.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it('returns an empty list after the newest review and everything before the oldest', async () => {
    expect(
      SinceResponse.parse((await http(`${svc.url}/api/reviews/since/2999-01-01`)).json()).count,
    ).toBe(0);
    expect(
      SinceResponse.parse((await http(`${svc.url}/api/reviews/since/1999-01-01`)).json()).count,
    ).toBe(80);
  });

  it('accepts a percent-encoded date', async () => {
    const res = await http(`${svc.url}/api/reviews/since/2024%2D01%2D01`);
    expect(res.status).toBe(200);
  });

  it.each([
    '20240101',
    '2024-02-30',
    '2023-02-29',
    '2024-1-1',
    'yesterday',
    '',
    '2024-01-01%2Fx',
    '2024-01-01/extra',
  ])('answers 400 with issues for the date %j', async (date) => {
    const res = await http(`${svc.url}/api/reviews/since/${date}`);
    expect(res.status).toBe(400);
    const body = res.json<{ error: string; issues: { path: string[] }[] }>();
    expect(body.error).toBe('invalid_request');
    // One issue per problem (a malformed date used to be reported twice, as format and calendar).
    expect(body.issues).toHaveLength(1);
    expect(body.issues[0]!.path).toEqual(['date']);
  });

  it('accepts the leap day of a leap year', async () => {
    expect((await http(`${svc.url}/api/reviews/since/2024-02-29`)).status).toBe(200);
  });

  it('rejects query parameters it does not know', async () => {
    const res = await http(`${svc.url}/api/reviews/since/2024-01-01?rating=5`);
    expect(res.status).toBe(400);
    expect(res.json<{ issues: { path: string[] }[] }>().issues[0]!.path).toEqual(['rating']);
  });
});
