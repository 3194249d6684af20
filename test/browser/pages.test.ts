import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReviewsDocument, SearchResponse } from '../../src/domain/public-schemas.js';
import type { BusinessInput } from '../../src/domain/business.js';
import type { Review, ReviewSourceInput } from '../../src/domain/review.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { hostileReviews } from '../helpers/hostile.js';
import { http } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { axeViolations, launch, screenshots, SCREENSHOTS, type Browser } from './chromium.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The widget snippet of docs/pages.md, as a dealership pastes it, and the frame it sets. */
const { SNIPPET, FRAME } = (() => {
  const doc = readFileSync(join(ROOT, 'docs', 'pages.md'), 'utf8');
  const snippet = /```html\n(<div class="dealer-reviews"[\s\S]*?\n<\/div>)\n```/.exec(doc)?.[1];
  const m = /<iframe src="[^"]*\/embed"[^>]*?width="(\d+)" height="(\d+)"/.exec(snippet ?? '');
  if (!snippet || !m) throw new Error('docs/pages.md has no widget snippet');
  return { SNIPPET: snippet, FRAME: { width: Number(m[1]), height: Number(m[2]) } };
})();

/** The documented snippet pointing at `base` (its link) and framing `target`. */
function snippetFor(base: string, target: string): string {
  return SNIPPET.replaceAll('https://reviews.example.com/embed', target).replaceAll(
    'https://reviews.example.com/',
    `${base}/`,
  );
}

/** A token no line break may split on its own: a long address. */
const TOKEN = `https://www.example.com/${'a-very-long-path-segment-without-any-spaces/'.repeat(4)}`;

/** The newest reviews: long tokens in the title, author, text and reply, and long texts. */
const LONG: ReviewSourceInput[] = [
  {
    source: 'google',
    sourceReviewId: 'long-1',
    reviewRating: { ratingValue: 2 },
    name: `Read this first ${TOKEN}`,
    reviewBody: `${'Waited all day for a simple oil change and nobody called me back. '.repeat(30)}${TOKEN}`,
    author: { name: `Reviewer${'x'.repeat(70)}` },
    datePublished: '2026-01-12T18:00:00.000Z',
    ownerResponse: { text: `Please see ${TOKEN}` },
  },
  {
    source: 'dealerrater',
    sourceReviewId: 'long-2',
    reviewRating: { ratingValue: 5 },
    name: null,
    reviewBody: 'Superlongwordwithoutanyspacesatall'.repeat(12),
    author: { name: 'W'.repeat(120) },
    datePublished: '2026-01-11T18:00:00.000Z',
  },
  {
    source: 'google',
    sourceReviewId: 'long-3',
    reviewRating: { ratingValue: 4 },
    name: 'A long visit, told at length',
    reviewBody:
      'They fixed the brakes and rotated the tires, and the waiting room was fine. '.repeat(12),
    author: { name: 'Maximiliana Fernández-Castellanos de la Vega' },
    datePublished: '2026-01-10T18:00:00.000Z',
  },
];

/** A review its author edited four days later (issue 28), among the newest. */
const EDITED: ReviewSourceInput = {
  ...LONG[2]!,
  sourceReviewId: 'edited-1',
  reviewBody: 'Good service. UPDATE: they called me back about the rattle and fixed it.',
  datePublished: '2026-01-09T18:00:00.000Z',
  dateModified: '2026-01-13T15:30:00.000Z',
};

/** The sample dealership's profile and its 200 newest reviews. */
function sampleData(): { business: BusinessInput; reviews: ReviewSourceInput[] } {
  const sample = JSON.parse(readFileSync(join(ROOT, 'sample', 'dealership.json'), 'utf8')) as {
    business: BusinessInput;
    reviews: ReviewSourceInput[];
  };
  const reviews = [...sample.reviews]
    .sort((a, b) => String(b.datePublished).localeCompare(String(a.datePublished)))
    .slice(0, 200);
  return { business: sample.business, reviews };
}

/** A site on another origin whose page holds the widget's snippet, framing `target()`. */
async function framingSite(target: () => string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A dealer's site</title></head><body><h1>Our reviews</h1>${snippetFor(new URL(target()).origin, target())}</body></html>`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let svc: TestService;
let sample: TestService;
let all: Review[];
let browser: Browser;
let allowed: { server: Server; origin: string };
let stranger: { server: Server; origin: string };
let unreachable: { server: Server; origin: string };
let downOrigin: string;
let framed = '/embed';
let page: Page;
let problems: string[];

beforeAll(async () => {
  allowed = await framingSite(() => `${svc.url}${framed}`);
  stranger = await framingSite(() => `${svc.url}/embed`);
  downOrigin = `http://127.0.0.1:${await closedPort()}`;
  unreachable = await framingSite(() => `${downOrigin}/embed`);
  svc = await startTestService({
    business: testBusiness(),
    reviews: [...testReviews(150), ...hostileReviews(), ...LONG, EDITED],
    env: { EMBED_ALLOWED_ORIGINS: allowed.origin },
  });
  sample = await startTestService(sampleData());
  all = ReviewsDocument.parse((await http(`${svc.url}/reviews.json`)).json()).reviews;
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await sample?.stop();
  allowed?.server.close();
  stranger?.server.close();
  unreachable?.server.close();
});

beforeEach(async () => {
  page = await browser.context.newPage();
  problems = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning')
      problems.push(`console ${m.type()}: ${m.text()}`);
  });
});
afterEach(async () => {
  await page.close();
});

async function searchIds(qs: string): Promise<string[]> {
  const res = await http(`${svc.url}/api/reviews/search?${qs}`);
  return SearchResponse.parse(res.json()).reviews.map((r) => r.id);
}

const shownIds = (p: Page) =>
  p
    .locator('article[data-review-id]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-review-id')));

/** axe-core finds no WCAG 2.1 A or AA violation at a phone's width and at a desktop's. */
async function expectAccessible(p: Page): Promise<void> {
  const size = p.viewportSize();
  for (const width of [375, 1280]) {
    await p.setViewportSize({ width, height: 900 });
    const violations = await axeViolations(p);
    expect(violations, `${width} px: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
  }
  if (size) await p.setViewportSize(size);
}

describe('the pages in a browser', () => {
  it('filters with the form, with the results of the search API', async () => {
    await page.goto(`${svc.url}/`);
    expect((await page.locator('h1').textContent())?.trim()).toBe('Test Motors');
    await expectAccessible(page);
    await screenshots(page, 'home');
    // The filters are folded away until asked for.
    const submit = page.getByRole('button', { name: 'Show reviews' });
    expect(await submit.isVisible()).toBe(false);
    await page.getByText('Search and filter reviews').click();
    expect(await submit.isVisible()).toBe(true);
    await page.getByLabel('Stars', { exact: true }).selectOption('5');
    await page.getByLabel('Words in the review').fill('brake');
    await Promise.all([
      page.waitForURL(/rating=5/),
      page.getByRole('button', { name: 'Show reviews' }).click(),
    ]);
    const url = new URL(page.url());
    expect(url.searchParams.get('rating')).toBe('5');
    expect(url.searchParams.get('query')).toBe('brake');
    // The results open in view, not a screen or two below the form.
    expect(url.hash).toBe('#reviews');
    const top = await page.evaluate(
      `document.getElementById('reviews').getBoundingClientRect().top`,
    );
    expect(top).toBeLessThan(300);
    expect(await shownIds(page)).toEqual(await searchIds('rating=5&query=brake'));
    expect(await page.getByLabel('Words in the review').inputValue()).toBe('brake');
    await expectAccessible(page);
    await screenshots(page, 'home-filtered');
    expect(problems).toEqual([]);
  });

  it('follows a technician link to the reviews that mention them, and opens a permalink', async () => {
    await page.goto(`${svc.url}/`);
    const link = page.locator('a[href^="/?mentions_technician="]').first();
    const name = (await link.textContent())!;
    await Promise.all([page.waitForURL(/mentions_technician=/), link.click()]);
    expect(await page.locator('.chips').textContent()).toContain(`Staff: ${name}`);
    expect(await shownIds(page)).toEqual(
      await searchIds(`mentions_technician=${encodeURIComponent(name)}`),
    );
    const first = page.locator('article[data-review-id]').first();
    const id = await first.getAttribute('data-review-id');
    await Promise.all([page.waitForURL(/\/reviews\//), first.locator('.meta a').click()]);
    expect(new URL(page.url()).pathname).toBe(`/reviews/${id}`);
    expect(await page.locator('h1').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshots(page, 'review');
    expect(problems).toEqual([]);
  });

  it('issue 28: marks an edited review in words, with its edit date, on the list and on its page', async () => {
    const id = all.find((r) => r.sourceReviewId === 'edited-1')!.id;
    await page.goto(`${svc.url}/`);
    const marks = page.locator('article[data-review-id] .edited');
    expect(await marks.count()).toBe(1);
    const card = page.locator(`article[data-review-id="${id}"]`);
    const mark = card.locator('.edited');
    expect(await mark.isVisible()).toBe(true);
    // 15:30 UTC is 9:30 in Chicago, the business's time zone.
    expect(await mark.innerText()).toBe('(edited Jan 13, 2026)');
    const time = mark.locator('time');
    expect(await time.getAttribute('datetime')).toBe('2026-01-13T15:30:00.000Z');
    expect(await time.getAttribute('title')).toBe('Edited on January 13, 2026 at 9:30 AM CST');
    // Discreet: the muted colour of the line it is on, nothing of its own.
    const colours = (await page.evaluate(`(() => {
      const card = document.querySelector('article[data-review-id="${id}"]');
      return [card.querySelector('.meta'), card.querySelector('.edited')].map(
        (el) => getComputedStyle(el).color,
      );
    })()`)) as string[];
    expect(colours[1]).toBe(colours[0]);
    await page.goto(`${svc.url}/reviews/${id}`);
    expect(await page.locator('article .edited').innerText()).toBe('(edited Jan 13, 2026)');
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it('runs none of the markup and script that reviews hold', async () => {
    const hostile = all.filter((r) => r.sourceReviewId.startsWith('hostile-'));
    for (const path of ['/', '/embed', ...hostile.map((r) => `/reviews/${r.id}`)]) {
      await page.goto(`${svc.url}${path}`);
      const state = await page.evaluate(`({
        xss: window.__xss,
        scripts: [...document.querySelectorAll('script')].map((s) => s.type),
        handlers: document.querySelectorAll('[onerror],[onload],[onmouseover]').length,
        frames: document.querySelectorAll('iframe').length,
        javascriptLinks: document.querySelectorAll('a[href^="javascript:"]').length,
      })`);
      expect(state, path).toEqual({
        xss: undefined,
        // The widget's one script tells a framing page it rendered (docs/pages.md).
        scripts: path === '/embed' ? [''] : ['application/ld+json'],
        handlers: 0,
        frames: 0,
        javascriptLinks: 0,
      });
    }
    await page.goto(`${svc.url}/reviews/${hostile[0]!.id}`);
    expect(await page.locator('h1').textContent()).toContain('<img src=x onerror=');
    expect(await page.locator('.reply').textContent()).toContain('<iframe src="javascript:');
    expect(problems).toEqual([]);
  });

  it('shows the insights at a glance', async () => {
    await page.goto(`${svc.url}/insights`);
    expect((await page.locator('h1').textContent())?.trim()).toBe('Insights at a glance');
    expect(await page.locator('svg.bar').count()).toBeGreaterThan(0);
    await expectAccessible(page);
    await screenshots(page, 'insights');
    const quote = page.locator('blockquote a').first();
    await Promise.all([page.waitForURL(/\/reviews\//), quote.click()]);
    expect(await page.locator('article[data-review-id]').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('links each aspect of the insights to its reviews, and filters by what reviews are about (issue 28)', async () => {
    await page.goto(`${svc.url}/insights`);
    const complaints = page.locator('a[href*="polarity=negative"]').first();
    const href = (await complaints.getAttribute('href'))!;
    const aspect = new URL(href, svc.url).searchParams.get('aspect')!;
    await Promise.all([page.waitForURL(/polarity=negative/), complaints.click()]);
    const chips = (await page.locator('.chips').textContent())!;
    expect(chips).toContain('About: ');
    expect(chips).toContain('Said: complaints');
    expect(await shownIds(page)).toEqual(await searchIds(`aspect=${aspect}&polarity=negative`));
    await expectAccessible(page);
    // The form offers the same filters in plain words, and keeps them.
    expect(await page.getByLabel('Said').inputValue()).toBe('negative');
    await page.getByLabel('About').selectOption({ label: 'Wait time' });
    await page.getByLabel('Up to').selectOption({ label: 'Up to 2 stars' });
    await Promise.all([
      page.waitForURL(/max_rating=2/),
      page.getByRole('button', { name: 'Show reviews' }).click(),
    ]);
    expect(await page.locator('.chips').textContent()).toContain('About: wait time');
    expect(await shownIds(page)).toEqual(
      await searchIds('max_rating=2&aspect=wait-time&polarity=negative'),
    );
    await expectAccessible(page);
    await screenshots(page, 'home-about');
    expect(problems).toEqual([]);
  });

  it('shows friendly error pages', async () => {
    const bad = await page.goto(`${svc.url}/?rating=9`);
    expect(bad!.status()).toBe(400);
    expect((await page.locator('h1').textContent())?.trim()).toBe('Some filters could not be used');
    await expectAccessible(page);
    await screenshots(page, 'error-400');
    const missing = await page.goto(`${svc.url}/reviews/00000000-0000-4000-8000-000000000000`);
    expect(missing!.status()).toBe(404);
    expect((await page.locator('h1').textContent())?.trim()).toBe('Review not found');
    await expectAccessible(page);
    await screenshots(page, 'error-404');
    // The 400 and 404 responses themselves are what the browser reports.
    expect(problems.filter((p) => !/status of 40[04]/.test(p))).toEqual([]);
  });
});

/** What of the widget shows in a viewport of its size, measured in the page. */
interface WidgetBox {
  scrollWidth: number;
  scrollHeight: number;
  width: number;
  height: number;
  more: { top: number; bottom: number; right: number };
  listBottom: number;
  items: { bottom: number; right: number }[];
}

const measureWidget = (p: Page): Promise<WidgetBox> =>
  p.evaluate(`(() => {
    const box = (el) => el.getBoundingClientRect();
    const list = document.querySelector('.embed-card ul');
    return {
      scrollWidth: document.documentElement.scrollWidth,
      scrollHeight: document.documentElement.scrollHeight,
      width: innerWidth,
      height: innerHeight,
      more: box(document.querySelector('.embed-card .more')),
      listBottom: box(list).bottom,
      items: [...list.querySelectorAll('li')].map(box),
    };
  })()`);

describe('on a phone', () => {
  it('shows the first reviews on the first screen, and the pager on one row', async () => {
    await page.setViewportSize({ width: 375, height: 900 });
    await page.goto(`${svc.url}/`);
    const layout = (await page.evaluate(`({
      reviews: document.getElementById('reviews').getBoundingClientRect().top,
      pager: [...document.querySelector('nav.pager').children].map((e) => e.getBoundingClientRect()),
    })`)) as { reviews: number; pager: { top: number; bottom: number; right: number }[] };
    expect(layout.reviews).toBeLessThan(900);
    expect(layout.pager).toHaveLength(3);
    const [newer, where, older] = layout.pager;
    // "Page 1 of n" and "Older" side by side, on the row of the (empty) "Newer" place.
    expect(Math.abs(where!.top - older!.top)).toBeLessThan(20);
    expect(where!.bottom).toBeGreaterThan(older!.top);
    expect(newer!.bottom).toBeGreaterThan(where!.top);
    expect(older!.right).toBeLessThanOrEqual(375);
    await page.locator('nav.pager').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'pager-375.png') });
  });
});

describe('long words on a phone', () => {
  it('never make a page wider than a 375 px screen', async () => {
    const long = (id: string) => all.find((r) => r.sourceReviewId === id)!.id;
    await page.setViewportSize({ width: 375, height: 900 });
    const paths = [
      '/',
      `/reviews/${long('long-1')}`,
      `/reviews/${long('long-2')}`,
      `/?query=${'x'.repeat(200)}`,
      `/?mentions_technician=${'Y'.repeat(120)}`,
      '/insights',
      '/?rating=9',
      '/no/such/page',
    ];
    for (const path of paths) {
      await page.goto(`${svc.url}${path}`);
      const width = await page.evaluate('document.documentElement.scrollWidth');
      expect(width, path).toBeLessThanOrEqual(375);
    }
    await page.goto(`${svc.url}/`);
    await page.screenshot({ path: join(SCREENSHOTS, 'home-long-words-375.png') });
    await page.goto(`${svc.url}/reviews/${long('long-1')}`);
    await page.screenshot({ path: join(SCREENSHOTS, 'review-long-words-375.png'), fullPage: true });
  });
});

describe('the widget', () => {
  it.each([
    ['the sample dealership', FRAME.width, () => sample],
    ['the sample dealership', 300, () => sample],
    ['long reviews', FRAME.width, () => svc],
    ['long reviews', 300, () => svc],
  ])(
    'fits its documented frame with %s at %i px wide: no scrolling, "Read all" in view, every review shown whole',
    async (_name, width, service) => {
      await page.setViewportSize({ width, height: FRAME.height });
      await page.goto(`${service().url}/embed`);
      const box = await measureWidget(page);
      expect(box.scrollHeight, JSON.stringify(box)).toBeLessThanOrEqual(box.height);
      expect(box.scrollWidth, JSON.stringify(box)).toBeLessThanOrEqual(box.width);
      expect(box.more.top).toBeGreaterThanOrEqual(0);
      expect(box.more.bottom).toBeLessThanOrEqual(box.height);
      expect(box.more.right).toBeLessThanOrEqual(box.width);
      // The three newest written reviews, none cut off by the frame.
      expect(box.items).toHaveLength(3);
      for (const item of box.items) {
        expect(item.bottom, JSON.stringify(box)).toBeLessThanOrEqual(box.listBottom + 0.5);
        expect(item.right).toBeLessThanOrEqual(box.width);
      }
      await page.screenshot({
        path: join(
          SCREENSHOTS,
          `embed-${service() === sample ? 'sample' : 'long'}-${width}x${FRAME.height}.png`,
        ),
      });
    },
  );

  it('is accessible on its own', async () => {
    await page.setViewportSize(FRAME);
    await page.goto(`${svc.url}/embed`);
    await expectAccessible(page);
    await page.screenshot({ path: join(SCREENSHOTS, `embed-${FRAME.width}.png`) });
    expect(problems).toEqual([]);
  });

  it("shows in a frame on an allowed origin, in place of the snippet's link", async () => {
    framed = '/embed';
    await page.goto(allowed.origin);
    await page.locator('.dealer-reviews iframe').waitFor({ state: 'visible' });
    const frame = page.frameLocator('.dealer-reviews iframe');
    await frame.locator('.embed-card').waitFor();
    expect(await frame.locator('.embed-card h1').textContent()).toContain('Test Motors');
    expect(await frame.locator('.embed-card .embed-score').isVisible()).toBe(true);
    expect(await page.locator('.dealer-reviews > a').isVisible()).toBe(false);
    await screenshots(page, 'embed-framed');
    expect(problems).toEqual([]);
  });

  it.each([
    ["the page's origin is not allowed", () => stranger, () => svc.url],
    ['the service cannot be reached', () => unreachable, () => downOrigin],
  ])('degrades to a plain link when %s', async (_case, site, linkOrigin) => {
    await page.goto(site().origin);
    await page.waitForLoadState('load');
    // The frame's document has loaded (an error page); give a message from it time to arrive.
    await page.waitForTimeout(500);
    const link = page.locator('.dealer-reviews > a');
    expect(await link.isVisible()).toBe(true);
    expect(await link.getAttribute('href')).toBe(`${linkOrigin()}/`);
    expect(await page.locator('.dealer-reviews iframe').isVisible()).toBe(false);
    await screenshots(page, `embed-fallback-${site() === stranger ? 'refused' : 'down'}`);
  });

  it('is refused in a frame on another origin, and no other page may be framed', async () => {
    for (const [site, path] of [
      [stranger, '/embed'],
      [allowed, '/'],
      [allowed, '/insights'],
    ] as const) {
      framed = path;
      await page.goto(site.origin);
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      await page.waitForLoadState('load');
      expect(frame.url(), `${site.origin} framing ${path}`).not.toBe(`${svc.url}${path}`);
      expect(await frame.locator('main').count(), `${site.origin} framing ${path}`).toBe(0);
    }
    expect(problems.some((p) => p.includes('frame-ancestors'))).toBe(true);
  });
});
