/*
 * The claim statements of the WebSub queues, SQLite's then PostgreSQL's. Each picks the due,
 * unclaimed rows in due order, keeps at most the remaining capacity of each callback host
 * (`@remaining` is a JSON object host -> slots, `@perHost` the default), and stamps the claim in
 * the same statement. SQLite runs it inside `BEGIN IMMEDIATE`: nothing else can claim in between.
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

/*
 * The PostgreSQL forms. Several instances claim at once, so each claim locks the rows it takes
 * with `FOR UPDATE SKIP LOCKED` and stamps them in the same statement: rows another claim has
 * locked are passed over (never waited for), a row another claim stamped and committed meanwhile
 * fails the lease condition when it is locked (PostgreSQL checks the row's newest version), and
 * the `LIMIT` counts only the rows locked. So every row is claimed by one worker at a time, and
 * two concurrent claims share the due rows instead of one getting none. The per-host ranking is
 * done before the locking, so a claim may take fewer rows of a host than it could, never more.
 * `$remaining` is the JSON object host -> slots.
 */

const pgHostSlots = (row: string, remaining: string, perHost: string) =>
  `coalesce((${remaining}::jsonb ->> ${row}.callback_host)::integer, ${perHost}::integer)`;

/**
 * The parameters both claims end with, from `$first` on: remaining, perHost, scan, limit, owner,
 * until (`pgClaimParams` in `postgres-statements.ts` gives their values, in this order).
 */
const pgClaimSlots = (first: number) => ({
  remaining: `$${first}`,
  perHost: `$${first + 1}`,
  scan: `$${first + 2}`,
  limit: `$${first + 3}`,
  owner: `$${first + 4}`,
  until: `$${first + 5}`,
});

/**
 * The end of both claims: lock the ranked candidates of `table` (as `t`) that still fit their
 * host's slots and are still unclaimed, skipping the locked ones, and stamp them (`claimed`).
 */
const pgLockAndStamp = (table: string, t: string, p: ReturnType<typeof pgClaimSlots>) => `
), picked AS (
  SELECT ${t}.id FROM ${table} ${t} JOIN ranked r ON r.id = ${t}.id
  WHERE r.n <= ${pgHostSlots('r', p.remaining, p.perHost)}
    AND (${t}.claimed_until IS NULL OR ${t}.claimed_until <= $1::bigint)
  ORDER BY r.n, ${t}.id
  LIMIT ${p.limit}
  FOR UPDATE OF ${t} SKIP LOCKED
), claimed AS (
  UPDATE ${table} ${t} SET claimed_by = ${p.owner}, claimed_until = ${p.until}::bigint
  FROM picked WHERE ${t}.id = picked.id`;

const deliverySlots = pgClaimSlots(3);
const intentSlots = pgClaimSlots(2);

/**
 * Claims deliveries (only those whose subscription is still active), with the subscription's
 * secret. $1 now, $2 maxVersion, $3 remaining, $4 perHost, $5 scan, $6 limit, $7 owner, $8 until.
 */
export const claimDeliveriesPgSql = `
WITH candidates AS (
  SELECT d.id, d.callback_host, d.due_at FROM websub_deliveries d
  WHERE d.due_at <= $1::bigint
    AND (d.claimed_until IS NULL OR d.claimed_until <= $1::bigint)
    AND d.min_version <= $2::bigint
    AND ${pgHostSlots('d', deliverySlots.remaining, deliverySlots.perHost)} > 0
    AND EXISTS (SELECT 1 FROM websub_subscriptions s
                WHERE s.topic = d.topic AND s.callback = d.callback AND s.expires_at > $1::bigint)
  ORDER BY d.due_at, d.id
  LIMIT ${deliverySlots.scan}
), ranked AS (
  SELECT id, callback_host,
         row_number() OVER (PARTITION BY callback_host ORDER BY due_at, id) AS n
  FROM candidates${pgLockAndStamp('websub_deliveries', 'd', deliverySlots)}
  RETURNING d.id, d.topic, d.callback, d.callback_host, d.min_version, d.attempts
)
SELECT c.id, c.topic, c.callback, c.callback_host, c.min_version, c.attempts, s.secret
FROM claimed c
LEFT JOIN websub_subscriptions s ON s.topic = c.topic AND s.callback = c.callback
ORDER BY c.id`;

/**
 * Claims intents: only the oldest pending intent of each (topic, callback), so they apply in
 * order. $1 now, $2 remaining, $3 perHost, $4 scan, $5 limit, $6 owner, $7 until.
 */
export const claimIntentsPgSql = `
WITH candidates AS (
  SELECT i.id, i.callback_host FROM websub_intents i
  WHERE (i.claimed_until IS NULL OR i.claimed_until <= $1::bigint)
    AND NOT EXISTS (SELECT 1 FROM websub_intents o
                    WHERE o.topic = i.topic AND o.callback = i.callback AND o.id < i.id)
    AND ${pgHostSlots('i', intentSlots.remaining, intentSlots.perHost)} > 0
  ORDER BY i.id
  LIMIT ${intentSlots.scan}
), ranked AS (
  SELECT id, callback_host, row_number() OVER (PARTITION BY callback_host ORDER BY id) AS n
  FROM candidates${pgLockAndStamp('websub_intents', 'i', intentSlots)}
  RETURNING i.id, i.mode, i.topic, i.callback, i.callback_host, i.secret, i.lease_seconds, i.reason
)
SELECT * FROM claimed ORDER BY id`;
