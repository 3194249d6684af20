import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_INVALID, loadConfig } from '../../src/config.js';
import { ReviewsDocument, SearchResponse } from '../../src/domain/public-schemas.js';
import type { Review, ReviewSourceInput } from '../../src/domain/review.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { hostileReviews, jsonLdBlocks, pageReviewIds, PAYLOADS } from '../helpers/hostile.js';
import { http } from '../helpers/http.js';
import { connectClient } from '../helpers/mcp.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';

/** A configuration error (`CONFIG_INVALID`). */
const configInvalid = expect.objectContaining({ name: 'ServiceError', code: CONFIG_INVALID });

let svc: TestService;
let all: Review[];

/** Reviews at each verification level (docs/data-model.md), newer than the rest. */
const LEVELS: ReviewSourceInput[] = (
  ['transaction-matched', 'source-confirmed', 'unverified'] as const
).map((level, i) => ({
  source: 'google',
  sourceReviewId: `level-${level}`,
  reviewRating: { ratingValue: 4 },
  name: null,
  reviewBody: `A review whose verification level is ${level}.`,
  author: { name: `Level ${i}` },
  datePublished: `2026-01-0${i + 1}T18:00:00.000Z`,
  verification: { level, checkedAt: `2026-01-0${i + 1}T18:00:00.000Z` },
}));

/** The newest review, in Spanish. */
const SPANISH: ReviewSourceInput = {
  source: 'google',
  sourceReviewId: 'es-newest',
  reviewRating: { ratingValue: 5 },
  name: null,
  reviewBody: 'Excelente servicio, muy rápido y amable. Gracias a todo el equipo por la ayuda.',
  inLanguage: 'es',
  author: { name: 'Lucía' },
  datePublished: '2026-01-05T18:00:00.000Z',
};

/** Four reviews about the wait in each of the last two months of 2025: a trend to draw. */
const WAITS: ReviewSourceInput[] = ['2025-11', '2025-12'].flatMap((month) =>
  [1, 2, 3, 4].map((day) => ({
    source: 'google' as const,
    sourceReviewId: `wait-${month}-${day}`,
    reviewRating: { ratingValue: day === 1 ? 5 : 2 },
    name: null,
    reviewBody:
      day === 1
        ? 'The wait was short and they had my car ready in under an hour.'
        : `Waited ${day + 1} hours for a simple oil change. The wait was far too long.`,
    author: { name: `Waiting customer ${day}` },
    datePublished: `${month}-0${day + 4}T18:00:00.000Z`,
  })),
);

beforeAll(async () => {
  svc = await startTestService({
    business: testBusiness(),
    reviews: [...testReviews(150), ...hostileReviews(), ...LEVELS, SPANISH, ...WAITS],
  });
  all = ReviewsDocument.parse((await http(`${svc.url}/reviews.json`)).json()).reviews;
});
afterAll(() => svc.stop());

const page = (path: string, headers: Record<string, string> = {}) =>
  http(`${svc.url}${path}`, { headers });

async function searchIds(qs: string): Promise<{ ids: string[]; total: number }> {
  const res = await http(`${svc.url}/api/reviews/search?${qs}`);
  expect(res.status, res.text).toBe(200);
  const body = SearchResponse.parse(res.json());
  return { ids: body.reviews.map((r) => r.id), total: body.total };
}

function expectPageHeaders(res: Awaited<ReturnType<typeof page>>): void {
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('script-src');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  // BASE_URL is https: browsers are told to keep to it.
  expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
}

describe('GET /', () => {
  it('shows the business, its rating and distribution, and the 20 newest reviews with the security headers', async () => {
    const res = await page('/');
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.text).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(res.text).toContain('<h1>Test Motors</h1>');
    expect(res.text).toContain('1 Main St, Springfield, IL 62701');
    expect(pageReviewIds(res.text)).toEqual(all.slice(0, 20).map((r) => r.id));
    // Links to views open at the list of reviews.
    for (const star of [1, 2, 3, 4, 5])
      expect(res.text).toContain(`href="/?rating=${star}#reviews"`);
    expect(res.text).toContain('<section id="reviews" aria-labelledby="reviews-title">');
    expect(res.text).toMatch(/<form\s+class="filters"\s+method="get"\s+action="\/#reviews"/);
    expect(res.text).toContain('<a rel="next" href="/?page=2#reviews"');
    // The filters are folded away on the first page, open on a filtered view.
    expect(res.text).toContain('<details class="card filters-panel">');
    expect((await page('/?rating=5')).text).toContain('<details class="card filters-panel" open>');
    // Local dates, in words, with the machine-readable date.
    expect(res.text).toContain(`<time datetime="${all[2]!.date}">`);
    // Feeds, the hub and the stylesheet, which is a hashed file on this origin.
    expect(res.text).toContain(`<link rel="alternate" type="application/atom+xml"`);
    expect(res.text).toContain(`href="${TEST_BASE_URL}/feed.xml"`);
    expect(res.text).toContain(`<link rel="alternate" type="application/feed+json"`);
    expect(res.text).toContain(`<link rel="hub" href="${TEST_BASE_URL}/api/websub/hub">`);
    expect(res.text).toContain(`<link rel="canonical" href="${TEST_BASE_URL}/">`);
    expect(res.text).toContain('<meta property="og:title"');
    expect(res.text).toContain('<meta name="twitter:card" content="summary">');
    expect(res.text).not.toMatch(/style="/);
    const css = /<link rel="stylesheet" href="(\/assets\/site\.[0-9a-f]{12}\.css)">/.exec(res.text);
    expect(css).not.toBeNull();
    const sheet = await page(css![1]!);
    expect(sheet.status).toBe(200);
    expect(sheet.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(sheet.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The stars are drawn by the stylesheet through a star image beside it, one element each.
    const star = /url\((star\.[0-9a-f]{12}\.svg)\)/.exec(sheet.text);
    expect(star).not.toBeNull();
    const image = await page(`/assets/${star![1]!}`);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/svg+xml');
    expect(res.text).toMatch(
      /<span class="stars stars-sm s[1-5]0" role="img" aria-label="Rated [1-5] out of 5"><\/span>/,
    );
    expect(res.text).not.toContain('<use');
  });

  it('claims verification only where the data model has it: a badge for transaction-matched reviews alone', async () => {
    const res = await page('/');
    // No blanket claim in the title, the social titles or the footer: some reviews are unverified.
    expect(res.text).not.toMatch(/verified customer reviews/i);
    expect(res.text).toContain('<title>Test Motors: customer reviews</title>');
    const card = (sourceId: string) => {
      const id = all.find((r) => r.sourceReviewId === sourceId)!.id;
      return new RegExp(`<article[^>]*data-review-id="${id}"[\\s\\S]*?</article>`).exec(
        res.text,
      )![0];
    };
    expect(card('level-transaction-matched')).toContain(
      '<span class="badge verified">Verified customer</span>',
    );
    // An ordinary import (source-confirmed, the default) and an unverified review get no badge.
    for (const id of ['level-source-confirmed', 'r1-149', 'level-unverified'])
      expect(card(id)).not.toMatch(/class="badge verified"|>Verified</);
    expect(card('level-unverified')).toContain('<span class="badge plain">Not verified</span>');
    // The footer says what the badge means.
    expect(res.text).toMatch(/<footer[\s\S]*Verified customer[\s\S]*service visit or purchase/);
  });

  it('links the staff and services a review mentions to their filtered views', async () => {
    const res = await page('/');
    expect(res.text).toContain('href="/?mentions_technician=Sarah+Lopez#reviews">Sarah Lopez</a>');
    const withService = await page('/?mentions_service=brakes');
    expect(withService.text).toContain(
      'href="/?mentions_service=brakes#reviews">Brake service</a>',
    );
    // Removing a filter keeps the others.
    expect((await page('/?mentions_service=brakes&rating=5')).text).toMatch(
      /<a href="\/\?rating=5#reviews"\s*>Service: Brake service/,
    );
  });

  it('answers conditional requests, HEAD and gzip and brotli like the JSON documents', async () => {
    const first = await page('/');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['last-modified']).toBeDefined();
    expect(first.headers.vary).toBe('Accept-Encoding');
    const again = await page('/', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    const br = await page('/', { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(first.text);
    const gz = await page('/', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(first.text);
    expect(
      (await page('/', { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) }))
        .status,
    ).toBe(304);
    const head = await http(`${svc.url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(head.headers.etag).toBe(etag);
    // A filtered view and a review's page are cached per version too.
    const filtered = await page('/?rating=5');
    expect(
      (await page('/?rating=5', { 'If-None-Match': String(filtered.headers.etag) })).status,
    ).toBe(304);
  });

  it.each([
    'rating=5',
    'min_rating=3.5',
    'since=2024-01-01&until=2024-06-30',
    'query=BRAKE',
    'mentions_technician=sarah',
    'mentions_technician=Mike%20Torres',
    'mentions_service=BRAKES',
    'min_rating=4&since=2023-06-01&query=brake',
    'rating=3&min_rating=4',
  ])('shows the same reviews as /api/reviews/search for %s, page by page', async (qs) => {
    const first = await page(`/?${qs}`);
    expect(first.status, first.text).toBe(200);
    const search = await searchIds(`${qs}&limit=40`);
    expect(pageReviewIds(first.text)).toEqual(search.ids.slice(0, 20));
    if (search.total > 20) {
      const second = await page(`/?${qs}&page=2`);
      expect(second.status).toBe(200);
      expect(pageReviewIds(second.text)).toEqual(search.ids.slice(20, 40));
      expect(first.text).toContain('rel="next"');
    }
    if (search.total === 0) expect(first.text).toContain('No reviews match these filters.');
    // Filtered views stay out of search engines' indexes.
    expect(first.text).toContain('<meta name="robots" content="noindex, follow">');
  });

  it('treats blank form fields as absent and ignores campaign parameters', async () => {
    const blank = await page(
      '/?query=brake&rating=&min_rating=&since=&until=&mentions_technician=&mentions_service=&utm_source=newsletter',
    );
    expect(blank.status).toBe(200);
    expect(pageReviewIds(blank.text)).toEqual((await searchIds('query=brake')).ids);
    // The form shows the filters in force.
    expect(blank.text).toContain('name="query" type="search" maxlength="200" value="brake"');
  });

  it.each([
    ['rating=9', 'Stars', 'Choose a whole number of stars from 1 to 5.'],
    ['rating=2.5', 'Stars', 'Choose a whole number of stars from 1 to 5.'],
    ['min_rating=1e0', 'At least', 'Choose a number of stars from 1 to 5.'],
    ['min_rating=0', 'At least', 'Choose a number of stars from 1 to 5.'],
    ['since=2024-02-30', 'From', 'Enter a real date, written year-month-day (2025-06-30).'],
    ['until=June', 'To', 'Enter a real date, written year-month-day (2025-06-30).'],
    [
      'since=2024-05-01&until=2024-01-01',
      'Dates',
      'Choose a “From” date on or before the “To” date.',
    ],
    ['page=0', 'Page', 'Pages are numbered from 1 to 10,000.'],
    ['page=first', 'Page', 'Pages are numbered from 1 to 10,000.'],
    [
      'limit=5',
      'The address',
      'holds a setting this page does not use. Start again from all reviews.',
    ],
    ['rating=5&rating=4', 'Stars', 'was given more than once. Choose one.'],
    ['mentions_service=' + 's'.repeat(65), 'Service', 'Choose a service from the list.'],
    [
      'mentions_technician=Mike',
      'Staff member',
      'Several staff members have this first name. Choose one:',
    ],
  ])(
    'answers bad filters (%s) with a friendly 400 page in plain words that does not echo them',
    async (qs, label, message) => {
      const res = await page(`/?${qs}&query=%3Cscript%3Ezzz`);
      expect(res.status).toBe(400);
      expectPageHeaders(res);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toContain('<h1>Some filters could not be used</h1>');
      expect(res.text).toContain(`<strong>${label}</strong>`);
      expect(res.text).toContain(message);
      // Never the validation library's wording, nor a parameter's name.
      expect(res.text).not.toMatch(/expected|Too big|Too small|<=|must be|until|min_rating/);
      expect(res.text).not.toContain('zzz');
      expect(res.text).toContain('<a href="/">Go to all reviews</a>');
    },
  );

  it('offers the full names to choose from when a first name is shared (the search rule)', async () => {
    const res = await page('/?mentions_technician=mike&rating=5');
    expect(res.status).toBe(400);
    for (const name of ['Mike Chen', 'Mike Torres'])
      expect(res.text).toContain(
        `<a href="/?mentions_technician=${name.replace(' ', '+')}#reviews">${name}</a>`,
      );
  });

  it('answers a browser asking for an unknown path with the HTML 404 page, and programs with JSON', async () => {
    const browser = await page('/no/such/page', {
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
    });
    expect(browser.status).toBe(404);
    expect(browser.headers['content-type']).toMatch(/^text\/html/);
    expect(browser.text).toContain('<h1>Page not found</h1>');
    expect(browser.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const program = await http(`${svc.url}/no/such/page`);
    expect(program.status).toBe(404);
    expect(program.json()).toMatchObject({ error: 'not_found' });
    const post = await http(`${svc.url}/no/such/page`, {
      method: 'POST',
      headers: { accept: 'text/html' },
    });
    expect(post.status).toBe(404);
    expect(post.json()).toMatchObject({ error: 'not_found' });
  });

  it('answers a page past the last with a 404 page that links to the last page', async () => {
    const last = Math.ceil((await searchIds('rating=5&limit=1')).total / 20);
    expect(last).toBeGreaterThan(1);
    const res = await page('/?rating=5&page=50');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<h1>No more reviews here</h1>');
    expect(res.text).not.toMatch(/removed/);
    expect(res.text).toContain(
      `<a href="/?rating=5&amp;page=${last}#reviews">Go to the last page (page ${last})</a>`,
    );
  });
});

describe('escaping', () => {
  it('writes markup and script from reviews as text on every page', async () => {
    const hostile = all.find((r) => r.sourceReviewId === 'hostile-1')!;
    const other = all.find((r) => r.sourceReviewId === 'hostile-2')!;
    for (const path of [
      '/',
      `/reviews/${hostile.id}`,
      `/reviews/${other.id}`,
      '/embed',
      '/?query=brake',
    ]) {
      const res = await page(path);
      expect(res.status, path).toBe(200);
      for (const needle of [
        '<script>window',
        '<img src=x',
        '<b onmouseover',
        '<iframe',
        '<svg onload',
        'href="javascript:',
      ]) {
        expect(res.text, `${path}: ${needle}`).not.toContain(needle);
      }
      // One script element: the JSON-LD block, or the widget's own signal to its framing page.
      expect(res.text.match(/<script/g)?.length ?? 0, path).toBe(1);
    }
    const own = (await page(`/reviews/${hostile.id}`)).text;
    expect(own).toContain(
      '&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;Great&lt;/title&gt;',
    );
    expect(own).toContain('&lt;b onmouseover=&quot;window.__xss=1&quot;&gt;Eve&lt;/b&gt;');
    expect(own).toContain(
      '&lt;iframe src=&quot;javascript:window.__xss=1&quot;&gt;&lt;/iframe&gt;',
    );
    expect(own).toContain('&amp; &quot;quoted&quot; &#39;single&#39;');
    // The JSON-LD holds the text exactly, and nothing in it closes its element.
    const [ld] = jsonLdBlocks(own);
    expect(ld!.reviewBody).toBe(PAYLOADS.body);
    expect((ld!.author as { name: string }).name).toBe(PAYLOADS.author);
  });
});

describe('JSON-LD', () => {
  it('describes the business as an AutoDealer with its aggregate rating and the reviews shown, with what review rich results need', async () => {
    const res = await page('/');
    const blocks = jsonLdBlocks(res.text);
    expect(blocks).toHaveLength(1);
    const ld = blocks[0] as {
      '@context': string;
      '@type': string;
      name: string;
      address: Record<string, string>;
      aggregateRating: Record<string, unknown>;
      review: Record<string, unknown>[];
    };
    const doc = ReviewsDocument.parse((await http(`${svc.url}/reviews.json`)).json());
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@type']).toBe('AutoDealer');
    expect(ld.name).toBe('Test Motors');
    expect(ld.address).toMatchObject({ '@type': 'PostalAddress', addressLocality: 'Springfield' });
    expect(ld.aggregateRating).toMatchObject({
      '@type': 'AggregateRating',
      ratingValue: doc.aggregateRating.ratingValue,
      reviewCount: doc.aggregateRating.reviewCount,
      ratingCount: doc.aggregateRating.ratingCount,
      bestRating: 5,
      worstRating: 1,
    });
    expect(ld.review.map((r) => r.url)).toEqual(
      all.slice(0, 20).map((r) => `${TEST_BASE_URL}/reviews/${r.id}`),
    );
    ld.review.forEach((r, i) => {
      const source = all[i]!;
      expect(r['@type']).toBe('Review');
      expect((r.itemReviewed as { name: string }).name).toBe('Test Motors');
      expect(r.author as { '@type': string; name: string }).toEqual({
        '@type': 'Person',
        name: source.author.name,
      });
      expect(r.reviewRating).toEqual({
        '@type': 'Rating',
        ratingValue: source.reviewRating.ratingValue,
        bestRating: 5,
        worstRating: 1,
      });
      expect(r.datePublished).toBe(source.date);
      expect(r.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    });
  });

  it('describes /insights as a WebPage about the AutoDealer with its aggregate rating', async () => {
    const blocks = jsonLdBlocks((await page('/insights')).text);
    expect(blocks).toHaveLength(1);
    const doc = ReviewsDocument.parse((await http(`${svc.url}/reviews.json`)).json());
    expect(blocks[0]).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'WebPage',
      url: `${TEST_BASE_URL}/insights`,
      about: {
        '@type': 'AutoDealer',
        '@id': `${TEST_BASE_URL}/#business`,
        name: 'Test Motors',
        aggregateRating: {
          '@type': 'AggregateRating',
          ratingValue: doc.aggregateRating.ratingValue,
          ratingCount: doc.aggregateRating.ratingCount,
        },
      },
    });
  });

  it('describes a review page as a Review of the AutoDealer', async () => {
    const r = all[5]!;
    const [ld] = jsonLdBlocks((await page(`/reviews/${r.id}`)).text) as Record<string, unknown>[];
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Review',
      url: `${TEST_BASE_URL}/reviews/${r.id}`,
      author: { '@type': 'Person', name: r.author.name },
      datePublished: r.date,
      reviewRating: { ratingValue: r.reviewRating.ratingValue, bestRating: 5 },
      itemReviewed: { '@type': 'AutoDealer', name: 'Test Motors' },
    });
    expect(
      (ld!.itemReviewed as { aggregateRating: { reviewCount: number } }).aggregateRating
        .reviewCount,
    ).toBeGreaterThan(0);
  });
});

describe('GET /reviews/{id}', () => {
  it('shows one review with its reply, at the address the MCP tools link to', async () => {
    const { client } = await connectClient(svc.url);
    try {
      const result = (await client.callTool({
        name: 'search_reviews',
        arguments: { limit: 3 },
      })) as unknown as {
        structuredContent: { reviews: { id: string; link: string }[] };
      };
      for (const r of result.structuredContent.reviews) {
        expect(r.link).toBe(`${TEST_BASE_URL}/reviews/${r.id}`);
        const res = await page(new URL(r.link).pathname);
        expect(res.status).toBe(200);
        expectPageHeaders(res);
        expect(res.text).toContain(`<link rel="canonical" href="${r.link}">`);
        expect(pageReviewIds(res.text)).toEqual([r.id]);
      }
    } finally {
      await client.close();
    }
    const replied = all.find((r) => r.ownerResponse?.text === 'Thank you for your feedback!')!;
    const res = await page(`/reviews/${replied.id}`);
    expect(res.text).toContain('Response from the owner');
    expect(res.text).toContain('Thank you for your feedback!');
  });

  it.each(['00000000-0000-4000-8000-000000000000', 'not-an-id', '', '..%2F..%2Fetc'])(
    'answers an unknown or malformed id (%s) with a friendly 404 page',
    async (id) => {
      const res = await page(`/reviews/${id}`);
      expect(res.status).toBe(404);
      expectPageHeaders(res);
      expect(res.text).toContain('<h1>Review not found</h1>');
      expect(res.text).toContain('no longer published');
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );
});

describe('GET /insights', () => {
  it('shows every aspect with a bar and a sparkline, and links every quote to an existing review page', async () => {
    const res = await page('/insights');
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    const insights = (await http(`${svc.url}/insights.json`)).json<{
      aspects: { name: string; mentions: number; trend: { mentions: number }[] }[];
    }>();
    const mentioned = insights.aspects.filter((a) => a.mentions > 0);
    expect(mentioned.length).toBeGreaterThan(0);
    for (const a of mentioned) expect(res.text).toContain(`<h3>${a.name}</h3>`);
    expect(res.text).toMatch(/<svg\s+class="bar"/);
    // A sparkline for each aspect with two months of at least three mentions (charts.test.ts).
    const trends = insights.aspects.filter(
      (a) => a.trend.filter((m) => m.mentions >= 3).length >= 2,
    ).length;
    expect(trends).toBeGreaterThan(0);
    expect(res.text.match(/<figure class="spark">/g)?.length ?? 0).toBe(trends);
    const links = [
      ...res.text.matchAll(/<blockquote[^>]*><p[^>]*>[\s\S]*?<\/p><a href="\/reviews\/([^"]+)">/g),
    ].map((m) => m[1]!);
    const quotes = res.text.match(/<blockquote/g)?.length ?? 0;
    expect(quotes).toBeGreaterThan(0);
    expect(links).toHaveLength(quotes);
    const ids = new Set(all.map((r) => r.id));
    for (const id of links) expect(ids.has(id), id).toBe(true);
    expect((await page('/insights', { 'If-None-Match': String(res.headers.etag) })).status).toBe(
      304,
    );
  });

  it('says plainly that there is nothing to show yet when there are no reviews', async () => {
    const empty = await startTestService({ business: null, reviews: [] });
    try {
      let res = await http(`${empty.url}/insights`);
      for (let i = 0; i < 100 && res.status === 503; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        res = await http(`${empty.url}/insights`);
      }
      expect(res.status).toBe(200);
      expect(res.text).toContain('<h2>No reviews yet</h2>');
      expect(res.text).not.toMatch(/\b0 reviews|of Customer reviews|No ratings/);
      // No empty aspect cards, tables or questions.
      expect(res.text).not.toMatch(/<article|<table|<details/);
    } finally {
      await empty.stop();
    }
  });

  it('marks the language of quotes from reviews not in English (WCAG 3.1.2)', async () => {
    const html = (await page('/insights')).text;
    const language = new Map(all.map((r) => [r.id, r.inLanguage]));
    const quotes = [
      ...html.matchAll(
        /<blockquote[^>]*><p( lang="[^"]+")?>[\s\S]*?<\/p><a href="\/reviews\/([^"]+)">/g,
      ),
    ].map((m) => ({ lang: m[1] ?? '', language: language.get(m[2]!) }));
    const spanish = quotes.filter((q) => q.language === 'es');
    expect(spanish.length).toBeGreaterThan(0);
    for (const q of quotes) expect(q.lang).toBe(q.language === 'es' ? ' lang="es"' : '');
  });

  it('quotes each FAQ answer with its first distinct quotes, complaints too, never the same words twice', async () => {
    const html = (await page('/insights')).text;
    const doc = (await http(`${svc.url}/insights.json`)).json<{
      faq: { question: string; basis: { negative: number }; evidence: { quote: string }[] }[];
    }>();
    const words = (q: string) =>
      q
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    const decode = (s: string) =>
      s
        .replace(/&#39;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    let complaints = 0;
    for (const f of doc.faq) {
      const block = new RegExp(
        `<summary>${f.question.replace(/[?]/g, '\\?')}</summary>[\\s\\S]*?</details>`,
      ).exec(html);
      expect(block, f.question).not.toBeNull();
      const shown = [...block![0].matchAll(/<blockquote[^>]*><p[^>]*>“([\s\S]*?)”<\/p>/g)].map(
        (m) => decode(m[1]!),
      );
      expect(shown.length, f.question).toBeLessThanOrEqual(3);
      expect(new Set(shown.map(words)).size, f.question).toBe(shown.length);
      const distinct = [...new Map(f.evidence.map((e) => [words(e.quote), e.quote])).values()];
      expect(shown, f.question).toEqual(distinct.slice(0, 3));
      if (f.basis.negative > 0) complaints++;
    }
    expect(complaints).toBeGreaterThan(0);
    // The price question: most reviews that compare the price with a quote complain here.
    const price = doc.faq.find((f) => f.question.startsWith('Is the final price'))!;
    expect(price.evidence[0]!.quote).toMatch(/higher than the quote/);
  });
});

describe('GET /embed', () => {
  it('may be framed by any origin by default, and shows the rating and the newest written reviews', async () => {
    const res = await page('/embed');
    expect(res.status).toBe(200);
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors \*$/);
    expect(res.text).toContain('<meta name="robots" content="noindex">');
    expect(res.text).toContain('target="_blank" rel="noopener"');
    // The newest review is in Spanish, and its excerpt says so (WCAG 3.1.2).
    expect(res.text).toMatch(/<p class="excerpt" lang="es">Excelente servicio/);
    expect(res.text.match(/ lang="es"/g)).toHaveLength(1);
    // Its one script (telling the framing page it rendered) is the only one the policy allows.
    const scripts = [...res.text.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toContain('dealer-reviews:embed-ready');
    const hash = createHash('sha256').update(scripts[0]!).digest('base64');
    expect(res.headers['content-security-policy']).toContain(`; script-src 'sha256-${hash}';`);
  });

  it('may be framed only by EMBED_ALLOWED_ORIGINS when set', async () => {
    const other = await startTestService({
      business: testBusiness(),
      reviews: testReviews(5),
      env: { EMBED_ALLOWED_ORIGINS: 'https://www.example.com, https://*.example.org' },
    });
    try {
      const res = await http(`${other.url}/embed`);
      expect(res.headers['content-security-policy']).toMatch(
        / frame-ancestors https:\/\/www\.example\.com https:\/\/\*\.example\.org$/,
      );
      expect((await http(`${other.url}/`)).headers['content-security-policy']).toContain(
        "frame-ancestors 'none'",
      );
    } finally {
      await other.stop();
    }
  });

  it.each([
    '',
    'example.com',
    'https://example.com/',
    'https://a.com;script-src *',
    '*,https://a.com',
  ])('refuses EMBED_ALLOWED_ORIGINS=%j at start-up with a clear message', (value) => {
    const load = () => loadConfig({ EMBED_ALLOWED_ORIGINS: value === '' ? ',' : value });
    expect(load).toThrow(configInvalid);
    expect(load).toThrow(
      /^invalid EMBED_ALLOWED_ORIGINS=.*must be \* or a comma-separated list of origins/,
    );
  });
});

describe('sitemap and robots.txt', () => {
  it('lists the home page, the insights and every review page; robots.txt points at it', async () => {
    const robots = await page('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.text).toContain(`Sitemap: ${TEST_BASE_URL}/sitemap.xml`);
    const index = await page('/sitemap.xml');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('application/xml; charset=utf-8');
    const files = [...index.text.matchAll(/<sitemap><loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(files).toEqual([`${TEST_BASE_URL}/sitemaps/1.xml`]);
    const urls = (await page('/sitemaps/1.xml')).text;
    const locs = [...urls.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(locs).toEqual([
      `${TEST_BASE_URL}/`,
      `${TEST_BASE_URL}/insights`,
      ...all.map((r) => `${TEST_BASE_URL}/reviews/${r.id}`),
    ]);
    expect((await page('/sitemaps/2.xml')).status).toBe(404);
    expect((await page('/sitemaps/x.xml')).status).toBe(404);
  });
});
