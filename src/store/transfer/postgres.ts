import type { PgDb } from '../internal/postgres-db.js';
import { CHANGE_CHANNEL } from '../internal/postgres-transaction.js';
import { describeContents, TRANSFER_TABLES, transferTable } from './tables.js';
import type { Query } from '../internal/postgres-db.js';
import { storeNotEmpty } from '../errors.js';
import type { StoreTransfer, TableCounts } from './types.js';
import { dict, own } from '../../platform/dict.js';

/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_PARAMETERS = 60_000;

async function countRows(query: Query): Promise<TableCounts> {
  const counts: TableCounts = dict();
  for (const t of TRANSFER_TABLES) {
    const { rows } = await query<{ n: number }>(`SELECT count(*) AS n FROM ${t.name}`);
    counts[t.name] = rows[0]!.n;
  }
  return counts;
}

/**
 * The PostgreSQL side of `StoreTransfer`: the export reads through a cursor per table in one
 * REPEATABLE READ READ ONLY transaction; the import writes multi-row INSERTs in one transaction,
 * moves the identity sequences past the copied ids and announces the data version at commit.
 */
export function createPostgresTransfer(db: PgDb): StoreTransfer {
  return {
    exportRows(fn, batchSize = 500) {
      return db.transaction(
        async (query) => {
          const counts: TableCounts = dict();
          for (const t of TRANSFER_TABLES) {
            counts[t.name] = 0;
            await query(
              `DECLARE transfer_rows NO SCROLL CURSOR FOR SELECT ${t.columns.join(', ')} FROM ${t.name}`,
            );
            for (;;) {
              const { rows } = await query<Record<string, string | number | null>>(
                `FETCH ${Math.max(1, Math.floor(batchSize))} FROM transfer_rows`,
              );
              if (rows.length === 0) break;
              counts[t.name]! += rows.length;
              await fn({
                table: t.name,
                columns: t.columns,
                rows: rows.map((row) => t.columns.map((c) => own(row, c) ?? null)),
              });
            }
            await query('CLOSE transfer_rows');
          }
          return counts;
        },
        { isolation: 'REPEATABLE READ', readOnly: true },
      );
    },
    async importRows(fill) {
      await db.transaction(async (query) => {
        // Other writers (an import, an instance started too early) wait for the copy.
        await query('SELECT version FROM data_state WHERE id = 1 FOR UPDATE');
        const counts = await countRows(query);
        const { rows } = await query<{ version: number }>(
          'SELECT version FROM data_state WHERE id = 1',
        );
        const contents = describeContents(counts, rows[0]!.version);
        if (contents !== '') {
          throw storeNotEmpty(`the target database is not empty (${contents})`);
        }
        await query('DELETE FROM data_state');
        await fill(async (batch) => {
          const t = transferTable(batch.table, batch.columns);
          const width = t.columns.length;
          const perStatement = Math.floor(MAX_PARAMETERS / width);
          for (let i = 0; i < batch.rows.length; i += perStatement) {
            const part = batch.rows.slice(i, i + perStatement);
            const values = part.map(
              (_, r) => `(${t.columns.map((_c, c) => `$${r * width + c + 1}`).join(', ')})`,
            );
            await query(
              `INSERT INTO ${t.name} (${t.columns.join(', ')}) OVERRIDING SYSTEM VALUE VALUES ${values.join(', ')}`,
              part.flat(),
            );
          }
        });
        for (const t of TRANSFER_TABLES) {
          if (!t.identity) continue;
          await query(
            `SELECT setval(pg_get_serial_sequence('${t.name}', '${t.identity}'),
                           coalesce(max(${t.identity}), 0) + 1, false) FROM ${t.name}`,
          );
        }
        const state = await query<{ version: number }>(
          'SELECT version FROM data_state WHERE id = 1',
        );
        if (state.rows.length === 0) throw new Error('the copy has no data_state row');
        await query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, String(state.rows[0]!.version)]);
      });
    },
    counts: () => db.transaction(countRows, { isolation: 'REPEATABLE READ', readOnly: true }),
  };
}
