import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review } from '../../src/domain/review.js';
import { openStore, type Store } from '../../src/store/index.js';
import { testBusiness } from '../helpers/fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';
import {
  anyText,
  canary,
  dateText,
  longText,
  mutated,
  nearly,
  OBJECT_KEYS,
  percent,
  rawBytes,
} from './helpers/arbitraries.js';
import {
  expectHealthy,
  expectJsonError,
  expectNoEcho,
  jsonOf,
  publishedFingerprint,
} from './helpers/checks.js';
import { fuzzReviews } from './helpers/data.js';
import { wire, type WireResponse } from './helpers/raw-http.js';
import {
  firstNames,
  isAmbiguous,
  judgeSearch,
  SEARCH_KEYS,
  searchModel,
} from './helpers/search-model.js';
import { checkBoundary, noteOutcome, timeoutOf } from './helpers/settings.js';

/** Runs in `npm run test:slow` (fixed seed); `npm run fuzz` runs FUZZ_RUNS. */
const RUNS = 150;

let svc: TestService;
let store: Store;
let fingerprint: string;
let dataVersion: number;
let published: Review[];
let byFirst: Map<string, Set<string>>;

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: fuzzReviews() });
  store = openStore(svc.databaseUrl);
  fingerprint = await publishedFingerprint(store);
  dataVersion = ((await (await fetch(`${svc.url}/healthz`)).json()) as { dataVersion: number })
    .dataVersion;
  published = ((await (await fetch(`${svc.url}/reviews.json`)).json()) as { reviews: Review[] })
    .reviews;
  byFirst = firstNames(
    published,
    testBusiness().staff!.map((s) => s.name),
  );
});
afterAll(async () => {
  await store?.close();
  await svc?.stop();
});

/** Words and pieces of the published texts: queries that find something. */
const textPiece = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.nat({ max: 55 }), fc.nat(), fc.integer({ min: 1, max: 12 }))
    .map(([i, start, len]) => {
      const r = published[i % published.length]!;
      const text = `${r.name ?? ''} ${r.reviewBody ?? ''}`.trim() || 'brake';
      const from = start % text.length;
      return text.slice(from, from + len);
    });

const VALUES: Record<(typeof SEARCH_KEYS)[number], () => fc.Arbitrary<string>> = {
  rating: () => nearly(fc.integer({ min: 0, max: 6 }).map(String)),
  min_rating: () =>
    nearly(
      fc.oneof(
        fc.integer({ min: 0, max: 6 }).map(String),
        fc
          .tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 999 }))
          .map(([a, b]) => `${a}.${b}`),
      ),
    ),
  since: () => nearly(dateText()),
  until: () => nearly(dateText()),
  query: () =>
    fc.oneof(
      { weight: 6, arbitrary: nearly(textPiece()) },
      { weight: 1, arbitrary: longText(195, 205) },
      { weight: 1, arbitrary: textPiece().map((t) => t.toUpperCase()) },
    ),
  mentions_technician: () =>
    nearly(
      fc.constantFrom(
        'Mike Torres',
        'mike  TORRES',
        ' Sarah Lopez ',
        'sarah',
        'Mike',
        'Dave',
        'Mike Chen',
        'Nobody Here',
        'Unicode 3 ✓',
      ),
    ),
  mentions_service: () =>
    nearly(fc.constantFrom('oil-change', 'BRAKES', ' tire-rotation ', 'alignment')),
  limit: () => nearly(fc.integer({ min: 0, max: 101 }).map(String)),
};

const knownPair = fc
  .constantFrom(...SEARCH_KEYS)
  .chain((key) => VALUES[key]().map((value): [string, string] => [key, value]));
/** Mostly valid parameters (so that answers get past validation), some near misses. */
const goodPair = fc.constantFrom(...SEARCH_KEYS).chain((key) =>
  (key === 'query' || key === 'mentions_technician' || key === 'mentions_service'
    ? VALUES[key]()
    : fc.constantFrom(
        ...{
          rating: ['1', '3', '5'],
          min_rating: ['1', '2.5', '4', '5'],
          since: ['2023-01-01', '2024-06-15', '2025-03-01'],
          until: ['2024-12-31', '2025-06-30', '2026-01-01'],
          limit: ['1', '5', '20', '100'],
        }[key],
      )
  ).map((value): [string, string] => [key, value]),
);
const hostilePair = fc.tuple(
  fc.oneof(
    { weight: 4, arbitrary: nearly(fc.constantFrom(...SEARCH_KEYS, 'cursor', 'q')) },
    { weight: 1, arbitrary: fc.constantFrom(...OBJECT_KEYS) },
  ),
  anyText(),
);

/** How the pairs are written into the target. */
type Encoding = 'encoded' | 'form' | 'raw' | 'mangled';

/** The string with lone surrogates replaced by U+FFFD, as a UTF-8 encoder writes it. */
const wellFormed = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

function writeQuery(pairs: [string, string][], how: Encoding): string {
  switch (how) {
    case 'encoded':
    case 'mangled':
      return pairs.map(([k, v]) => `${percent(k)}=${percent(v)}`).join('&');
    case 'form':
      return new URLSearchParams(
        pairs.map(([k, v]): [string, string] => [wellFormed(k), wellFormed(v)]),
      ).toString();
    case 'raw':
      return rawBytes(pairs.map(([k, v]) => `${k}=${v}`).join('&'));
  }
}

const HEADERS: fc.Arbitrary<[string, string]> = fc
  .oneof(
    fc.tuple(
      fc.constant('Accept-Encoding'),
      fc.oneof(
        fc.constantFrom('gzip', 'br', 'gzip;q=0, br;q=0', 'identity;q=0', '*', 'br;q=abc', 'x'),
        anyText(),
      ),
    ),
    fc.tuple(
      fc.constant('If-None-Match'),
      fc.oneof(fc.constantFrom('*', '"x"', 'W/"x"', ''), anyText()),
    ),
    fc.tuple(
      fc.constantFrom('If-Modified-Since', 'If-Unmodified-Since'),
      fc.oneof(
        fc.constantFrom('Thu, 01 Jan 2099 00:00:00 GMT', 'Mon, 01 Jan 1990 00:00:00 GMT'),
        anyText(),
      ),
    ),
    fc.tuple(fc.constant('If-Match'), fc.oneof(fc.constantFrom('*', '"nope"'), anyText())),
    fc.tuple(fc.constantFrom('Origin', 'Authorization', 'Range', 'X-Forwarded-For'), anyText()),
  )
  .map(([name, value]): [string, string] => [name, rawBytes(value)]);

export const searchRequest = fc.record({
  method: fc.oneof(
    { weight: 12, arbitrary: fc.constant('GET') },
    { weight: 2, arbitrary: fc.constant('HEAD') },
    { weight: 1, arbitrary: fc.constantFrom('POST', 'OPTIONS', 'DELETE') },
  ),
  path: fc.oneof(
    { weight: 12, arbitrary: fc.constant('/api/reviews/search') },
    { weight: 1, arbitrary: fc.constantFrom('/api/reviews/%73earch', '/api/reviews/search/') },
  ),
  pairs: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: goodPair },
      { weight: 4, arbitrary: knownPair },
      { weight: 1, arbitrary: hostilePair },
    ),
    { maxLength: 5 },
  ),
  how: fc.oneof(
    { weight: 6, arbitrary: fc.constant('encoded' as const) },
    { weight: 2, arbitrary: fc.constantFrom('form' as const, 'raw' as const) },
    { weight: 1, arbitrary: fc.constant('mangled' as const) },
  ),
  mangle: fc.nat(),
  /** The index of a pair sent twice (none when past the last pair). */
  twice: fc.nat({ max: 6 }),
  headers: fc.array(HEADERS, { maxLength: 3 }),
  canaries: fc.array(canary(), { maxLength: 1 }),
});

type SearchRequest = typeof searchRequest extends fc.Arbitrary<infer T> ? T : never;

/** The query string actually sent (mangling is one mutation, chosen by `mangle`). */
function queryOf(r: SearchRequest): string {
  const repeated = r.pairs[r.twice];
  const pairs = [
    ...r.pairs,
    ...(repeated ? [repeated] : []),
    ...r.canaries.map((c): [string, string] => ['query', c]),
  ];
  const q = writeQuery(pairs, r.how);
  if (r.how !== 'mangled') return q;
  return rawBytes(fc.sample(mutated(q), { seed: r.mangle, numRuns: 1 })[0]!);
}

/** Checks a 200 search answer against the documented rules computed over /reviews.json. */
function expectModelAnswer(res: WireResponse, params: URLSearchParams): void {
  const verdict = judgeSearch(params);
  expect(verdict.ok, `200 for a query the rules reject: ${params.toString().slice(0, 300)}`).toBe(
    true,
  );
  if (!verdict.ok) return;
  const body = jsonOf(res) as { count: number; total: number; limit: number; reviews: Review[] };
  const all = searchModel(published, verdict.filters, byFirst);
  expect(body.limit).toBe(verdict.filters.limit);
  expect(body.total, `total of ${params.toString().slice(0, 300)}`).toBe(all.length);
  expect(body.count).toBe(body.reviews.length);
  expect(body.reviews.map((r) => r.id)).toEqual(
    all.slice(0, verdict.filters.limit).map((r) => r.id),
  );
}

/** Checks a 400 search answer: one issue per offending parameter, none for the others. */
function expectModelRejection(res: WireResponse, params: URLSearchParams): void {
  const body = expectJsonError(res);
  expect(body.error).toBe('invalid_request');
  const named = new Set((body.issues as { path: string[] }[]).map((i) => String(i.path[0])));
  const verdict = judgeSearch(params);
  if (verdict.ok) {
    // The one rule the query string alone cannot tell: a first name shared by several people.
    expect(isAmbiguous(verdict.filters.mentions_technician ?? '', byFirst)).toBe(true);
    expect([...named]).toEqual(['mentions_technician']);
  } else {
    expect([...named].sort()).toEqual([...verdict.paths].sort());
  }
}

describe('fuzz: search query strings (GET /api/reviews/search)', () => {
  it(
    'never answers 5xx; a 400 names exactly the parameters the rules reject; a 200 is what the rules select; nothing changes',
    async () => {
      await checkBoundary(
        'search query strings',
        fc.asyncProperty(searchRequest, async (r) => {
          const query = queryOf(r);
          const target = `${r.path}${r.pairs.length + r.canaries.length > 0 || r.how === 'mangled' ? `?${query}` : ''}`;
          const res = await wire(svc.url, { method: r.method, target, headers: r.headers });
          noteOutcome(res.status);
          expect(res.status, `${r.method} ${target}`).toBeLessThan(500);
          const q = target.indexOf('?');
          const params = new URLSearchParams(q === -1 ? '' : target.slice(q + 1));
          const keys = [...params.keys()].join('&');
          expectNoEcho(
            res.text,
            r.canaries.filter((c) => !keys.includes(c)),
          );
          // Bytes outside visible ASCII: the HTTP parser refuses them (its JSON 400), or reads
          // the request line its own way, which the model cannot follow.
          const sane =
            !/[^\x21-\x7e]/.test(target) &&
            // eslint-disable-next-line no-control-regex
            r.headers.every(([, v]) => !/[\x00-\x08\x0a-\x1f\x7f]/.test(v));
          if (!sane) {
            if (res.status >= 400) expectJsonError(res, r.method);
            return;
          }
          const path = decodeURIComponent(q === -1 ? target : target.slice(0, q));
          if (path !== '/api/reviews/search') {
            expect(res.status).toBe(404);
            expectJsonError(res, r.method);
          } else if (r.method === 'OPTIONS') {
            expect(res.status).toBe(204);
          } else if (r.method === 'POST' || r.method === 'DELETE') {
            expect(res.status).toBe(405);
            expectJsonError(res);
          } else if (res.status === 400) {
            if (r.method === 'GET') expectModelRejection(res, params);
            else expectJsonError(res, 'HEAD');
          } else if (res.status === 200) {
            if (r.method === 'GET') expectModelAnswer(res, params);
          } else if (res.status === 412) {
            expectJsonError(res, r.method);
          } else {
            expect(res.status, 'only a conditional request gets a 304').toBe(304);
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
