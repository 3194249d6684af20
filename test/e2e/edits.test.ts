import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewId } from '../../src/domain/ids.js';
import { testBusiness } from '../helpers/fixtures.js';
import { jsonLdBlocks } from '../helpers/hostile.js';
import { http } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { runCli } from '../import/helpers.js';

/**
 * Issue 28: edits are visible. A CSV export (no modification column: an edit is dated by the
 * import) and a Google API page (its `updateTime`) are imported with the command line, then a
 * changed CSV export again; the feeds and pages are read over HTTP after each import.
 */

const ATOM_NS = 'http://www.w3.org/2005/Atom';
const HEADER = 'id,rating,date,author,text,response,source';
const ROWS = {
  edited: (text: string) => `r-1,4,2025-05-01T10:00:00Z,Ana,"${text}",,google`,
  replied: (reply: string) => `r-2,5,2025-05-02T10:00:00Z,Bo,Fine,"${reply}",google`,
  untouched: 'r-3,3,2025-05-03T10:00:00Z,Cy,"Slow, but done right",,google',
};
const ID = {
  edited: reviewId('google', 'r-1'),
  replied: reviewId('google', 'r-2'),
  untouched: reviewId('google', 'r-3'),
  // The Google review whose updateTime is three days after its createTime.
  google: reviewId('google', 'ChZDSUhNMG9nS0VJQ0FnSURPd2RfdUh3EAE'),
  googleUnedited: reviewId('google', 'ChdDSUhNMG9nS0VJQ0FnSUR1aFAtb0dREAE'),
};

let svc: TestService;
let csv: string;
let editStarted: string;
let editFinished: string;

const db = () => svc.databaseUrl.slice('sqlite:'.length);

/**
 * Publishing an import takes a build and the import a process of its own: seconds, or a minute on
 * a machine the other suites load.
 */
async function importFile(file: string): Promise<void> {
  const before = (await http(`${svc.url}/reviews.json`)).headers.etag;
  const run = await runCli([file, '--json'], db());
  expect(run.code, run.stderr).toBe(0);
  // The service publishes what another process committed within DATA_POLL_MS.
  const started = Date.now();
  while ((await http(`${svc.url}/reviews.json`)).headers.etag === before) {
    if (Date.now() - started > 60_000) throw new Error('the import was not published');
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface FeedItem {
  id: string;
  date_published: string;
  date_modified?: string;
  content_html: string;
}

async function jsonFeedItems(): Promise<Map<string, FeedItem>> {
  const feed = (await http(`${svc.url}/api/feed.json`)).json<{ items: FeedItem[] }>();
  return new Map(feed.items.map((i) => [i.id.slice('urn:uuid:'.length), i]));
}

async function atomFeed(): Promise<{
  updated: string;
  entries: Map<string, { updated: string; published: string; content: string }>;
}> {
  const doc = new DOMParser().parseFromString((await http(`${svc.url}/feed.xml`)).text, 'text/xml');
  const text = (e: Element, name: string) =>
    e.getElementsByTagNameNS(ATOM_NS, name)[0]!.textContent!;
  const entries = new Map<string, { updated: string; published: string; content: string }>();
  for (const e of Array.from(doc.getElementsByTagNameNS(ATOM_NS, 'entry'))) {
    entries.set(text(e, 'id').slice('urn:uuid:'.length), {
      updated: text(e, 'updated'),
      published: text(e, 'published'),
      content: text(e, 'content'),
    });
  }
  const feedUpdated = Array.from(doc.documentElement!.childNodes).find(
    (n): n is Element => (n as Element).localName === 'updated',
  )!.textContent!;
  return { updated: feedUpdated, entries };
}

beforeAll(async () => {
  svc = await startTestService({ business: testBusiness(), reviews: [] });
  csv = join(svc.dir, 'export.csv');
  writeFileSync(
    csv,
    [HEADER, ROWS.edited('Good'), ROWS.replied(''), ROWS.untouched, ''].join('\n'),
  );
  await importFile(csv);
  await importFile(join(import.meta.dirname, '..', 'fixtures', 'gbp-api-page.json'));
}, 180_000);
afterAll(() => svc?.stop());

describe('issue 28: edits in the feeds', () => {
  it('gives JSON Feed date_modified only to edited reviews, and Atom updated = the edit time, else the publication', async () => {
    const items = await jsonFeedItems();
    expect(items.size).toBe(5);
    for (const id of [ID.edited, ID.replied, ID.untouched, ID.googleUnedited]) {
      expect(items.get(id)).not.toHaveProperty('date_modified');
    }
    expect(items.get(ID.google)?.date_modified).toBe('2024-04-05T09:00:00.000Z');
    const atom = await atomFeed();
    for (const [id, e] of atom.entries) {
      expect(e.updated, id).toBe(id === ID.google ? '2024-04-05T09:00:00.000Z' : e.published);
    }
    expect(atom.updated).toBe('2025-05-03T10:00:00.000Z');
  });

  it('carries the edit of a second import of the changed export, dated by that import; a new reply alone is no edit', async () => {
    editStarted = new Date().toISOString();
    writeFileSync(
      csv,
      [
        HEADER,
        ROWS.edited('Good. UPDATE: they called me back and fixed it'),
        ROWS.replied('Thank you, Bo!'),
        ROWS.untouched,
        '',
      ].join('\n'),
    );
    await importFile(csv);
    editFinished = new Date().toISOString();

    const items = await jsonFeedItems();
    const edited = items.get(ID.edited)!;
    expect(edited.date_modified! >= editStarted && edited.date_modified! <= editFinished).toBe(
      true,
    );
    expect(edited.content_html).toContain('UPDATE: they called me back');
    expect(items.get(ID.replied)).not.toHaveProperty('date_modified');
    expect(items.get(ID.replied)!.content_html).toContain('Thank you, Bo!');
    expect(items.get(ID.untouched)).not.toHaveProperty('date_modified');

    const atom = await atomFeed();
    expect(atom.entries.get(ID.edited)!.updated).toBe(edited.date_modified);
    expect(atom.entries.get(ID.edited)!.content).toContain('UPDATE: they called me back');
    const replied = atom.entries.get(ID.replied)!;
    expect(replied.updated).toBe(replied.published);
    expect(replied.content).toContain('Thank you, Bo!');
    // The feed's own updated: its newest entry's.
    expect(atom.updated).toBe(edited.date_modified);
    // The order is the published order, whatever the edits.
    expect([...items.keys()]).toEqual([
      ID.untouched,
      ID.replied,
      ID.edited,
      ID.googleUnedited,
      ID.google,
    ]);
  }, 120_000);
});

describe('issue 28: edits on the pages', () => {
  const mark =
    /<span class="edited">\(edited <time datetime="([^"]+)" title="Edited on ([^"]+)">([^<]+)<\/time>\)<\/span>/;

  it('marks an edited review in the list with the local date of its edit, and no other', async () => {
    const res = await http(`${svc.url}/`);
    expect(res.status).toBe(200);
    const cards = new Map(
      [
        ...res.text.matchAll(
          /<article class="card review" id="review-([^"]+)"[\s\S]*?<\/article>/g,
        ),
      ].map((m) => [m[1]!, m[0]]),
    );
    expect(cards.size).toBe(5);
    const [, datetime, title, shown] = mark.exec(cards.get(ID.google)!)!;
    expect(datetime).toBe('2024-04-05T09:00:00.000Z');
    // 09:00 UTC is 4 AM in Chicago (daylight time), still 5 April.
    expect(title).toBe('April 5, 2024 at 4:00 AM CDT');
    expect(shown).toBe('Apr 5, 2024');
    expect(mark.exec(cards.get(ID.edited)!)?.[1]).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const id of [ID.replied, ID.untouched, ID.googleUnedited]) {
      expect(cards.get(id)).not.toContain('edited');
    }
  });

  it('marks the review page, and gives its JSON-LD the dateModified of the edit', async () => {
    const edited = await http(`${svc.url}/reviews/${ID.edited}`);
    const m = mark.exec(edited.text)!;
    expect(m[1]! >= editStarted && m[1]! <= editFinished).toBe(true);
    const [ld] = jsonLdBlocks(edited.text);
    expect(ld).toMatchObject({
      '@type': 'Review',
      datePublished: '2025-05-01',
      dateModified: m[1],
    });

    const replied = await http(`${svc.url}/reviews/${ID.replied}`);
    expect(replied.text).not.toMatch(mark);
    expect(jsonLdBlocks(replied.text)[0]).not.toHaveProperty('dateModified');
    // The list's JSON-LD says the same.
    const home = jsonLdBlocks((await http(`${svc.url}/`)).text)[0] as {
      review: { url: string; dateModified?: string }[];
    };
    const ldOf = (id: string) => home.review.find((r) => r.url.endsWith(id));
    expect(ldOf(ID.edited)?.dateModified).toBe(m[1]);
    expect(ldOf(ID.google)?.dateModified).toBe('2024-04-05T09:00:00.000Z');
    expect(ldOf(ID.replied)).not.toHaveProperty('dateModified');
  });
});
