import type { Dict } from '../../platform/dict.js';

/** Rows of one table, in the form both engines read and write (text, numbers and nulls). */
export interface TableRows {
  table: string;
  /** The column names, in the order of each row's values. */
  columns: readonly string[];
  rows: (string | number | null)[][];
}

/** Rows per table, for the tables a transfer copies. */
export type TableCounts = Dict<number>;

/**
 * The whole store as rows, for moving it to another engine (`dealer-reviews migrate-store`): the
 * reviews (hidden ones too, with their derived records), the business, the data version, the
 * moderation log and hidden set, MCP session secrets, ended sessions and their subscriptions,
 * the WebSub subscriptions, queues and topic states (claims released) and the insights' stored
 * analyses, the review sources' runs (leases left free) and what each brought in. Not copied:
 * rate-limit windows (they last a minute) and the applied migrations.
 */
export interface StoreTransfer {
  /**
   * Reads every copied table from one consistent snapshot, in batches of at most `batchSize`
   * rows, and hands each batch to `fn` (awaited before the next is read); returns the rows per
   * table. Uses connections of its own: the store stays usable meanwhile.
   */
  exportRows(fn: (batch: TableRows) => Promise<void>, batchSize?: number): Promise<TableCounts>;
  /**
   * Writes what `fill` puts, in one transaction, into this store, which must be empty (no row
   * in any copied table, data version 0): otherwise `StoreNotEmptyError`, and nothing written.
   * Identity sequences continue after the copied ids.
   */
  importRows(fill: (put: (batch: TableRows) => Promise<void>) => Promise<unknown>): Promise<void>;
  /** The rows per copied table. */
  counts(): Promise<TableCounts>;
}
