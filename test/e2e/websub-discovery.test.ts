import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: testReviews(20) });
});
afterAll(() => svc.stop());

const HUB = `${TEST_BASE_URL}/api/websub/hub`;
const link = (path: string) => `<${HUB}>; rel="hub", <${TEST_BASE_URL}${path}>; rel="self"`;

describe('WebSub discovery', () => {
  it.each(['/feed.xml', '/api/feed.json', '/reviews.json'])(
    '%s carries the hub and self Link on GET, HEAD and 304, in every content coding',
    async (path) => {
      const get = await http(`${svc.url}${path}`);
      expect(get.status).toBe(200);
      expect(get.headers.link).toBe(link(path));
      const head = await http(`${svc.url}${path}`, { method: 'HEAD' });
      expect(head.headers.link).toBe(link(path));
      const br = await http(`${svc.url}${path}`, { headers: { 'Accept-Encoding': 'br' } });
      expect(br.headers.link).toBe(link(path));
      for (const method of ['GET', 'HEAD']) {
        const notModified = await http(`${svc.url}${path}`, {
          method,
          headers: { 'If-None-Match': String(get.headers.etag) },
        });
        expect(notModified.status).toBe(304);
        expect(notModified.headers.link).toBe(link(path));
      }
      expect(String(get.headers['access-control-expose-headers'])).toContain('Link');
    },
  );

  it('does not put the Link on documents that are not topics', async () => {
    expect((await http(`${svc.url}/openapi.json`)).headers.link).toBeUndefined();
    expect((await http(`${svc.url}/api/reviews/search`)).headers.link).toBeUndefined();
  });

  it('names the hub and self in the Atom feed', async () => {
    const doc = new DOMParser().parseFromString(
      (await http(`${svc.url}/feed.xml`)).text,
      'application/xml',
    );
    const links = Array.from(doc.getElementsByTagName('link'))
      .filter((l) => l.parentNode?.nodeName === 'feed')
      .map((l) => [l.getAttribute('rel'), l.getAttribute('href')]);
    expect(links).toContainEqual(['hub', HUB]);
    expect(links).toContainEqual(['self', `${TEST_BASE_URL}/feed.xml`]);
  });

  it('names the hub and self in the JSON Feed', async () => {
    const feed = (await http(`${svc.url}/api/feed.json`)).json<{
      hubs: unknown;
      feed_url: string;
    }>();
    expect(feed.hubs).toEqual([{ type: 'WebSub', url: HUB }]);
    expect(feed.feed_url).toBe(`${TEST_BASE_URL}/api/feed.json`);
  });
});
