import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review } from '../../src/domain/review.js';
import { STREAM_FROM_REVIEWS } from '../../src/api/since.js';
import { openStore, type Store } from '../../src/store/index.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { anyText, canary, dateText, mutated, nearly, rawBytes } from './helpers/arbitraries.js';
import {
  expectHealthy,
  expectJsonError,
  expectNoEcho,
  jsonOf,
  publishedFingerprint,
} from './helpers/checks.js';
import { fuzzReviews } from './helpers/data.js';
import { wire, type WireResponse } from './helpers/raw-http.js';
import { judgeSince, newestFirst } from './helpers/search-model.js';
import { checkBoundary, noteOutcome, timeoutOf } from './helpers/settings.js';

/** Runs in `npm run test:slow` (fixed seed); `npm run fuzz` runs FUZZ_RUNS. */
const RUNS = 120;

/** More reviews than the streaming threshold, so old dates take the streamed path. */
const REVIEWS = STREAM_FROM_REVIEWS + 60;

let svc: TestService;
let store: Store;
let fingerprint: string;
let dataVersion: number;
/** Published reviews, oldest first (the order of since answers). */
let oldestFirst: Review[];
/** Cursors the service handed out: the date, where the next page starts, the cursor. */
const cursors: { date: string; offset: number; cursor: string }[] = [];

beforeAll(async () => {
  svc = await startTestService({
    business: testBusiness(),
    reviews: [...testReviews(REVIEWS - 16, 7), ...fuzzReviews().slice(40)],
  });
  store = openStore(svc.databaseUrl);
  fingerprint = await publishedFingerprint(store);
  dataVersion = ((await (await fetch(`${svc.url}/healthz`)).json()) as { dataVersion: number })
    .dataVersion;
  const all = ((await (await fetch(`${svc.url}/reviews.json`)).json()) as { reviews: Review[] })
    .reviews;
  oldestFirst = [...all].sort(newestFirst).reverse();
  for (const date of ['2020-01-01', '2023-06-01', '2024-12-30', '2025-09-01']) {
    let offset = 0;
    let next: string | null = null;
    for (let page = 0; page < 4; page++) {
      const res = await fetch(
        `${svc.url}/api/reviews/since/${date}?limit=7${next ? `&cursor=${next}` : ''}`,
      );
      const body = (await res.json()) as { count: number; nextCursor: string | null };
      offset += body.count;
      next = body.nextCursor;
      if (!next) break;
      cursors.push({ date, offset, cursor: next });
    }
  }
  expect(cursors.length).toBeGreaterThan(6);
}, 120_000);
afterAll(async () => {
  await store?.close();
  await svc?.stop();
});

/** Ways to write the date into the path. */
const pathDate = fc.oneof(
  { weight: 8, arbitrary: fc.constant('plain' as const) },
  { weight: 1, arbitrary: fc.constantFrom('percent' as const, 'raw' as const, 'mangled' as const) },
);

function writeDate(date: string, how: 'plain' | 'percent' | 'raw' | 'mangled', seed: number) {
  switch (how) {
    case 'plain':
      return percentOf(date, /[^A-Za-z0-9\-._~]/);
    case 'percent':
      return percentOf(date, /./su);
    case 'raw':
      return rawBytes(date);
    case 'mangled':
      return rawBytes(
        fc.sample(mutated(percentOf(date, /[^A-Za-z0-9\-._~]/)), { seed, numRuns: 1 })[0]!,
      );
  }
}

/** Percent-encodes the UTF-8 bytes of the characters matching `which`. */
function percentOf(s: string, which: RegExp): string {
  let out = '';
  for (const ch of s) {
    if (!which.test(ch)) out += ch;
    else
      for (const b of Buffer.from(ch, 'utf8'))
        out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const cursorValue = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.nat().map((i) => cursors[i % cursors.length]!.cursor) },
    { weight: 3, arbitrary: fc.nat().chain((i) => mutated(cursors[i % cursors.length]!.cursor)) },
    {
      weight: 1,
      // A cursor of the right shape and this endpoint's fingerprint, with any sort key.
      arbitrary: fc
        .tuple(fc.nat(), fc.array(anyText(12), { minLength: 3, maxLength: 3 }))
        .map(([i, key]) => {
          const real = cursors[i % cursors.length]!.cursor;
          const [, print] = JSON.parse(Buffer.from(real, 'base64url').toString('utf8')) as [
            unknown,
            string,
          ];
          return Buffer.from(JSON.stringify([key, print])).toString('base64url');
        }),
    },
    { weight: 1, arbitrary: anyText() },
  );

const pair: fc.Arbitrary<[string, string]> = fc.oneof(
  {
    weight: 5,
    arbitrary: nearly(fc.integer({ min: 0, max: 1001 }).map(String), 20, 6).map(
      (v): [string, string] => ['limit', v],
    ),
  },
  { weight: 4, arbitrary: cursorValue().map((v): [string, string] => ['cursor', v]) },
  { weight: 1, arbitrary: fc.tuple(nearly(fc.constantFrom('limit', 'cursor', 'date')), anyText()) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('__proto__', 'constructor'), anyText()) },
);

export const sinceRequest = fc.record({
  method: fc.oneof(
    { weight: 10, arbitrary: fc.constant('GET') },
    { weight: 2, arbitrary: fc.constant('HEAD') },
    { weight: 1, arbitrary: fc.constantFrom('POST', 'OPTIONS') },
  ),
  date: fc.oneof(
    { weight: 4, arbitrary: nearly(dateText(), 20, 12) },
    // The dates the cursors belong to, so that real cursors meet their own date.
    {
      weight: 2,
      arbitrary: fc.constantFrom('2020-01-01', '2023-06-01', '2024-12-30', '2025-09-01'),
    },
  ),
  how: pathDate,
  seed: fc.nat(),
  pairs: fc.oneof(
    { weight: 4, arbitrary: fc.constant<[string, string][]>([]) },
    {
      weight: 3,
      arbitrary: fc
        .integer({ min: 1, max: 1000 })
        .map((n): [string, string][] => [['limit', String(n)]]),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.integer({ min: 1, max: 30 }), cursorValue())
        .map(([n, c]): [string, string][] => [
          ['limit', String(n)],
          ['cursor', c],
        ]),
    },
    { weight: 3, arbitrary: fc.array(pair, { maxLength: 3 }) },
  ),
  encoding: fc.constantFrom(undefined, 'gzip', 'br', 'gzip, br', 'identity;q=0, *;q=0'),
  conditional: fc.option(fc.constantFrom('*', '"nope"', 'W/"x", *'), { nil: undefined }),
  canary: fc.oneof(
    { weight: 9, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: canary() },
  ),
});

type SinceRequest = typeof sinceRequest extends fc.Arbitrary<infer T> ? T : never;

function targetOf(r: SinceRequest): string {
  const pairs = r.canary ? [...r.pairs, ['cursor', r.canary] as [string, string]] : r.pairs;
  const query = pairs
    .map(([k, v]) => `${percentOf(k, /[^A-Za-z0-9\-._~]/u)}=${percentOf(v, /[^A-Za-z0-9\-._~]/u)}`)
    .join('&');
  return `/api/reviews/since/${writeDate(r.date, r.how, r.seed)}${query ? `?${query}` : ''}`;
}

/** Checks a 200 since answer against the published reviews dated on or after the date. */
function expectSinceAnswer(res: WireResponse, date: string, params: URLSearchParams): void {
  const verdict = judgeSince(date, params);
  expect(verdict.ok, `200 for what the rules reject: ${date} ${params}`).toBe(true);
  if (!verdict.ok) return;
  const all = oldestFirst.filter((r) => r.date >= date);
  const body = jsonOf(res) as {
    since: string;
    count: number;
    total?: number;
    nextCursor?: string | null;
    reviews: Review[];
  };
  expect(body.since).toBe(date);
  expect(body.count).toBe(body.reviews.length);
  const ids = body.reviews.map((r) => r.id);
  if (verdict.limit === undefined) {
    expect(ids).toEqual(all.map((r) => r.id));
    return;
  }
  expect(body.total).toBe(all.length);
  expect(body.count).toBeLessThanOrEqual(verdict.limit);
  expect(
    cursors.some((c) => c.cursor === verdict.cursor && c.date !== date),
    'a cursor of another date is refused',
  ).toBe(false);
  const from = cursors.find((c) => c.cursor === verdict.cursor && c.date === date)?.offset;
  if (verdict.cursor === undefined || from !== undefined) {
    const expected = all.slice(from ?? 0, (from ?? 0) + verdict.limit).map((r) => r.id);
    expect(ids).toEqual(expected);
    expect(body.nextCursor !== null).toBe((from ?? 0) + expected.length < all.length);
    expect(res.headers.link !== undefined).toBe(body.nextCursor !== null);
  } else {
    // A cursor the fuzzer made up that still decodes: a page of the same result, in order.
    const start = all.findIndex((r) => r.id === ids[0]);
    if (ids.length > 0) expect(ids).toEqual(all.slice(start, start + ids.length).map((r) => r.id));
  }
}

describe('fuzz: since paths (GET /api/reviews/since/{date}[?limit&cursor])', () => {
  it(
    'never answers 5xx; a 400 names exactly the offending parts; a 200 holds exactly the reviews on or after the date; nothing changes',
    async () => {
      await checkBoundary(
        'since paths',
        fc.asyncProperty(sinceRequest, async (r) => {
          const target = targetOf(r);
          const headers: [string, string][] = [];
          if (r.encoding) headers.push(['Accept-Encoding', r.encoding]);
          if (r.conditional) headers.push(['If-None-Match', r.conditional]);
          const res = await wire(svc.url, { method: r.method, target, headers });
          noteOutcome(res.status);
          expect(res.status, `${r.method} ${target}`).toBeLessThan(500);
          if (r.canary) expectNoEcho(res.text, [r.canary]);
          if (res.status >= 400) expectJsonError(res, r.method);
          if (/[^\x21-\x7e]/.test(target)) return; // the HTTP parser's to refuse or to read
          const q = target.indexOf('?');
          const params = new URLSearchParams(q === -1 ? '' : target.slice(q + 1));
          let path: string;
          try {
            path = decodeURIComponent(q === -1 ? target : target.slice(0, q));
          } catch {
            expect(res.status, 'malformed percent-encoding in the path').toBe(400);
            return;
          }
          const prefix = '/api/reviews/since/';
          if (!path.startsWith(prefix)) {
            expect(res.status).toBe(404);
            return;
          }
          const date = path.slice(prefix.length);
          if (r.method === 'POST') expect(res.status).toBe(405);
          else if (r.method === 'OPTIONS') expect(res.status).toBe(204);
          else if (r.method === 'GET' && res.status === 200) expectSinceAnswer(res, date, params);
          else if (res.status === 400 && r.method === 'GET') {
            const verdict = judgeSince(date, params);
            const issues = (jsonOf(res) as { issues: { path: string[] }[] }).issues;
            const named = new Set(issues.map((i) => String(i.path[0])));
            if (verdict.ok) {
              // Only a cursor can be wrong in a way the query string alone does not show.
              expect([...named]).toEqual(['cursor']);
            } else expect([...named].sort()).toEqual([...verdict.paths].sort());
          } else if (res.status === 304) {
            expect(r.conditional).toBeDefined();
            expect(res.body.length).toBe(0);
          }
          await expectHealthy(svc.url, dataVersion);
          expect(await publishedFingerprint(store)).toBe(fingerprint);
        }),
        RUNS,
      );
    },
    timeoutOf(60_000),
  );
});
