/**
 * The tuning of a data version's life, in one place: how its documents are coded, when the build
 * worker waits, how long it keeps warm, how its work is sliced, how the publisher looks for
 * changes. Each value carries the measurement it rests on (the benchmarks' commands and today's
 * figures are in docs/benchmarks.md). It lives in `platform` because every layer of a version's
 * life reads it: the representation (codings), the snapshot (builder, publisher), the build worker
 * and the service's wiring. Pure values: nothing here runs.
 */

const KiB = 1024;
const MiB = 1024 * KiB;

// ---- Codings -------------------------------------------------------------------------------

/** Bodies smaller than this are never compressed: the saving does not pay for the work. */
export const MIN_COMPRESS_BYTES = 1 * KiB;

/**
 * Documents above this size go live before their codings, which follow (identity is served
 * meanwhile); up to it they go live with them. Above it they are also coded with the fast
 * settings (`codingSettings`): the best ones took seconds on a dataset of many thousand reviews.
 */
export const DEFER_CODINGS_ABOVE_BYTES = 4 * MiB;

/** Up to this size a document's brotli is made at quality 11; above it at 9 (up to 4 MiB). */
export const BEST_BROTLI_UP_TO_BYTES = 512 * KiB;

/** Bytes handed to a compressor at a time for a large body: a new build can stop it between two. */
export const CODING_PIECE_BYTES = 1 * MiB;

/** The zlib settings of one body's gzip and brotli codings. */
export interface CodingSettings {
  gzipLevel: number;
  brotliQuality: number;
}

/**
 * The one rule for a body's coding settings. A document served on every request (datasets,
 * feeds, pages, the OpenAPI document) gets the best settings that keep a rebuild quick: gzip 9,
 * brotli 11 up to 512 KiB and 9 up to 4 MiB; above 4 MiB, and for a response computed on demand
 * (search, since; `dynamic`), the fast ones, gzip 5 and brotli 4, made once.
 */
export function codingSettings(size: number, dynamic = false): CodingSettings {
  if (dynamic || size > DEFER_CODINGS_ABOVE_BYTES) return { gzipLevel: 5, brotliQuality: 4 };
  return { gzipLevel: 9, brotliQuality: size <= BEST_BROTLI_UP_TO_BYTES ? 11 : 9 };
}

// ---- The build worker ------------------------------------------------------------------------

/**
 * A worker that holds more than this (heap and array buffers) once a version and its insights are
 * done is stopped, and the next version is built by a fresh one: the service's memory stays
 * bounded between changes and at the peak of the next build, and the insights of a large store
 * follow a few seconds later (the analyses are read back from the store). Smaller stores keep
 * their worker warm: an idle worker holds about 35 MB with the bundled sample (1,800 reviews) and
 * 84 MB at 100,000 reviews, where its insights' caches are about 39 MB of heap and 11 MB of
 * columns. Kept warm at that size, the worker held about 100 MB more RSS between changes
 * (settled RSS 418-487 MB against 330-341 MB), and the builds of changes peaked at 606-639 MB
 * instead of 529-533 MB.
 */
export const RECYCLE_ABOVE_BYTES = 64 * MiB;

/**
 * The build worker's young generation (V8's nursery, where the records of a build are parsed):
 * V8's default let it grow to tens of MB, which the peak of a build at 100,000 reviews carried on
 * top of everything else; at 8 MB the peak of a one-review change there fell from 711-754 to
 * 672-684 MB (import peak 597-601 -> 570-574 MB), build times unchanged, insights 0.2-1 s later.
 */
export const YOUNG_GENERATION_MB = 8;

/**
 * How long a worker that still owes follow-up work may take to say how much it holds before a
 * build: past it the worker counts as busy (a long step of a large store's insights: the build
 * would wait for it, 3 s at 100,000 reviews) and a fresh one builds.
 */
export const BUSY_ANSWER_MS = 100;

/**
 * The follow-up work of a version whose `/reviews.json` is larger than `aboveBytes` (its codings,
 * and its insights, which parse its facts: 55 MB at 100,000 reviews) waits until the service's
 * thread has let the previous version go, at most `ms`: the facts are then not parsed while two
 * versions are held, and the codings do not take the cores while the service's thread takes the
 * new version in (a CPU profile there showed 17 ms of its own work spread over a 104 ms gap while
 * the worker compressed). Smaller versions do not wait: their facts are small, their codings quick.
 */
export const RELEASE_WAIT = { ms: 3_000, aboveBytes: 4 * MiB } as const;

/**
 * A second after each new version the service's thread collects garbage (the previous version's
 * buffers are freed only then, which a quiet heap seldom does), when most requests that held the
 * old version are done, then tells the worker it has let it go.
 */
export const COLLECT_AFTER_VERSION_MS = 1_000;

/**
 * An idle worker collects garbage this many times, this far apart, before it says how much it
 * holds: V8 shrinks the heap over a few collections; an idle worker would otherwise keep it all.
 */
export const IDLE_COLLECTIONS = { times: 3, apartMs: 300 } as const;

// ---- Slices of long work ---------------------------------------------------------------------

/** Reviews whose facts are parsed between two pauses when the insights read a version again. */
export const FACTS_SLICE = 2_000;

// ---- The publisher ---------------------------------------------------------------------------

/**
 * The poll of a store that announces its commits, while it listens: a safety net. Whenever it
 * does not listen (before it first does, after a lost link), the publisher polls every
 * `DATA_POLL_MS`.
 */
export const WATCHED_POLL_MS = 30_000;

/** A store that announces its commits and does not listen this long after the start is logged. */
export const LISTEN_GRACE_MS = 10_000;

/**
 * A failed refresh (the database away, restarting, a build worker that failed) is tried again
 * after 0.5 s, then twice as long after each failure, up to 10 s: the next version is published
 * within seconds of the database's return, while a long outage costs a query every 10 s.
 */
export const RETRY_MS = { firstMs: 500, maxMs: 10_000 } as const;

/** The bytes of the responses a version keeps computed (search, since), dropped with it. */
export const RESPONSE_CACHE_BYTES = 64 * MiB;
