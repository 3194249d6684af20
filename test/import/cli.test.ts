import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, localDate } from '../../src/domain/dates.js';
import { fixture, importJson, importJsonCli, readPublished, runCli, tempDir } from './helpers.js';

let dir: string;
let db: string;
let cleanup: () => void;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'reviews.db');
});
afterEach(() => cleanup());

function noStack(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('npm run import: formats', () => {
  it('imports a Google Takeout directory with a translation envelope and a rating-only review', async () => {
    // As an operator runs it: the built command, its --json summary on stdout.
    const { result, summary } = await importJsonCli([fixture('takeout')], db);
    expect(result.code).toBe(0);
    expect(summary).toMatchObject({ format: 'gbp', inserted: 5, rejected: [], committed: true });
    const { reviews } = await readPublished(db);
    const translated = reviews.get('AbFvOqkQz9y8x7w6v5u4t3s2r1qPONMLKjihgfed')!;
    expect(translated.reviewRating.ratingValue).toBe(4);
    expect(translated.reviewBody).toMatch(/^Muy buen servicio/);
    expect(translated.reviewBodyTranslated).toMatch(/^Very good service/);
    expect(translated.inLanguage).toBe('es');
    const ratingOnly = reviews.get('AbFvOqnRatingOnly000000000000000000000001')!;
    expect(ratingOnly.reviewBody).toBeNull();
    expect(ratingOnly.author.name).toBe('A Google user');
    const replied = reviews.get('AbFvOqmT1a2b3c4d5e6f7g8h9i0jKLMNOPqrstuv')!;
    expect(replied.ownerResponse).toEqual({
      text: "Thank you Rebecca! We'll let Mike and Carlos know.",
      dateModified: '2024-03-04T14:02:51.000Z',
    });
    expect(replied.datePublished).toBe('2024-03-02T16:41:07.123Z');
    const edited = reviews.get('AbFvOqpEdited000000000000000000000000002')!;
    expect(edited.dateModified).toBe('2024-01-03T10:12:00.000Z');
  });

  it('imports a GBP API page, taking the id from `name` and reporting averageRating apart', async () => {
    const { summary } = await importJson([fixture('gbp-api-page.json')], db);
    expect(summary).toMatchObject({ format: 'gbp', inserted: 2 });
    expect(summary.reported).toEqual({ google: { averageRating: 4.6, totalReviewCount: 212 } });
    const { reviews } = await readPublished(db);
    expect([...reviews.keys()].sort()).toEqual([
      'ChZDSUhNMG9nS0VJQ0FnSURPd2RfdUh3EAE',
      'ChdDSUhNMG9nS0VJQ0FnSUR1aFAtb0dREAE',
    ]);
  });

  it('imports DealerRater JSON: tagged employees first, free-text names, text matches, dealer reply', async () => {
    await importJson([fixture('business.json')], db);
    const { summary } = await importJson([fixture('dealerrater.json')], db);
    expect(summary).toMatchObject({ format: 'dealerrater', inserted: 3, rejected: [] });
    const { reviews } = await readPublished(db);
    const sale = reviews.get('8800001')!;
    expect(sale.department).toBe('sales-used');
    expect(sale.recommendsDealer).toBe(true);
    expect(sale.mentions.technicians).toEqual([
      { name: 'Brandon Hale', role: 'sales', via: 'tagged', rating: 5 },
      { name: 'Dana Whitfield', role: 'finance', via: 'tagged', rating: 5 },
      { name: 'Freddy', role: null, via: 'free-text', rating: null },
    ]);
    expect(sale.ownerResponse?.text).toBe('Thanks for choosing Lakeside, enjoy the Silverado!');
    const service = reviews.get('8800002')!;
    expect(service.reviewRating.ratingValue).toBe(5); // 4.5 rounds half up
    expect(service.subRatings).toMatchObject({ pricing: 3, overallExperience: 5, quality: 5 });
    expect(service.mentions.technicians.map((t) => [t.name, t.via])).toEqual([
      ['Carlos Mendoza', 'tagged'],
      ['Mike Torres', 'text-match'],
    ]);
    expect(service.mentions.services).toEqual(['brakes']);
    const lease = reviews.get('8800003')!;
    expect(lease.department).toBe('lease');
    expect(lease.ownerResponse).toBeNull(); // a consumer follow-up is not a dealer reply
  });

  it('imports a messy CSV: BOM, aliases, RFC 4180 quoting, CRLF, an id-less row, local dates', async () => {
    await importJson([fixture('business.json')], db);
    const { summary } = await importJson([fixture('reputation-export.csv')], db);
    expect(summary).toMatchObject({ format: 'csv', inserted: 4, rejected: [] });
    expect(summary.warnings).toContain('ignored CSV columns: Location');
    const { reviews } = await readPublished(db);
    const fb = reviews.get('fb-1001')!;
    expect(fb.source).toBe('facebook');
    expect(fb.reviewRating.ratingValue).toBe(4);
    expect(fb.reviewBody).toBe(
      'They said "30 minutes" and it was 45,\nbut the oil change was done right.',
    );
    // 2:05 PM in America/Chicago (CDT, UTC-5) on 2024-03-14.
    expect(fb.datePublished).toBe('2024-03-14T19:05:00.000Z');
    expect(fb.ownerResponse?.text).toBe("Thanks Lena, we're working on wait times.");
    const yelp = reviews.get('yelp-9a8b7c')!;
    expect(yelp.datePublished).toBe('2024-03-05T20:30:00.000Z'); // 14:30 CST
    expect(yelp.mentions.technicians.map((t) => t.name)).toEqual(['Frank Ortiz']);
    const idless = [...reviews.values()].find((r) => r.author.name === 'Chris P')!;
    expect(idless.source).toBe('google');
    expect(idless.sourceReviewId).toMatch(/^csv-[0-9a-f]{32}$/);
    expect(idless.reviewRating.ratingValue).toBe(5);
    expect(reviews.get('edmunds:ed-555')?.source).toBe('other');
    // The id-less row gets the same id on a second import.
    const again = await importJson([fixture('reputation-export.csv')], db);
    expect(again.summary).toMatchObject({ inserted: 0, unchanged: 4 });
  });

  it('imports the sample format and a /reviews.json, so one deployment can seed another', async () => {
    await importJson([fixture('business.json')], db);
    await importJson([fixture('dealerrater.json')], db);
    await importJson([fixture('takeout')], db);
    const first = await readPublished(db);
    // As GET /reviews.json serves it: staff by name and role only (no ids, no aliases).
    const business = first.business as { staff: { name: string; role: string }[] };
    const published = {
      business: { ...business, staff: business.staff.map(({ name, role }) => ({ name, role })) },
      aggregateRating: { ratingCount: first.reviews.size },
      reviews: [...first.reviews.values()],
    };
    const file = join(dir, 'reviews.json');
    writeFileSync(file, JSON.stringify(published));
    const other = join(dir, 'other.db');
    const { summary } = await importJsonCli([file], other);
    expect(summary).toMatchObject({ format: 'reviews-json', inserted: 8, businessChanged: true });
    const second = await readPublished(other);
    expect(second.business).toEqual(first.business); // staff ids come back from the names
    for (const [id, review] of first.reviews) expect(second.reviews.get(id)).toEqual(review);

    const sample = join(dir, 'sample.json');
    const sampleDoc = {
      business: first.business,
      reviews: [
        {
          source: 'first-party',
          sourceReviewId: 's-1',
          reviewRating: { ratingValue: 5 },
          reviewBody: 'Mike did my oil change.',
          author: { name: 'Sample Author' },
          datePublished: '2024-06-01T15:00:00Z',
        },
      ],
    };
    writeFileSync(sample, JSON.stringify(sampleDoc));
    const s = await importJson([sample], other);
    expect(s.summary).toMatchObject({
      format: 'reviews-json',
      inserted: 1,
      businessChanged: false,
    });
    const mentions = (await readPublished(other)).reviews.get('s-1')!.mentions;
    expect(mentions).toEqual({
      technicians: [{ name: 'Mike Torres', role: 'technician', via: 'text-match', rating: null }],
      services: ['oil-change'],
    });
  });
});

describe('npm run import: bad input', () => {
  it('fails in one line when the store cannot be opened (issue 15: it hung)', async () => {
    for (const store of ['/proc/nope/x.db', join(dir, 'broken-link', 'x.db')]) {
      symlinkSync(join(dir, 'nothing-here'), join(dir, 'broken-link'), 'dir');
      const result = await runCli([fixture('business.json'), '--json'], store);
      rmSync(join(dir, 'broken-link'));
      expect(result.code, store).toBe(1);
      expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(/^import: cannot open the store DATABASE_URL=sqlite:/);
      noStack(result.stderr);
      expect(JSON.parse(result.stdout)).toEqual({ error: expect.stringMatching(/^cannot open/) });
    }
  });

  it('skips malformed rows with row, field and reason, imports the rest and exits 0', async () => {
    const { result, summary } = await importJson([fixture('gbp-malformed.json')], db);
    expect(result.code).toBe(0);
    expect(summary.inserted).toBe(2);
    expect(summary.rejected.map(({ row, field, reason }) => ({ row, field, reason }))).toEqual([
      {
        row: 2,
        field: 'starRating',
        reason: 'must be one of ONE, TWO, THREE, FOUR, FIVE, got "SIX"',
      },
      { row: 3, field: 'starRating', reason: 'rating is unspecified' },
      { row: 4, field: 'starRating', reason: 'missing rating' },
      { row: 5, field: 'createTime', reason: '"2024-02-30T10:00:00Z" is not a real calendar date' },
      { row: 6, field: 'reviewId', reason: 'duplicate of row 1 (the first is imported)' },
    ]);
    const { reviews } = await readPublished(db);
    expect(reviews.get('ok-1')?.author.name).toBe('Valid One'); // the first duplicate wins
  });

  it('rejects the rows holding invalid UTF-8 and imports the others', async () => {
    const { result, summary } = await importJson([fixture('invalid-utf8.csv')], db);
    expect(result.code).toBe(0);
    expect(summary.inserted).toBe(2);
    expect(summary.rejected).toEqual([
      {
        row: 2,
        line: 3,
        field: 'author',
        reason: 'holds bytes that are not valid UTF-8 (save the export as UTF-8)',
      },
    ]);
    expect(summary.warnings.join('\n')).toMatch(/not valid UTF-8 on 1 line/);
  });

  it('issue 15 (fuzz): invalid UTF-8 nested 20,000 deep rejects its row, naming a short path', async () => {
    // The search for the bad string recursed through the nesting: 'unexpected error: Maximum
    // call stack size exceeded', exit 1, with or without --strict.
    const file = join(dir, 'deep-utf8.json');
    const review = (id: string, extra: string) =>
      `{"reviewId":"${id}","reviewer":{"displayName":"Deep Nester"},"starRating":"FIVE","comment":"Fine.","createTime":"2024-04-18T20:11:02.781Z"${extra}}`;
    const depth = 20_000;
    const deep = `,"notes":${'['.repeat(depth)}"bad \xff byte"${']'.repeat(depth)}`;
    const text = `{"reviews":[${review('deep-1', deep)},${review('deep-2', '')}]}`;
    writeFileSync(file, Buffer.from(text, 'latin1'));
    const { result, summary } = await importJson([file], db);
    expect(result.code, result.stderr).toBe(0);
    expect(summary.inserted).toBe(1);
    expect(summary.rejected).toEqual([
      {
        row: 1,
        line: 1,
        field: 'notes.0.0.0.0.0.0.0.…',
        reason: 'holds bytes that are not valid UTF-8 (save the export as UTF-8)',
      },
    ]);
    const strict = await runCli([file, '--json', '--strict'], db);
    expect(strict.code).toBe(1);
    expect(strict.stderr).not.toMatch(/unexpected error/);
  });

  it('rejects a review whose text is 1 MB (the limit is 20,000 characters)', async () => {
    const file = join(dir, 'big.json');
    const item = (id: string, comment: string): object => ({
      reviewId: id,
      reviewer: { displayName: 'Long Writer' },
      starRating: 'FIVE',
      comment,
      createTime: '2024-05-01T15:00:00Z',
    });
    writeFileSync(
      file,
      JSON.stringify({ reviews: [item('big', 'x'.repeat(1 << 20)), item('small', 'ok')] }),
    );
    const { result, summary } = await importJson([file], db);
    expect(result.code).toBe(0);
    expect(summary.inserted).toBe(1);
    expect(summary.rejected).toHaveLength(1);
    expect(summary.rejected[0]).toMatchObject({ row: 1, field: 'comment' });
    expect(summary.rejected[0]!.reason).toMatch(/at most 20000 characters \(got 1,048,576\)/);
  });

  it.each([
    ['an empty file', '', /is empty: nothing to import/],
    ['a file of blank lines', '\n \r\n', /is empty: nothing to import/],
    ['an unrecognised JSON file', '{ "items": [] }', /unrecognised file/],
    ['truncated JSON', '{ "reviews": [ { "reviewId": "a"', /not valid JSON/],
    [
      'a CSV without a rating column',
      'id,date,author\n1,2024-01-01,A\n',
      /lacks required columns: rating/,
    ],
  ])('exits 1 with one clear line and no stack trace for %s', async (_name, content, message) => {
    const file = join(dir, _name.includes('CSV') ? 'input.csv' : 'input.json');
    writeFileSync(file, content);
    const result = await runCli([file], db);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    noStack(result.stderr);
  });

  it('exits 1 for a missing file, printing {"error"} with --json', async () => {
    const result = await runCli([join(dir, 'nope.json'), '--json'], db);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: `cannot read ${join(dir, 'nope.json')}: no such file or directory`,
    });
    noStack(result.stderr);
  });

  it.each([
    ['a device that never ends (/dev/zero)', () => '/dev/zero'],
    [
      'a named pipe (reading it would wait for a writer)',
      () => {
        const fifo = join(dir, 'export.csv');
        expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
        return fifo;
      },
    ],
  ])('refuses %s in one line, before reading it', async (_name, path) => {
    const file = path();
    const result = await runCli([file, '--json'], db);
    expect(result.signal, 'it hung').toBeNull();
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: `${file} is not a regular file (a device, a named pipe or a socket): save the export to a file first`,
    });
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a file over 512 MiB in one line, before reading it', async () => {
    const file = join(dir, 'huge.csv');
    writeFileSync(file, '');
    truncateSync(file, 513 * 1024 * 1024); // sparse: no disk is used
    const result = await runCli([file, '--json'], db);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: `${file} is 513 MiB, over the 512 MiB an import reads: split the export`,
    });
  });

  it('exits 2 on a bad command line', async () => {
    const result = await runCli([fixture('business.json'), '--format', 'xml'], db);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--format must be one of gbp, dealerrater, csv, reviews-json, business/,
    );
  });
});

describe('npm run import --dry-run, every format (issue 15)', () => {
  /** A business profile that differs from the stored one: renamed, and Mike Torres has left. */
  function changedBusiness(): string {
    const business = JSON.parse(readFileSync(fixture('business.json'), 'utf8')) as {
      name: string;
      staff: { id: string }[];
    };
    business.name = 'Lakeside Motors of Austin';
    business.staff = business.staff.filter((s) => s.id !== 'mike-torres');
    const file = join(dir, 'changed-business.json');
    writeFileSync(file, JSON.stringify(business));
    return file;
  }

  /** This service's /reviews.json shape carrying the changed profile and one new review. */
  function reviewsJson(): string {
    const file = join(dir, 'reviews.json');
    const review = {
      source: 'first-party',
      sourceReviewId: 'dry-1',
      reviewRating: { ratingValue: 4 },
      author: { name: 'Dry Runner' },
      datePublished: '2024-06-01T15:00:00Z',
    };
    writeFileSync(
      file,
      JSON.stringify({
        business: JSON.parse(readFileSync(changedBusiness(), 'utf8')) as unknown,
        reviews: [review],
      }),
    );
    return file;
  }

  /** A Takeout file holding three of the five stored Google reviews (for --prune). */
  function takeoutSubset(): string {
    const file = join(dir, 'subset.json');
    const doc = JSON.parse(readFileSync(fixture('takeout/location-1/reviews.json'), 'utf8')) as {
      reviews: unknown[];
    };
    doc.reviews = doc.reviews.slice(0, 3);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }

  it.each([
    ['a business profile', changedBusiness, [], { businessChanged: true, rederived: 1 }],
    ['a Google Takeout directory', () => fixture('takeout'), [], { unchanged: 5 }],
    ['a Google file with --prune', takeoutSubset, ['--prune'], { unchanged: 3, pruned: 2 }],
    ['a GBP API page', () => fixture('gbp-api-page.json'), [], { inserted: 2 }],
    ['DealerRater JSON', () => fixture('dealerrater.json'), [], { inserted: 3 }],
    ['a CSV export', () => fixture('reputation-export.csv'), [], { inserted: 4 }],
    ['a reviews.json', reviewsJson, [], { inserted: 1, businessChanged: true, rederived: 1 }],
  ] as const)(
    'reports what %s would change and writes nothing',
    async (_name, file, options, counts) => {
      await importJson([fixture('business.json')], db);
      await importJson([fixture('takeout')], db);
      const before = await readPublished(db);
      const { result, summary } = await importJson([file(), ...options, '--dry-run'], db);
      expect(result.code, result.stderr).toBe(0);
      expect(summary).toMatchObject({
        inserted: 0,
        updated: 0,
        unchanged: 0,
        pruned: 0,
        rederived: 0,
        businessChanged: false,
        ...counts,
        rejected: [],
        committed: false,
        dryRun: true,
        version: null,
      });
      const after = await readPublished(db);
      expect(after.version).toBe(before.version);
      expect(after.business).toEqual(before.business);
      expect(after.reviews).toEqual(before.reviews);
    },
  );

  it('says nothing was written in the table it prints, and lists the rejected rows', async () => {
    await importJson([fixture('business.json')], db);
    const before = await readPublished(db);
    const result = await runCli([fixture('gbp-malformed.json'), '--dry-run'], db);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`Dry run of ${fixture('gbp-malformed.json')} (gbp): nothing was written`);
    expect(result.stdout).toMatch(/inserted +2\n/);
    expect(result.stdout).toMatch(/Rejected rows \(5\):/);
    expect(result.stdout).not.toMatch(/data version/);
    expect((await readPublished(db)).version).toBe(before.version);
  });
});

describe('npm run import: implausible dates (issue 15)', () => {
  /** Today in `timeZone` as the test sees it; the import's clock may be a moment later. */
  const today = (timeZone: string): string => localDate(new Date().toISOString(), timeZone);

  function writeCsv(rows: [id: string, date: string, response?: string][]): string {
    const file = join(dir, 'dates.csv');
    const lines = rows.map(([id, date, response = '']) =>
      [id, '5', date, `Author ${id}`, 'Fine.', response ? 'Thanks' : '', response].join(','),
    );
    writeFileSync(file, ['id,rating,date,author,text,response,response_date', ...lines].join('\n'));
    return file;
  }

  it('rejects dates after tomorrow in the business time zone or before 1995, per row, with a reason', async () => {
    await importJson([fixture('business.json')], db);
    const day = today('America/Chicago');
    const file = writeCsv([
      ['today', day],
      ['tomorrow', addDays(day, 1)],
      ['placeholder', '9999-12-31'],
      ['in-3-days', addDays(day, 3)],
      ['epoch', '1970-01-01'],
      ['late-reply', '2024-05-01', addDays(day, 3)],
    ]);
    const { result, summary } = await importJson([file, '--source', 'google'], db);
    expect(result.code).toBe(0);
    expect(summary.inserted).toBe(2);
    const future =
      /^\d{4}-\d{2}-\d{2} is after tomorrow \(\d{4}-\d{2}-\d{2} in America\/Chicago\): a review cannot be dated in the future$/;
    expect(summary.rejected).toEqual([
      { row: 3, line: 4, field: 'date', reason: expect.stringMatching(future) },
      { row: 4, line: 5, field: 'date', reason: expect.stringMatching(future) },
      {
        row: 5,
        line: 6,
        field: 'date',
        reason: '1970-01-01 is before 1995-01-01, the earliest date a review may carry',
      },
      { row: 6, line: 7, field: 'response_date', reason: expect.stringMatching(future) },
    ]);
    expect(summary.rejected[0]!.reason).toMatch(/^9999-12-31 is after tomorrow/);
    const { reviews } = await readPublished(db);
    expect([...reviews.keys()].sort()).toEqual(['today', 'tomorrow']);
  });

  it('reads years before 100 as they are written (not as 19xx), and rejects them as before 1995', async () => {
    await importJson([fixture('business.json')], db);
    const file = writeCsv([
      ['y99', '0099-06-01'],
      ['us99', '6/1/0099'],
      ['y1', '0001-01-01'],
      ['reply97', '2024-05-01', '0097-01-01'],
    ]);
    const { summary } = await importJson([file, '--source', 'google'], db);
    expect(summary.inserted).toBe(0);
    const before = (day: string) =>
      `${day} is before 1995-01-01, the earliest date a review may carry`;
    expect(summary.rejected).toEqual([
      { row: 1, line: 2, field: 'date', reason: before('0099-06-01') },
      { row: 2, line: 3, field: 'date', reason: before('0099-06-01') },
      { row: 3, line: 4, field: 'date', reason: before('0001-01-01') },
      { row: 4, line: 5, field: 'response_date', reason: before('0097-01-01') },
    ]);
  });

  it('reads tomorrow in UTC before a business profile sets the time zone', async () => {
    const file = writeCsv([
      ['ok', '2024-05-01'],
      ['placeholder', '9999-12-31'],
    ]);
    const { summary } = await importJson([file, '--source', 'google'], db);
    expect(summary.inserted).toBe(1);
    expect(summary.rejected).toEqual([
      {
        row: 2,
        line: 3,
        field: 'date',
        reason: expect.stringMatching(/^9999-12-31 is after tomorrow \(\d{4}-\d{2}-\d{2} in UTC\)/),
      },
    ]);
  });

  it('--strict refuses the whole file for one implausible date, writing nothing', async () => {
    await importJson([fixture('takeout')], db);
    const before = await readPublished(db);
    const file = writeCsv([
      ['ok', '2024-05-01'],
      ['placeholder', '9999-12-31'],
    ]);
    const { result, summary } = await importJson([file, '--source', 'google', '--strict'], db);
    expect(result.code).toBe(1);
    expect(summary).toMatchObject({ committed: false, inserted: 0, version: null });
    expect(summary.rejected.map((r) => r.field)).toEqual(['date']);
    expect(result.stderr).toMatch(/--strict: 1 rejected row\(s\); nothing was imported/);
    const after = await readPublished(db);
    expect(after.version).toBe(before.version);
    expect(after.reviews).toEqual(before.reviews);
  });
});

describe('npm run import: idempotency, edits, --strict, --prune', () => {
  it('changes nothing when the same file is imported twice: all unchanged, version not bumped', async () => {
    const first = await importJson([fixture('takeout')], db);
    expect(first.summary.version).toBe(1);
    const before = await readPublished(db);
    const second = await importJsonCli([fixture('takeout')], db);
    expect(second.summary).toMatchObject({ inserted: 0, updated: 0, unchanged: 5, version: null });
    const after = await readPublished(db);
    expect(after.version).toBe(before.version);
    expect(after.reviews).toEqual(before.reviews);
  });

  it('updates an edited review in place and moves its dateModified', async () => {
    const src = join(dir, 'reviews.csv');
    const csv = (text: string): string =>
      `id,rating,date,author,text,source\nr-1,4,2024-05-01T10:00:00Z,Ana,"${text}",google\nr-2,5,2024-05-02T10:00:00Z,Bo,Fine,google\n`;
    writeFileSync(src, csv('Good'));
    await importJson([src], db);
    const before = (await readPublished(db)).reviews.get('r-1')!;
    expect(before.dateModified).toBe('2024-05-01T10:00:00.000Z');
    writeFileSync(src, csv('Good, and they called me back'));
    const { summary } = await importJson([src], db);
    expect(summary).toMatchObject({ inserted: 0, updated: 1, unchanged: 1 });
    const after = (await readPublished(db)).reviews.get('r-1')!;
    expect(after.id).toBe(before.id);
    expect(after.reviewBody).toBe('Good, and they called me back');
    expect(after.dateModified > before.dateModified).toBe(true);
  });

  it('takes the source updateTime as dateModified when a Google review is edited', async () => {
    const file = join(dir, 'g.json');
    const doc = JSON.parse(readFileSync(fixture('gbp-api-page.json'), 'utf8')) as {
      reviews: { comment: string; updateTime: string }[];
    };
    writeFileSync(file, JSON.stringify(doc));
    await importJson([file], db);
    doc.reviews[1]!.comment = 'Update: they fixed it.';
    doc.reviews[1]!.updateTime = '2024-06-01T12:00:00Z';
    writeFileSync(file, JSON.stringify(doc));
    const { summary } = await importJson([file], db);
    expect(summary).toMatchObject({ updated: 1, unchanged: 1 });
    const edited = (await readPublished(db)).reviews.get('ChZDSUhNMG9nS0VJQ0FnSURPd2RfdUh3EAE')!;
    expect(edited.dateModified).toBe('2024-06-01T12:00:00.000Z');
  });

  it('--strict imports nothing and exits 1 when any row is bad', async () => {
    await importJson([fixture('takeout')], db);
    const before = await readPublished(db);
    const { result, summary } = await importJson([fixture('gbp-malformed.json'), '--strict'], db);
    expect(result.code).toBe(1);
    expect(summary).toMatchObject({ committed: false, inserted: 0, version: null });
    expect(summary.rejected).toHaveLength(5);
    expect(result.stderr).toMatch(/--strict: 5 rejected row\(s\); nothing was imported/);
    const after = await readPublished(db);
    expect(after.version).toBe(before.version);
    expect([...after.reviews.keys()].sort()).toEqual([...before.reviews.keys()].sort());
  });

  it('--strict imports a clean file', async () => {
    const { result, summary } = await importJson([fixture('takeout'), '--strict'], db);
    expect(result.code).toBe(0);
    expect(summary).toMatchObject({ inserted: 5, committed: true });
  });

  it('--dry-run counts but writes nothing', async () => {
    const { summary } = await importJson([fixture('takeout'), '--dry-run'], db);
    expect(summary).toMatchObject({ inserted: 5, committed: false, dryRun: true, version: null });
    expect((await readPublished(db)).reviews.size).toBe(0);
  });

  it('keeps reviews absent from a file, and --prune removes them within the file’s sources only', async () => {
    await importJson([fixture('takeout')], db);
    await importJson([fixture('dealerrater.json')], db);
    const file = join(dir, 'subset.json');
    const doc = JSON.parse(readFileSync(fixture('takeout/location-1/reviews.json'), 'utf8')) as {
      reviews: { starRating: string }[];
    };
    doc.reviews = doc.reviews.slice(0, 3);
    doc.reviews[2]!.starRating = 'SIX'; // rejected, but still present: not pruned
    writeFileSync(file, JSON.stringify(doc));
    const kept = await importJson([file], db);
    expect(kept.summary).toMatchObject({ pruned: 0, unchanged: 2 });
    expect((await readPublished(db)).reviews.size).toBe(8);
    const pruned = await importJson([file, '--prune'], db);
    expect(pruned.summary).toMatchObject({ pruned: 2, unchanged: 2 });
    const { reviews } = await readPublished(db);
    expect([...reviews.values()].filter((r) => r.source === 'google')).toHaveLength(3);
    expect([...reviews.values()].filter((r) => r.source === 'dealerrater')).toHaveLength(3);
  });

  it('re-derives every stored review when the roster or catalogue changes', async () => {
    await importJson([fixture('business.json')], db);
    await importJson([fixture('takeout')], db);
    const before = (await readPublished(db)).reviews.get(
      'AbFvOqmT1a2b3c4d5e6f7g8h9i0jKLMNOPqrstuv',
    )!;
    expect(before.mentions.technicians.map((t) => t.name)).toEqual([
      'Mike Torres',
      'Carlos Mendoza',
    ]);
    const business = JSON.parse(readFileSync(fixture('business.json'), 'utf8')) as {
      staff: { id: string }[];
      services: { id: string }[];
    };
    business.staff = business.staff.filter((s) => s.id !== 'mike-torres');
    business.services = business.services.filter((s) => s.id !== 'tires');
    const file = join(dir, 'business.json');
    writeFileSync(file, JSON.stringify(business));
    const { summary } = await importJson([file, '--format', 'business'], db);
    expect(summary.businessChanged).toBe(true);
    expect(summary.rederived).toBeGreaterThan(0);
    const after = (await readPublished(db)).reviews.get(
      'AbFvOqmT1a2b3c4d5e6f7g8h9i0jKLMNOPqrstuv',
    )!;
    expect(after.mentions.technicians.map((t) => t.name)).toEqual(['Carlos Mendoza']);
    expect(after.mentions.services).toEqual(['oil-change', 'inspection']);
    const again = await importJson([file], db);
    expect(again.summary).toMatchObject({ businessChanged: false, rederived: 0, version: null });
  });

  it('refuses an invalid business profile with one line', async () => {
    const file = join(dir, 'business.json');
    const business = JSON.parse(readFileSync(fixture('business.json'), 'utf8')) as {
      timeZone: string;
    };
    business.timeZone = 'Mars/Olympus';
    writeFileSync(file, JSON.stringify(business));
    const result = await runCli([file], db);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/invalid business profile: business.timeZone: must be an IANA/);
  });
});
