import type Database from 'better-sqlite3';
import { describeContents, TRANSFER_TABLES, transferTable } from './tables.js';
import { storeNotEmpty } from '../errors.js';
import type { StoreTransfer, TableCounts, TableRows } from './types.js';
import { dict } from '../../platform/dict.js';

type Db = Database.Database;

function countRows(db: Db): TableCounts {
  const counts: TableCounts = dict();
  for (const t of TRANSFER_TABLES) {
    counts[t.name] = db.prepare(`SELECT count(*) FROM ${t.name}`).pluck().get() as number;
  }
  return counts;
}

/**
 * The SQLite side of `StoreTransfer`. `openReader` opens a connection for the export's read
 * transaction (closed with `closeReader`), so that its snapshot does not hold the store's reader;
 * the import runs on the writer, in one `BEGIN IMMEDIATE` transaction queued with the store's
 * other writes (`serialize`).
 */
export function createSqliteTransfer(
  reader: Db,
  writer: Db,
  serialize: <T>(run: () => Promise<T>) => Promise<T>,
  openReader: () => { db: Db; close(): void },
): StoreTransfer {
  return {
    async exportRows(fn, batchSize = 500) {
      const { db, close } = openReader();
      try {
        db.exec('BEGIN');
        const counts: TableCounts = dict();
        for (const t of TRANSFER_TABLES) {
          counts[t.name] = 0;
          const select = db.prepare(`SELECT ${t.columns.join(', ')} FROM ${t.name}`).raw(true);
          let rows: (string | number | null)[][] = [];
          // Nothing else runs on this connection, so the cursor may stay open across awaits.
          for (const row of select.iterate() as Iterable<(string | number | null)[]>) {
            rows.push(row);
            if (rows.length >= batchSize) {
              counts[t.name]! += rows.length;
              await fn({ table: t.name, columns: t.columns, rows });
              rows = [];
            }
          }
          if (rows.length > 0) {
            counts[t.name]! += rows.length;
            await fn({ table: t.name, columns: t.columns, rows });
          }
        }
        db.exec('COMMIT');
        return counts;
      } finally {
        if (db.inTransaction) db.exec('ROLLBACK');
        close();
      }
    },
    importRows(fill) {
      return serialize(async () => {
        writer.exec('BEGIN IMMEDIATE');
        try {
          const counts = countRows(writer);
          const version = writer
            .prepare('SELECT version FROM data_state WHERE id = 1')
            .pluck()
            .get() as number;
          const contents = describeContents(counts, version);
          if (contents !== '') {
            throw storeNotEmpty(`the target store is not empty (${contents})`);
          }
          writer.exec('DELETE FROM data_state');
          const inserts = new Map<string, Database.Statement>();
          await fill(async (batch: TableRows) => {
            const t = transferTable(batch.table, batch.columns);
            let insert = inserts.get(t.name);
            if (!insert) {
              insert = writer.prepare(
                `INSERT INTO ${t.name} (${t.columns.join(', ')}) VALUES (${t.columns.map(() => '?').join(', ')})`,
              );
              inserts.set(t.name, insert);
            }
            for (const row of batch.rows) insert.run(row);
          });
          writer.exec('COMMIT');
        } catch (err) {
          if (writer.inTransaction) writer.exec('ROLLBACK');
          throw err;
        }
      });
    },
    async counts() {
      return countRows(reader);
    },
  };
}
