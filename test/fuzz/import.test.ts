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
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { seedStore } from '../helpers/service.js';
import { fixture, ROOT, runCli, type JsonSummary } from '../import/helpers.js';
import { TRICKY } from './helpers/arbitraries.js';
import { type Json, mutatedJson } from './helpers/json-mutation.js';
import { checkBoundary, noteOutcome, timeoutOf } from './helpers/settings.js';

/** Runs in `npm test` (fixed seed), each a process; `npm run fuzz` runs FUZZ_RUNS. */
const RUNS = 16;

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
    for (const table of ['data_state', 'business', 'reviews', 'hidden_reviews', 'moderation_log']) {
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
              fc.constantFrom('Rating', 'Date', 'Stars', '', 'Review ID', 'rating;date'),
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
});
