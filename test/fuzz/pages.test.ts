/**
 * The pages' query strings: every page that reads its address (the home page's filters, the
 * insights, the widget, a review page), asked for HTML, with the form's parameters, names a plain
 * object already has (`__proto__`, `constructor`, `toString`, ...) and repeated parameters. The
 * audit's `GET /?constructor=1&constructor=2` answered 500: a page never answers 5xx, and an
 * error page is HTML.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBusiness } from '../helpers/fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { anyText, encode, nearly, OBJECT_KEYS, percent } from './helpers/arbitraries.js';
import { expectHealthy } from './helpers/checks.js';
import { fuzzReviews } from './helpers/data.js';
import { wire } from './helpers/raw-http.js';
import { SEARCH_KEYS } from './helpers/search-model.js';
import { checkBoundary, noteOutcome, timeoutOf } from './helpers/settings.js';

/** Runs in `npm run test:slow` (fixed seed); `npm run fuzz` runs FUZZ_RUNS. */
const RUNS = 150;

/** The filter form's parameters (src/pages/query.ts): the search's, pages instead of a limit. */
const FORM_KEYS = [...SEARCH_KEYS.filter((k) => k !== 'limit'), 'page'];

let svc: TestService;
let dataVersion: number;
let reviewPath: string;

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: fuzzReviews() });
  dataVersion = ((await (await fetch(`${svc.url}/healthz`)).json()) as { dataVersion: number })
    .dataVersion;
  const { reviews } = (await (await fetch(`${svc.url}/reviews.json`)).json()) as {
    reviews: { id: string }[];
  };
  reviewPath = `/reviews/${encode(reviews[0]!.id)}`;
});
afterAll(async () => {
  await svc?.stop();
});

const name = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...FORM_KEYS) },
  { weight: 3, arbitrary: fc.constantFrom(...OBJECT_KEYS) },
  { weight: 1, arbitrary: nearly(fc.constantFrom(...FORM_KEYS, ...OBJECT_KEYS)) },
);
const value = fc.oneof(
  fc.constantFrom('1', '2', '5', '2024-01-01', 'oil-change', 'brake', ...OBJECT_KEYS),
  anyText(),
);
/** Pairs, some of them sent twice or three times (a repeated name is a rule of its own). */
const pairs = fc
  .array(fc.tuple(name, value, fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 4 })
  .map((list) => list.flatMap(([k, v, times]) => Array.from({ length: times }, () => [k, v])));

const pageRequest = fc.record({
  path: fc.constantFrom('/', '/insights', '/embed', 'review'),
  pairs,
  accept: fc.constantFrom('text/html', 'text/html,application/xhtml+xml,*/*;q=0.8', '*/*'),
});

describe('fuzz: page query strings (GET /, /insights, /embed, /reviews/{id})', () => {
  it(
    'never answers 5xx, also for repeated and prototype-named parameters; an error page is HTML',
    async () => {
      await checkBoundary(
        'page query strings',
        fc.asyncProperty(pageRequest, async (r) => {
          const query = r.pairs.map(([k, v]) => `${percent(k!)}=${percent(v!)}`).join('&');
          const path = r.path === 'review' ? reviewPath : r.path;
          const target = `${path}?${query}`;
          const res = await wire(svc.url, {
            method: 'GET',
            target,
            headers: [['Accept', r.accept]],
          });
          noteOutcome(res.status);
          expect(res.status, `GET ${target}`).toBeLessThan(500);
          if (res.status >= 400 && r.accept !== '*/*')
            expect(res.headers['content-type'], `GET ${target}`).toMatch(/^text\/html/);
          await expectHealthy(svc.url, dataVersion);
        }),
        RUNS,
      );
    },
    timeoutOf(60_000),
  );

  it('answers the audit’s repeated prototype names with a 400 page, not a 500', async () => {
    for (const key of OBJECT_KEYS) {
      const res = await wire(svc.url, {
        method: 'GET',
        target: `/?${key}=1&${key}=2`,
        headers: [['Accept', 'text/html']],
      });
      expect(res.status, key).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
  });
});
