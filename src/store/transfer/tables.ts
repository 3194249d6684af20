/**
 * The tables a transfer (`StoreTransfer`) copies, in an order that satisfies the foreign keys,
 * with the columns both engines' schemas share (migrations.ts). Claims of WebSub work
 * (`claimed_by`, `claimed_until`) are left out, so the copies start unclaimed.
 */
export interface TransferTable {
  name: string;
  columns: readonly string[];
  /** An identity column (PostgreSQL) whose sequence must continue after the copied values. */
  identity?: string;
}

export const TRANSFER_TABLES: readonly TransferTable[] = [
  { name: 'data_state', columns: ['id', 'version', 'changed_at', 'change_seq', 'change_epoch'] },
  { name: 'business', columns: ['id', 'record', 'updated_at'] },
  {
    name: 'reviews',
    columns: [
      'id',
      'source',
      'source_review_id',
      'source_hash',
      'source_record',
      'public_json',
      'ingested_at',
      'derived_version',
    ],
  },
  { name: 'hidden_reviews', columns: ['review_id', 'hidden_at', 'hidden_by'] },
  // The change feed and (in data_state) its counter and epoch: cursors stay valid on the copy.
  { name: 'review_changes', columns: ['review_id', 'seq', 'removed_at', 'reason'] },
  {
    name: 'moderation_log',
    columns: ['seq', 'review_id', 'action', 'reason', 'actor', 'at'],
    identity: 'seq',
  },
  { name: 'service_secrets', columns: ['name', 'value', 'created_at'] },
  { name: 'mcp_ended_sessions', columns: ['session_key', 'expires_at'] },
  { name: 'mcp_subscriptions', columns: ['session_key', 'uri', 'expires_at'] },
  { name: 'mcp_log_levels', columns: ['session_key', 'level', 'expires_at'] },
  {
    name: 'websub_subscriptions',
    columns: [
      'topic',
      'callback',
      'callback_host',
      'secret',
      'lease_seconds',
      'expires_at',
      'failures',
      'created_at',
      'updated_at',
    ],
  },
  { name: 'websub_topics', columns: ['topic', 'version', 'etag', 'updated_at'] },
  {
    name: 'websub_intents',
    columns: [
      'id',
      'mode',
      'topic',
      'callback',
      'callback_host',
      'secret',
      'lease_seconds',
      'reason',
      'created_at',
    ],
    identity: 'id',
  },
  {
    name: 'websub_deliveries',
    columns: ['id', 'topic', 'callback', 'callback_host', 'min_version', 'attempts', 'due_at'],
    identity: 'id',
  },
  { name: 'text_analyses', columns: ['key', 'analysis'] },
  // The review sources' runs (a moved store goes on incrementally), their leases left free, and
  // what each source brought in (what its next full pass may remove).
  {
    name: 'source_runs',
    columns: ['name', 'last_started_at', 'last_success_at', 'last_full_at', 'last_error', 'cursor'],
  },
  { name: 'source_reviews', columns: ['source_name', 'review_id'] },
];

/** The table of this name, or an error naming it (a batch from another release, say). */
export function transferTable(name: string, columns: readonly string[]): TransferTable {
  const table = TRANSFER_TABLES.find((t) => t.name === name);
  if (!table) throw new Error(`unknown table in a transfer: ${name}`);
  if (table.columns.join() !== columns.join()) {
    throw new Error(`unexpected columns of ${name} in a transfer: ${columns.join(', ')}`);
  }
  return table;
}

/** What a non-empty target holds, for the message (`12 reviews, 1 business, ...`). */
export function describeContents(counts: Record<string, number>, version: number): string {
  const parts = Object.entries(counts)
    .filter(([table, n]) => table !== 'data_state' && n > 0)
    .map(([table, n]) => `${n} ${table}`);
  if (version !== 0) parts.unshift(`data version ${version}`);
  return parts.join(', ');
}
