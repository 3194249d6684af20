import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewsDocument } from '../../src/domain/public-schemas.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(120) });
});
afterAll(() => svc.stop());

describe('GET /reviews.json', () => {
  it('returns the business, an aggregate rating whose invariants hold, and every review newest first', async () => {
    const res = await http(`${svc.url}/reviews.json`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const doc = ReviewsDocument.parse(res.json());
    expect(doc.business?.name).toBe('Test Motors');
    expect(doc.business?.timeZone).toBe('America/Chicago');
    expect(doc.reviews).toHaveLength(120);
    const agg = doc.aggregateRating;
    const dist = Object.values(agg.distribution).reduce((a, b) => a + b, 0);
    expect(dist).toBe(agg.ratingCount);
    expect(agg.ratingCount).toBe(120);
    const sum = doc.reviews.reduce((a, r) => a + r.reviewRating.ratingValue, 0);
    expect(agg.ratingValue).toBe(Math.round((sum / 120) * 100) / 100);
    expect(agg.reviewCount).toBe(doc.reviews.filter((r) => r.reviewBody !== null).length);
    expect(agg.reviewCount).toBeLessThan(agg.ratingCount);
    expect(agg.asOf).toBe(
      doc.reviews
        .map((r) => r.dateModified)
        .sort()
        .at(-1),
    );
    const keys = doc.reviews.map((r) => `${r.date}|${r.datePublished}|${r.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it('gives every review the public fields, with local dates and derived mentions', async () => {
    const doc = ReviewsDocument.parse((await http(`${svc.url}/reviews.json`)).json());
    const tagged = doc.reviews.find((r) => r.source === 'dealerrater')!;
    expect(tagged.mentions.technicians[0]).toMatchObject({ name: 'Sarah Lopez', via: 'tagged' });
    const brakes = doc.reviews.find((r) => r.reviewBody?.startsWith('Mike Torres did'))!;
    expect(brakes.mentions.technicians.map((t) => t.name)).toEqual(['Mike Torres']);
    expect(brakes.mentions.services).toEqual(['brakes']);
    const ratingOnly = doc.reviews.find((r) => r.reviewBody === null)!;
    expect(ratingOnly.mentions).toEqual({ technicians: [], services: [] });
    for (const r of doc.reviews) {
      // America/Chicago: the local date of an afternoon UTC time is the same calendar day.
      expect(r.date).toBe(r.datePublished.slice(0, 10));
    }
  });
});

describe('compression and HEAD', () => {
  const paths = [
    '/reviews.json',
    '/api/feed.json',
    '/feed.xml',
    '/api/reviews/search?limit=50',
    '/api/reviews/since/2023-01-01',
  ];

  it.each(paths)(
    'negotiates gzip and br with Vary on %s, and the decoded bytes equal identity',
    async (path) => {
      const plain = await http(`${svc.url}${path}`);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      const gz = await http(`${svc.url}${path}`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
      const br = await http(`${svc.url}${path}`, {
        headers: { 'Accept-Encoding': 'gzip, deflate, br' },
      });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(br.headers.etag).not.toBe(plain.headers.etag);
    },
  );

  it('honours q-values: br;q=0 falls back to gzip, identity when nothing else is acceptable', async () => {
    const a = await http(`${svc.url}/reviews.json`, {
      headers: { 'Accept-Encoding': 'br;q=0, gzip;q=0.5' },
    });
    expect(a.headers['content-encoding']).toBe('gzip');
    const b = await http(`${svc.url}/reviews.json`, {
      headers: { 'Accept-Encoding': 'compress, *;q=0' },
    });
    expect(b.headers['content-encoding']).toBeUndefined();
    const c = await http(`${svc.url}/reviews.json`, { headers: { 'Accept-Encoding': '*' } });
    expect(c.headers['content-encoding']).toBe('br');
  });

  it.each(paths)('answers HEAD on %s with the GET headers and no body', async (path) => {
    const get = await http(`${svc.url}${path}`, { headers: { 'Accept-Encoding': 'gzip' } });
    const head = await http(`${svc.url}${path}`, {
      method: 'HEAD',
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const h of [
      'content-type',
      'content-length',
      'etag',
      'last-modified',
      'cache-control',
      'vary',
      'content-encoding',
    ]) {
      expect(head.headers[h], h).toBe(get.headers[h]);
    }
    expect(Number(head.headers['content-length'])).toBe(get.body.length);
  });

  it('sends CORS and cache headers on every GET, and ignores Authorization', async () => {
    const res = await http(`${svc.url}/api/feed.json`, {
      headers: { Authorization: 'Bearer nonsense' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toMatch(/public, max-age=60/);
    const err = await http(`${svc.url}/api/reviews/search?rating=9`, {
      headers: { Authorization: 'Basic x' },
    });
    expect(err.headers['access-control-allow-origin']).toBe('*');
  });
});
