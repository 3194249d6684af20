import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(60) });
});
afterAll(() => svc.stop());

const paths = [
  '/reviews.json',
  '/api/feed.json',
  '/feed.xml',
  '/insights.json',
  '/api/reviews/search?min_rating=4',
  '/api/reviews/since/2024-01-01',
];

describe.each(paths)('conditional GET on %s', (path) => {
  async function validators() {
    const res = await http(`${svc.url}${path}`);
    expect(res.status).toBe(200);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    return { etag, lastModified: res.headers['last-modified'] as string };
  }

  it('answers a matching If-None-Match with 304, an empty body and the validators', async () => {
    const { etag, lastModified } = await validators();
    const res = await http(`${svc.url}${path}`, { headers: { 'If-None-Match': etag } });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
    expect(res.headers.etag).toBe(etag);
    expect(res.headers['last-modified']).toBe(lastModified);
    expect(res.headers['cache-control']).toBeDefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
  });

  it('matches inside a list, with weak comparison, and for *', async () => {
    const { etag } = await validators();
    for (const value of [`"nope", ${etag}`, `W/${etag}`, '*', `"a",W/"b", ${etag} `]) {
      const res = await http(`${svc.url}${path}`, { headers: { 'If-None-Match': value } });
      expect(res.status, value).toBe(304);
    }
  });

  it('answers 200 when no tag matches, even if If-Modified-Since would (If-None-Match wins)', async () => {
    const { lastModified } = await validators();
    const res = await http(`${svc.url}${path}`, {
      headers: { 'If-None-Match': '"stale"', 'If-Modified-Since': lastModified },
    });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
  });

  it('uses If-Modified-Since when there is no If-None-Match', async () => {
    const { lastModified } = await validators();
    const same = await http(`${svc.url}${path}`, {
      headers: { 'If-Modified-Since': lastModified },
    });
    expect(same.status).toBe(304);
    const later = new Date(Date.parse(lastModified) + 3600_000).toUTCString();
    expect(
      (await http(`${svc.url}${path}`, { headers: { 'If-Modified-Since': later } })).status,
    ).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect(
      (await http(`${svc.url}${path}`, { headers: { 'If-Modified-Since': earlier } })).status,
    ).toBe(200);
    expect(
      (await http(`${svc.url}${path}`, { headers: { 'If-Modified-Since': 'not a date' } })).status,
    ).toBe(200);
  });

  it('accepts the tag of another content coding of the same content', async () => {
    const gz = await http(`${svc.url}${path}`, { headers: { 'Accept-Encoding': 'gzip' } });
    const res = await http(`${svc.url}${path}`, {
      headers: { 'If-None-Match': gz.headers.etag as string },
    });
    expect(res.status).toBe(304);
  });

  it('fails If-Match with 412 unless a strong tag matches', async () => {
    const { etag } = await validators();
    expect((await http(`${svc.url}${path}`, { headers: { 'If-Match': '"other"' } })).status).toBe(
      412,
    );
    expect((await http(`${svc.url}${path}`, { headers: { 'If-Match': `W/${etag}` } })).status).toBe(
      412,
    );
    expect((await http(`${svc.url}${path}`, { headers: { 'If-Match': etag } })).status).toBe(200);
    expect((await http(`${svc.url}${path}`, { headers: { 'If-Match': '*' } })).status).toBe(200);
  });
});

/** The fields Node adds to every answer: the date and those of the connection. */
const NODE_FIELDS = ['connection', 'date', 'keep-alive'];

/**
 * RFC 9110 §15.4.5 (those of Content-Location, Date, ETag, Vary, Cache-Control and Expires that
 * the 200 has), CORS (Allow-Origin, Expose-Headers), and Last-Modified and Link (docs/api.md).
 */
const NOT_MODIFIED_FIELDS = [
  'access-control-allow-origin',
  'access-control-expose-headers',
  'cache-control',
  'content-location',
  'etag',
  'expires',
  'last-modified',
  'link',
  'vary',
];

describe.each([...paths, '/'])('the 304 of %s', (path) => {
  it('repeats exactly the fields RFC 9110 and CORS ask for, with the values of the 200', async () => {
    const ok = await http(`${svc.url}${path}`, { headers: { 'Accept-Encoding': 'br' } });
    const res = await http(`${svc.url}${path}`, {
      headers: { 'Accept-Encoding': 'br', 'If-None-Match': String(ok.headers.etag) },
    });
    expect(res.status).toBe(304);
    const names = Object.keys(res.headers).filter((name) => !NODE_FIELDS.includes(name));
    const expected = Object.keys(ok.headers).filter((name) => NOT_MODIFIED_FIELDS.includes(name));
    expect(names.sort()).toEqual(expected.sort());
    for (const name of expected) expect(res.headers[name], name).toBe(ok.headers[name]);
    expect(names).toEqual(expect.arrayContaining(['access-control-allow-origin', 'etag', 'vary']));
    expect(res.headers.date).toBeDefined();
  });
});

describe('validators across data versions', () => {
  it('keeps the same strong ETag for the same bytes, and Last-Modified from the newest change', async () => {
    const a = await http(`${svc.url}/reviews.json`);
    const b = await http(`${svc.url}/reviews.json`);
    expect(a.headers.etag).toBe(b.headers.etag);
    const changedAt = Date.parse(svc.publisher.current().state.changedAt);
    expect(Date.parse(a.headers['last-modified'] as string)).toBe(
      Math.floor(changedAt / 1000) * 1000,
    );
  });
});
