/*
 * The claim statements of the WebSub queues (SQLite). Each picks the due, unclaimed rows in due
 * order, keeps at most the remaining capacity of each callback host (`@remaining` is a JSON object
 * host -> slots, `@perHost` the default), and stamps the claim in the same statement. Run inside
 * `BEGIN IMMEDIATE`, nothing else can claim in between. The PostgreSQL form is the same statement
 * with `FOR UPDATE SKIP LOCKED` on the candidates CTE (see docs/websub.md).
 */

const hostSlots = (row: string) =>
  `coalesce((SELECT r.value FROM json_each(@remaining) r WHERE r.key = ${row}.callback_host), @perHost)`;

/** Claims deliveries (only those whose subscription is still active). */
export const claimDeliveriesSql = `
WITH candidates AS (
  SELECT d.id, d.callback_host, d.due_at FROM websub_deliveries d
  WHERE d.due_at <= @now
    AND (d.claimed_until IS NULL OR d.claimed_until <= @now)
    AND d.min_version <= @maxVersion
    AND ${hostSlots('d')} > 0
    AND EXISTS (SELECT 1 FROM websub_subscriptions s
                WHERE s.topic = d.topic AND s.callback = d.callback AND s.expires_at > @now)
  ORDER BY d.due_at, d.id
  LIMIT @scan
), ranked AS (
  SELECT id, callback_host,
         row_number() OVER (PARTITION BY callback_host ORDER BY due_at, id) AS n
  FROM candidates
)
UPDATE websub_deliveries SET claimed_by = @owner, claimed_until = @until
WHERE id IN (SELECT id FROM ranked WHERE n <= ${hostSlots('ranked')} ORDER BY n, id LIMIT @limit)
RETURNING id, topic, callback, callback_host, min_version, attempts`;

/** Claims intents: only the oldest pending intent of each (topic, callback), so they apply in order. */
export const claimIntentsSql = `
WITH candidates AS (
  SELECT i.id, i.callback_host FROM websub_intents i
  WHERE (i.claimed_until IS NULL OR i.claimed_until <= @now)
    AND NOT EXISTS (SELECT 1 FROM websub_intents o
                    WHERE o.topic = i.topic AND o.callback = i.callback AND o.id < i.id)
    AND ${hostSlots('i')} > 0
  ORDER BY i.id
  LIMIT @scan
), ranked AS (
  SELECT id, callback_host, row_number() OVER (PARTITION BY callback_host ORDER BY id) AS n
  FROM candidates
)
UPDATE websub_intents SET claimed_by = @owner, claimed_until = @until
WHERE id IN (SELECT id FROM ranked WHERE n <= ${hostSlots('ranked')} ORDER BY n, id LIMIT @limit)
RETURNING id, mode, topic, callback, callback_host, secret, lease_seconds, reason`;
