import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedRow } from '../../../test/helpers/records.js';
import { openStore } from '../index.js';
import { MIGRATIONS } from './migrations.js';

const sha = (sql: string): string => createHash('sha256').update(sql).digest('hex').slice(0, 16);

describe('the schema migrations', () => {
  it('are numbered 1, 2, 3, ... with a name and SQL for each engine', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(new Set(MIGRATIONS.map((m) => m.name)).size).toBe(MIGRATIONS.length);
    for (const m of MIGRATIONS) {
      expect(m.sqlite.trim()).not.toBe('');
      expect(m.postgres.trim()).not.toBe('');
    }
  });

  it('never change once shipped (stores in the field have applied them)', () => {
    // Append a migration instead of editing one; add its hashes here.
    expect(MIGRATIONS.map((m) => [m.version, sha(m.sqlite), sha(m.postgres)])).toEqual([
      [1, '05e9f576b67c0474', '65e7a63713358437'],
      [2, '82cda0dbf0d11daa', 'b6729b5195c93cea'],
      [3, '3b7336343e30c319', '092bf1daa766c509'],
      [4, '737a8d33902f19a2', '208aef3532858036'],
      [5, '221ab8e80a196650', '4162b1e01090507c'],
      [6, '1a994cab57a3f22c', 'c32bc306a531bfc0'],
      [7, '0de9e1ff779fcfba', '75bdecf28f9e18d9'],
      [8, '804b8935e3b4378c', '406630e390e68eab'],
      [9, 'd39494c2097689c3', '08cb0395dd5accdd'],
      [10, 'b64a6a1530f4f195', '766eaa3e8e24bc93'],
      [11, 'a5ae509a32137813', 'f0df2fbb3bee9a24'],
    ]);
  });
});

describe('migrating a SQLite store', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    path = join(dir, 'reviews.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('applies only the missing versions to a file an older release created, keeping its data', async () => {
    // A file as the release with five migrations left it, holding one review.
    const old = new Database(path);
    old.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
    );
    for (const m of MIGRATIONS.slice(0, 5)) {
      old.exec(m.sqlite);
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(m.version, 'then');
    }
    const row = storedRow('kept');
    old
      .prepare(
        `INSERT INTO reviews (id, source, source_review_id, source_hash, source_record,
           public_json, ingested_at, derived_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.id,
        row.source,
        row.sourceReviewId,
        row.sourceHash,
        JSON.stringify(row.sourceRecord),
        row.publicJson,
        row.ingestedAt,
        row.derivedVersion,
      );
    old.close();

    const store = openStore(`sqlite:${path}`);
    expect((await store.readDataset()).reviews).toEqual([row.publicJson]);
    expect(await store.moderation.hiddenIds()).toEqual(new Set());
    expect(await store.rates.take('k', 0, 1_000, 1)).toEqual({ ok: true });
    await store.close();

    const db = new Database(path, { readonly: true });
    const applied = db
      .prepare('SELECT version, applied_at FROM schema_migrations ORDER BY version')
      .all() as { version: number; applied_at: string }[];
    db.close();
    expect(applied.map((a) => a.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(applied.slice(0, 5).every((a) => a.applied_at === 'then')).toBe(true);
  });

  it('back-fills the change feed with every published review, in published order', async () => {
    const old = new Database(path);
    old.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
    );
    for (const m of MIGRATIONS.slice(0, 8)) old.exec(m.sqlite);
    old.exec(
      `INSERT INTO schema_migrations SELECT value, 'then' FROM json_each('[1,2,3,4,5,6,7,8]')`,
    );
    const rows = ['2024-03-01', '2025-01-01', '2024-06-01', '2023-01-01'].map((day, i) =>
      storedRow(`k${i}`, { datePublished: `${day}T12:00:00.000Z` }),
    );
    const insert = old.prepare(
      `INSERT INTO reviews (id, source, source_review_id, source_hash, source_record,
         public_json, ingested_at, derived_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const r of rows) {
      insert.run(
        r.id,
        r.source,
        r.sourceReviewId,
        r.sourceHash,
        JSON.stringify(r.sourceRecord),
        r.publicJson,
        r.ingestedAt,
        r.derivedVersion,
      );
    }
    old.prepare('INSERT INTO hidden_reviews VALUES (?, ?)').run(rows[3]!.id, 'then');
    old.close();

    const store = openStore(`sqlite:${path}`);
    const seqs: [string, number][] = [];
    let head = { epoch: '', lastSeq: 0 };
    await store.readPublished({
      begin: (h) => (head = h.feed),
      review: (json, seq) => seqs.push([(JSON.parse(json) as { id: string }).id, seq]),
      removal: () => undefined,
    });
    await store.close();
    expect(seqs).toEqual([
      [rows[1]!.id, 1],
      [rows[2]!.id, 2],
      [rows[0]!.id, 3],
    ]);
    expect(head).toEqual({ epoch: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown, lastSeq: 3 });
  });

  it('applies nothing again when the store is opened again', async () => {
    await openStore(`sqlite:${path}`).close();
    const db = new Database(path);
    const before = db.prepare('SELECT * FROM schema_migrations ORDER BY version').all();
    db.close();
    await openStore(`sqlite:${path}`).close();
    const again = new Database(path, { readonly: true });
    expect(again.prepare('SELECT * FROM schema_migrations ORDER BY version').all()).toEqual(before);
    again.close();
  });
});
