import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewsDocument } from '../../src/domain/public-schemas.js';
import type { Review } from '../../src/domain/review.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';

const ATOM_NS = 'http://www.w3.org/2005/Atom';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let svc: TestService;
let all: Review[];

const hostile = {
  source: 'google' as const,
  sourceReviewId: 'hostile-1',
  reviewRating: { ratingValue: 2 },
  name: 'Title with <tags> & "quotes"',
  reviewBody:
    'Body with </content> & <script>alert(1)</script> and a control char \u0001 and \ud800 lone surrogate.',
  author: { name: 'Eve <eve@example.com> & co' },
  datePublished: '2030-01-01T12:00:00Z',
  ownerResponse: { text: 'Sorry & thanks <b>bold</b>' },
};

beforeAll(async () => {
  svc = await startTestService({
    business: testBusiness(),
    reviews: [...testReviews(70), hostile],
  });
  all = ReviewsDocument.parse((await http(`${svc.url}/reviews.json`)).json()).reviews;
});
afterAll(() => svc.stop());

interface JsonFeedItem {
  id: string;
  title?: string;
  content_text?: string;
  content_html?: string;
  date_published?: string;
  date_modified?: string;
  authors?: { name: string }[];
  external_url?: string;
  _dealer_reviews?: { review: Review };
}

describe('JSON Feed 1.1 at /api/feed.json', () => {
  it('has the required top-level fields, the hub-free self URL and the 50 newest items', async () => {
    const res = await http(`${svc.url}/api/feed.json`);
    expect(res.status).toBe(200);
    const feed = res.json<Record<string, unknown> & { items: JsonFeedItem[] }>();
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(typeof feed.title).toBe('string');
    expect(feed.feed_url).toBe(`${TEST_BASE_URL}/api/feed.json`);
    expect(feed.items).toHaveLength(50);
    expect(feed.items.map((i) => i._dealer_reviews!.review.id)).toEqual(
      all.slice(0, 50).map((r) => r.id),
    );
  });

  it('gives every item a unique stable id, content, RFC 3339 dates and an author', async () => {
    const feed = (await http(`${svc.url}/api/feed.json`)).json<{ items: JsonFeedItem[] }>();
    const ids = feed.items.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const item of feed.items) {
      expect(item.id).toBe(`urn:uuid:${item._dealer_reviews!.review.id}`);
      expect(item.content_text ?? item.content_html).toBeTruthy();
      expect(item.date_published).toMatch(RFC3339);
      // Optional in JSON Feed 1.1: only an edited review has one (issue 28, test/e2e/edits.test.ts).
      if (item.date_modified !== undefined) {
        expect(item.date_modified).toMatch(RFC3339);
        expect(item.date_modified > item.date_published!).toBe(true);
      }
      expect(item.authors?.[0]?.name).toBeTruthy();
      for (const key of Object.keys(item)) {
        expect(key.startsWith('_') || !key.includes('.'), key).toBe(true);
      }
    }
    const ratingOnly = feed.items.find((i) => i._dealer_reviews!.review.reviewBody === null);
    expect(ratingOnly?.content_text).toMatch(/^Rated \d out of 5/);
  });

  it('escapes HTML content', async () => {
    const feed = (await http(`${svc.url}/api/feed.json`)).json<{ items: JsonFeedItem[] }>();
    const item = feed.items.find((i) => i._dealer_reviews!.review.sourceReviewId === 'hostile-1')!;
    expect(item.content_html).not.toContain('<script>');
    expect(item.content_html).toContain('&#60;script&#62;');
    expect(item.content_text).toContain('<script>');
  });
});

function parseAtom(xml: string): Document {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      errors.push(`${level}: ${message}`);
    },
  }).parseFromString(xml, 'application/xml');
  expect(errors).toEqual([]);
  return doc;
}

function children(el: Element, name: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    const e = n as unknown as Element;
    if (e.nodeType === 1 && e.localName === name && e.namespaceURI === ATOM_NS) out.push(e);
  }
  return out;
}

describe('Atom feed at /feed.xml (RFC 4287)', () => {
  it('is well-formed XML in the Atom namespace with the required feed elements', async () => {
    const res = await http(`${svc.url}/feed.xml`);
    expect(res.headers['content-type']).toBe('application/atom+xml');
    const doc = parseAtom(res.text);
    const feed = doc.documentElement!;
    expect(feed.localName).toBe('feed');
    expect(feed.namespaceURI).toBe(ATOM_NS);
    expect(children(feed, 'id')).toHaveLength(1);
    expect(children(feed, 'id')[0]!.textContent).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(children(feed, 'title')).toHaveLength(1);
    expect(children(feed, 'updated')[0]!.textContent).toMatch(RFC3339);
    expect(children(feed, 'author').length).toBeGreaterThan(0);
    const self = children(feed, 'link').filter((l) => l.getAttribute('rel') === 'self');
    expect(self).toHaveLength(1);
    expect(self[0]!.getAttribute('href')).toBe(`${TEST_BASE_URL}/feed.xml`);
  });

  it('has the 50 newest entries, each with id, title, updated, author and content', async () => {
    const doc = parseAtom((await http(`${svc.url}/feed.xml`)).text);
    const entries = children(doc.documentElement!, 'entry');
    expect(entries).toHaveLength(50);
    expect(entries.map((e) => children(e, 'id')[0]!.textContent)).toEqual(
      all.slice(0, 50).map((r) => `urn:uuid:${r.id}`),
    );
    for (const e of entries) {
      expect(children(e, 'title')).toHaveLength(1);
      expect(children(e, 'updated')[0]!.textContent).toMatch(RFC3339);
      expect(children(e, 'published')[0]!.textContent).toMatch(RFC3339);
      expect(children(children(e, 'author')[0]!, 'name')[0]!.textContent).toBeTruthy();
      expect(children(e, 'content')[0]!.getAttribute('type')).toBe('text');
    }
  });

  it('keeps hostile text as text: escaped markup, forbidden characters dropped', async () => {
    const doc = parseAtom((await http(`${svc.url}/feed.xml`)).text);
    const entry = children(doc.documentElement!, 'entry')[0]!;
    expect(children(entry, 'title')[0]!.textContent).toBe('Title with <tags> & "quotes"');
    const content = children(entry, 'content')[0]!.textContent!;
    expect(content).toContain('</content> & <script>');
    expect(content).not.toContain('\u0001');
  });
});

describe('stable ids', () => {
  it('derives review ids from (source, sourceReviewId), so they survive a rebuild', async () => {
    const again = await startTestService({ business: testBusiness(), reviews: testReviews(10) });
    try {
      const doc = ReviewsDocument.parse((await http(`${again.url}/reviews.json`)).json());
      for (const r of doc.reviews) {
        const same = all.find(
          (x) => x.source === r.source && x.sourceReviewId === r.sourceReviewId,
        );
        expect(same?.id).toBe(r.id);
      }
    } finally {
      await again.stop();
    }
  });
});
