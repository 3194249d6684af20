import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FILE_INVALID,
  runImport,
  STRICT_IMPORT_REFUSED,
  type FormatId,
} from '../../src/import/index.js';
import { isServiceError } from '../../src/platform/errors.js';
import { openStore } from '../../src/store/index.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { seedStore } from '../helpers/service.js';
import { fixture, ROOT, runCli, type JsonSummary } from '../import/helpers.js';
import { OBJECT_KEYS, TRICKY } from './helpers/arbitraries.js';
import { type Json, mutatedJson } from './helpers/json-mutation.js';
import { checkBoundary, noteOutcome, timeoutOf } from './helpers/settings.js';

/** Runs in `npm run test:slow` (fixed seed), each a process; `npm run fuzz` runs FUZZ_RUNS. */
const RUNS = 16;
/** Runs of the same files through the import's own code in this process (much faster). */
const IN_PROCESS_RUNS = 60;
/** Runs of the dated files (in this process). */
const DATE_RUNS = 200;

const FORMATS = ['gbp', 'dealerrater', 'csv', 'reviews-json', 'business'] as const;
type Format = (typeof FORMATS)[number];

let dir: string;
/** A seeded store (business and 20 reviews), copied for every run so each starts the same. */
let template: string;
let templates: Record<Format, { name: string; text: string; json?: Json }[]>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fuzz-import-'));
  template = join(dir, 'template.db');
  await seedStore(`sqlite:${template}`, testBusiness(), testReviews(20));
  expect(existsSync(`${template}-wal`)).toBe(false);
  const json = (path: string) => {
    const text = readFileSync(path, 'utf8');
    return { name: 'export.json', text, json: JSON.parse(text) as Json };
  };
  const sample = JSON.parse(readFileSync(join(ROOT, 'sample', 'dealership.json'), 'utf8')) as {
    business: Json;
    reviews: Json[];
  };
  const sampleFormat = { business: sample.business, reviews: sample.reviews.slice(0, 4) };
  templates = {
    gbp: [json(fixture('gbp-api-page.json')), json(fixture('takeout/location-1/reviews.json'))],
    dealerrater: [json(fixture('dealerrater.json'))],
    csv: [{ name: 'export.csv', text: readFileSync(fixture('reputation-export.csv'), 'utf8') }],
    'reviews-json': [
      { name: 'reviews.json', text: JSON.stringify(sampleFormat), json: sampleFormat as Json },
    ],
    business: [json(fixture('business.json'))],
  };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Everything the store holds that an import may write, as one hash. */
function storeHash(db: string): string {
  const sqlite = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const hash = createHash('sha256');
    for (const table of [
      'data_state',
      'business',
      'reviews',
      'hidden_reviews',
      'moderation_log',
      'review_changes',
    ]) {
      const rows = sqlite
        .prepare(`SELECT * FROM ${table}`)
        .all()
        .map((r) => JSON.stringify(r))
        .sort();
      hash.update(`${table}\u0000${rows.join('\n')}\u0000`);
    }
    return hash.digest('hex');
  } finally {
    sqlite.close();
  }
}

function dataVersion(db: string): number {
  const sqlite = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return sqlite.prepare('SELECT version FROM data_state').pluck().get() as number;
  } finally {
    sqlite.close();
  }
}

/** Text mutations any file meets in the wild: a BOM, a cut, stray bytes, other line ends. */
type TextMutation =
  | { kind: 'bom' | 'crlf' }
  | { kind: 'cut' | 'repeat-line'; at: number }
  | { kind: 'insert'; at: number; bytes: readonly number[] };

const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.constantFrom({ kind: 'bom' as const }, { kind: 'crlf' as const }),
  fc.record({ kind: fc.constantFrom('cut' as const, 'repeat-line' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.oneof(
      fc.constantFrom(...TRICKY).map((t) => [...Buffer.from(t)]),
      fc.constantFrom([0xff], [0xc3], [0x00], [0x0d], [0x0a], [0x22], [0x2c], [0x3b], [0x09]),
    ),
  }),
);

function applyText(b: Buffer, m: TextMutation): Buffer {
  switch (m.kind) {
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]);
    case 'crlf':
      return Buffer.from(b.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
    case 'cut':
      return b.subarray(0, m.at % (b.length + 1));
    case 'insert': {
      const i = m.at % (b.length + 1);
      return Buffer.concat([b.subarray(0, i), Buffer.from(m.bytes), b.subarray(i)]);
    }
    case 'repeat-line': {
      const lines = b.toString('latin1').split('\n');
      const i = m.at % lines.length;
      return Buffer.from([...lines.slice(0, i + 1), ...lines.slice(i)].join('\n'), 'latin1');
    }
  }
}

/** CSV mutations: header names and cells changed, columns added or dropped. */
function csvText(template: string): fc.Arbitrary<string> {
  const rows = template.split('\n');
  const header = rows[0]!;
  return fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: fc.constant(header) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(
              fc.nat(),
              fc.constantFrom(
                'Rating',
                'Date',
                'Stars',
                '',
                'Review ID',
                'rating;date',
                ...OBJECT_KEYS,
              ),
            )
            .map(([i, name]) => {
              const cols = header.split(',');
              cols[i % cols.length] = name;
              return cols.join(',');
            }),
        },
      ),
      fc.array(
        fc.record(
          {
            id: fc.oneof(
              fc.constant(''),
              fc.string({ maxLength: 8 }).map((s) => `fz-${s}`),
            ),
            source: fc.constantFrom('Google', 'Yelp', 'Edmunds', 'Nowhere', ''),
            stars: fc.constantFrom('5', '4.5', '★★★☆☆', 'five', '0', '6', '-1', 'NaN', '', '3/5'),
            author: fc.oneof(fc.constantFrom('Ann', '', ' '), fc.string({ maxLength: 12 })),
            date: fc.constantFrom(
              '2024-03-05 14:30',
              '3/14/2024 2:05 PM',
              '2024-02-30',
              '1970-01-01',
              '2999-01-01',
              '',
              'yesterday',
              '2024-01-10T09:00:00-06:00',
            ),
            text: fc.oneof(fc.constantFrom(...TRICKY), fc.string({ maxLength: 60 })),
          },
          { requiredKeys: ['stars', 'date'] },
        ),
        { maxLength: 5 },
      ),
    )
    .map(([head, extra]) => {
      const quote = (s: string | undefined) => `"${(s ?? '').replace(/"/g, '""')}"`;
      const lines = extra.map((r) =>
        [r.id, r.source, r.stars, r.author, r.date, r.text].map(quote).join(','),
      );
      return [head, ...rows.slice(1), ...lines].join('\n');
    });
}

const importRun = fc
  .constantFrom(...FORMATS)
  .chain((format) =>
    fc.record({
      format: fc.constant(format),
      template: fc.nat(),
      doc: fc.nat(),
      mutations: fc.oneof(
        { weight: 2, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(textMutation, { minLength: 1, maxLength: 2 }) },
      ),
      name: fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        {
          weight: 1,
          arbitrary: fc.constantFrom('export.txt', 'export', 'export.CSV', 'export.tsv'),
        },
      ),
      flags: fc.subarray(['--strict', '--dry-run', '--prune']),
      forced: fc.oneof(
        { weight: 12, arbitrary: fc.constant(null) },
        { weight: 3, arbitrary: fc.constantFrom<string>(...FORMATS) },
        { weight: 1, arbitrary: fc.constantFrom('xml', '') },
      ),
      source: fc.oneof(
        { weight: 12, arbitrary: fc.constant(null) },
        { weight: 3, arbitrary: fc.constantFrom('google', 'yelp') },
        { weight: 1, arbitrary: fc.constant('myspace') },
      ),
    }),
  )
  .chain((run) => {
    const options = templates[run.format];
    const t = options[run.template % options.length]!;
    const text = t.json === undefined ? csvText(t.text) : mutatedJson(t.json, 2);
    return text.map((doc) => ({ ...run, file: t.name, text: doc }));
  });

/**
 * A date as an export may write it, with what the import must make of it: `day` is the calendar
 * date it names (null when it names none, such as 2023-02-29 or year 0), `instant` the moment
 * when it carries an offset. Years run from 0 to 9999, in every form the readers take.
 */
interface DateCase {
  text: string;
  day: string | null;
  instant: string | null;
}

const p2 = (n: number) => String(n).padStart(2, '0');
const p4 = (n: number) => String(n).padStart(4, '0');

/** The test's own calendar rule (not the product's): year 1 and up, real months and days. */
function realDay(y: number, m: number, d: number): string | null {
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  if (y < 1 || days === undefined || d < 1 || d > days) return null;
  return `${p4(y)}-${p2(m)}-${p2(d)}`;
}

const dateCase: fc.Arbitrary<DateCase> = fc
  .record({
    year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1990, max: 2030 })),
    month: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 12 }) }, fc.constant(13)),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    form: fc.constantFrom('date', 'local', 'us', 'slash', 'offset', 'z', 'offset-no-colon'),
    offset: fc.integer({ min: -12, max: 14 }),
  })
  .map(({ year, month, day, hour, minute, form, offset }): DateCase => {
    const date = `${p4(year)}-${p2(month)}-${p2(day)}`;
    const named = realDay(year, month, day);
    const sign = offset < 0 ? '-' : '+';
    const zone = `${sign}${p2(Math.abs(offset))}:00`;
    const h12 = hour % 12 === 0 ? 12 : hour % 12;
    switch (form) {
      case 'date':
        return { text: date, day: named, instant: null };
      case 'local':
        return { text: `${date} ${p2(hour)}:${p2(minute)}`, day: named, instant: null };
      case 'us':
        return {
          text: `${month}/${day}/${p4(year)} ${h12}:${p2(minute)} ${hour < 12 ? 'AM' : 'PM'}`,
          day: named,
          instant: null,
        };
      case 'slash':
        return { text: `${p4(year)}/${p2(month)}/${p2(day)}`, day: named, instant: null };
      default: {
        const suffix = form === 'z' ? 'Z' : form === 'offset' ? zone : zone.replace(':', '');
        const text = `${date}T${p2(hour)}:${p2(minute)}:00${suffix}`;
        const ms = Date.parse(`${date}T${p2(hour)}:${p2(minute)}:00${form === 'z' ? 'Z' : zone}`);
        return {
          text,
          day: named,
          instant: named === null ? null : new Date(ms).toISOString(),
        };
      }
    }
  });

/** The calendar date of an instant in the test business's zone (America/Chicago). */
function chicagoDay(instant: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Chicago',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (t: string) => parts.find((x) => x.type === t)!.value;
  return `${get('year').padStart(4, '0')}-${get('month')}-${get('day')}`;
}

function shiftDay(day: string, days: number): string {
  const t = new Date(0);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  t.setUTCFullYear(y, m - 1, d + days);
  return t.toISOString().slice(0, 10);
}

/** One review per date case, with an owner response dated by another case. */
const datedFile = fc
  .record({
    format: fc.constantFrom('csv', 'dealerrater'),
    rows: fc.array(fc.record({ published: dateCase, response: dateCase }), {
      minLength: 1,
      maxLength: 6,
    }),
  })
  .map(({ format, rows }) => {
    const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
    const text =
      format === 'csv'
        ? [
            'Review ID,Source,Stars,Reviewer,Review Date,Review Text,Response,Response Date',
            ...rows.map((r, i) =>
              [
                `fz-${i}`,
                'Google',
                '4',
                'Ann',
                r.published.text,
                'Fine.',
                'Thanks.',
                r.response.text,
              ]
                .map(quote)
                .join(','),
            ),
          ].join('\n')
        : JSON.stringify({
            DealerId: 1,
            Reviews: rows.map((r, i) => ({
              Id: `fz-${i}`,
              UserName: 'Ann',
              ReviewText: 'Fine.',
              Rating: 4,
              DateCreated: r.published.text,
              Messages: [{ Type: 'DealerResponse', Text: 'Thanks.', DateCreated: r.response.text }],
            })),
          });
    return { format, rows, text };
  });

type ImportRun = typeof importRun extends fc.Arbitrary<infer T> ? T : never;

function argsOf(r: ImportRun, path: string): string[] {
  const args = [path, '--json', ...r.flags];
  if (r.forced !== null) args.push('--format', r.forced);
  if (r.source !== null) args.push('--source', r.source);
  return args;
}

describe('fuzz: import files of every format (dealer-reviews import, as a process)', () => {
  it(
    'never crashes; a refused file, a --strict refusal or a dry run writes nothing; a commit is one new version; the summary adds up',
    async () => {
      let n = 0;
      await checkBoundary(
        'import files',
        fc.asyncProperty(importRun, async (r) => {
          const run = n++;
          const db = join(dir, `run-${run}.db`);
          copyFileSync(template, db);
          const path = join(dir, `run-${run}-${r.name ?? r.file}`);
          let bytes: Buffer = Buffer.from(r.text);
          for (const m of r.mutations) bytes = applyText(bytes, m);
          writeFileSync(path, bytes);
          const before = storeHash(db);
          const versionBefore = dataVersion(db);
          const result = await runCli(argsOf(r, path), db);
          noteOutcome(`exit ${result.code}`);
          const after = storeHash(db);
          rmSync(path, { force: true });
          rmSync(db, { force: true });
          for (const suffix of ['-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
          const what = `${result.code}: ${result.stderr.slice(0, 500)}`;
          expect(result.signal, what).toBeNull();
          expect(result.stderr, 'no crash, no stack trace').not.toMatch(
            /unexpected error|\n\s+at /,
          );
          const badFlags = r.forced === 'xml' || r.forced === '' || r.source === 'myspace';
          if (badFlags) {
            expect(result.code, what).toBe(2);
            expect(after).toBe(before);
            return;
          }
          expect([0, 1], what).toContain(result.code);
          const out = JSON.parse(result.stdout) as JsonSummary | { error: string };
          if ('error' in out) {
            expect(result.code).toBe(1);
            expect(result.stderr.trim().split('\n'), 'one line').toHaveLength(1);
            expect(after, 'a refused file writes nothing').toBe(before);
            return;
          }
          const summary = out;
          for (const rej of summary.rejected) {
            expect(Number.isInteger(rej.row)).toBe(true);
            expect(typeof rej.field).toBe('string');
            expect(typeof rej.reason).toBe('string');
          }
          if (r.flags.includes('--strict') && summary.rejected.length > 0) {
            expect(result.code, '--strict refuses a file with rejected rows').toBe(1);
          }
          if (result.code === 1 || r.flags.includes('--dry-run')) {
            expect(summary.committed).toBe(false);
            expect(summary.version).toBeNull();
            expect(after, 'a --strict refusal or a dry run writes nothing').toBe(before);
            return;
          }
          // (A --strict refusal reports its counts as zero: nothing was written.)
          const rejectedRows = summary.rejected.filter((x) => x.row > 0).length;
          expect(
            summary.inserted + summary.updated + summary.unchanged + rejectedRows,
            'every row read is imported, unchanged or rejected',
          ).toBe(summary.rows);
          expect(summary.committed).toBe(true);
          if (summary.version === null) {
            expect(after, 'no new version: nothing written').toBe(before);
          } else {
            expect(summary.version).toBe(versionBefore + 1);
            expect(after).not.toBe(before);
          }
        }),
        RUNS,
      );
    },
    timeoutOf(120_000),
  );

  it(
    'in process (the import code without the command line): never an unexpected error; a refused file, a --strict refusal or a dry run writes nothing; a commit is one new version',
    async () => {
      let n = 0;
      const inProcess = importRun.filter(
        (r) => r.forced !== 'xml' && r.forced !== '' && r.source !== 'myspace',
      );
      await checkBoundary(
        'import files (in process)',
        fc.asyncProperty(inProcess, async (r) => {
          const run = n++;
          const db = join(dir, `inproc-${run}.db`);
          copyFileSync(template, db);
          const path = join(dir, `inproc-${run}-${r.name ?? r.file}`);
          let bytes: Buffer = Buffer.from(r.text);
          for (const m of r.mutations) bytes = applyText(bytes, m);
          writeFileSync(path, bytes);
          const before = storeHash(db);
          const versionBefore = dataVersion(db);
          const store = openStore(`sqlite:${db}`);
          let outcome: 'imported' | 'refused' | 'strict' = 'imported';
          let summary = null;
          try {
            summary = await runImport(store, {
              path,
              ...(r.forced ? { format: r.forced as FormatId } : {}),
              strict: r.flags.includes('--strict'),
              prune: r.flags.includes('--prune'),
              dryRun: r.flags.includes('--dry-run'),
              defaultSource: (r.source as 'google' | 'yelp' | null) ?? null,
            });
          } catch (err) {
            // Anything but a refusal of the file or of --strict is a failure of the import.
            if (isServiceError(err, FILE_INVALID)) outcome = 'refused';
            else if (isServiceError(err, STRICT_IMPORT_REFUSED)) outcome = 'strict';
            else throw err;
          } finally {
            await store.close();
          }
          noteOutcome(outcome);
          const after = storeHash(db);
          rmSync(path, { force: true });
          for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
          if (outcome !== 'imported' || r.flags.includes('--dry-run')) {
            expect(after, 'a refusal or a dry run writes nothing').toBe(before);
            return;
          }
          const rejectedRows = summary!.rejected.filter((x) => x.row > 0).length;
          expect(
            summary!.inserted + summary!.updated + summary!.unchanged + rejectedRows,
            'every row read is imported, unchanged or rejected',
          ).toBe(summary!.rows);
          if (summary!.version === null) expect(after).toBe(before);
          else {
            expect(summary!.version).toBe(versionBefore + 1);
            expect(after).not.toBe(before);
          }
        }),
        IN_PROCESS_RUNS,
      );
    },
    timeoutOf(120_000),
  );

  it(
    'stores every date as written (years 0 to 9999, every form) or rejects its row: only real dates from 1995-01-01 to tomorrow',
    async () => {
      let n = 0;
      await checkBoundary(
        'import dates',
        fc.asyncProperty(datedFile, async (f) => {
          const run = n++;
          const db = join(dir, `dates-${run}.db`);
          copyFileSync(template, db);
          const path = join(dir, `dates-${run}.${f.format === 'csv' ? 'csv' : 'json'}`);
          writeFileSync(path, f.text);
          // In this process: the dates are the import's own code (the command line adds nothing).
          const store = openStore(`sqlite:${db}`);
          let result: { code: number; summary: unknown };
          try {
            result = { code: 0, summary: await runImport(store, { path }) };
          } catch (err) {
            if (!isServiceError(err, FILE_INVALID)) throw err;
            result = { code: 1, summary: err.message };
          } finally {
            await store.close();
          }
          const stored = new Map<
            string,
            {
              date: string;
              datePublished: string;
              ownerResponse: { dateModified: string | null } | null;
            }
          >();
          const sqlite = new Database(db, { readonly: true, fileMustExist: true });
          try {
            for (const row of sqlite
              .prepare(
                "SELECT source_review_id, public_json FROM reviews WHERE source_review_id LIKE 'fz-%'",
              )
              .all() as { source_review_id: string; public_json: string }[]) {
              stored.set(row.source_review_id, JSON.parse(row.public_json));
            }
          } finally {
            sqlite.close();
          }
          rmSync(path, { force: true });
          for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
          const what = `${result.code}: ${JSON.stringify(result.summary).slice(0, 1500)}`;
          const tomorrow = shiftDay(chicagoDay(new Date().toISOString()), 1);
          // The local day a case names, and whether it lies in the window (null: too near an
          // edge to call, as the clock moves on while the test runs).
          const judge = (c: DateCase): { day: string | null; inWindow: boolean | null } => {
            if (c.day === null) return { day: null, inWindow: false };
            const day = c.instant === null ? c.day : chicagoDay(c.instant);
            const near = (edge: string) => day >= shiftDay(edge, -1) && day <= shiftDay(edge, 1);
            if (near('1995-01-01') || near(tomorrow)) return { day, inWindow: null };
            return { day, inWindow: day >= '1995-01-01' && day <= tomorrow };
          };
          f.rows.forEach((r, i) => {
            const review = stored.get(`fz-${i}`);
            const published = judge(r.published);
            const response = judge(r.response);
            const label = `row ${i}: ${r.published.text} / response ${r.response.text}; ${what}`;
            if (published.inWindow === false || response.inWindow === false) {
              expect(
                review,
                `${label}: stored, but a date is not a real date in the window`,
              ).toBeUndefined();
              return;
            }
            if (published.inWindow === null || response.inWindow === null) return;
            expect(review, `${label}: rejected`).toBeDefined();
            expect(review!.date, label).toBe(published.day);
            if (r.published.instant !== null)
              expect(review!.datePublished, label).toBe(r.published.instant);
            const replied = review!.ownerResponse?.dateModified ?? null;
            expect(replied, label).not.toBeNull();
            if (r.response.instant !== null) expect(replied, label).toBe(r.response.instant);
            else expect(chicagoDay(replied!), label).toBe(response.day);
          });
          noteOutcome(`exit ${result.code}`);
        }),
        DATE_RUNS,
      );
    },
    timeoutOf(120_000),
  );
});
