/**
 * The one way a representation's codings are decided and made: `codingTime` says when (never,
 * before the body goes live, or after), `codingSettings` (the policy) says with which settings,
 * and `makeCodings` makes them, in this thread, in the thread pool, or in the thread pool a piece
 * at a time (stoppable by a newer build). A coding that would not be smaller is `null`.
 */
import { once } from 'node:events';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  gzipSync,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';
import { sharedBytes, toShared } from '../platform/arrays.js';
import {
  CODING_PIECE_BYTES,
  DEFER_CODINGS_ABOVE_BYTES,
  MIN_COMPRESS_BYTES,
  codingSettings,
  type CodingSettings,
} from '../platform/version-policy.js';

export type Coding = 'gzip' | 'br';

/** A body's gzip and brotli forms; `null` where that coding would not make it smaller. */
export interface Codings {
  gzip: Uint8Array | null;
  br: Uint8Array | null;
}

/** When a body's codings are made: never (too small), before it goes live, or after. */
export type CodingTime = 'never' | 'before-live' | 'after-live';

/**
 * The one decision of when a body's codings are made: never below `MIN_COMPRESS_BYTES`, before
 * it goes live up to `followAbove` (4 MiB unless the build worker says otherwise), after above.
 */
export function codingTime(size: number, followAbove = DEFER_CODINGS_ABOVE_BYTES): CodingTime {
  if (size < MIN_COMPRESS_BYTES) return 'never';
  return size <= followAbove ? 'before-live' : 'after-live';
}

/**
 * Where codings are made off this thread: `pool` in the thread pool in one piece, `pieces` in the
 * thread pool a megabyte at a time (a large body in the build worker: it keeps answering, and a
 * newer build stops it). `makeCodingsNow` makes them in this thread.
 */
export type CodingWork = 'pool' | 'pieces';

export interface MakeCodingsOptions {
  work: CodingWork;
  /** The settings (`codingSettings(size)` unless given). */
  settings?: CodingSettings;
  /** The codings go to another thread: they are made in shared memory. */
  shared?: boolean;
  /** Stops the work between two steps (rejects once aborted). */
  signal?: AbortSignal;
  /** Told of each coding as soon as it is made (gzip first), before both are returned. */
  onEach?: (coding: Coding, bytes: Uint8Array | null) => void;
}

const gzipAsync = promisify<Uint8Array, ZlibOptions, Buffer>(gzip);
const brotliAsync = promisify<Uint8Array, BrotliOptions, Buffer>(brotliCompress);

function brotliParams(size: number, quality: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

/** The bytes as a `Buffer` over the same memory. */
export function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The bytes in a `SharedArrayBuffer` of their own (copied unless they are in one already:
 * `/reviews.json` is a view a few bytes into its buffer, see `ReviewsDocumentWriter`). Prepared
 * parts are handed to the service's thread this way: threads share them without a copy, and the
 * receiving thread's collector does not count them as its external memory (`platform/arrays`).
 */
export function shared(bytes: Uint8Array): Uint8Array {
  return bytes.buffer instanceof SharedArrayBuffer ? bytes : toShared(bytes);
}

/** `chunks` joined in shared memory (a compressor's output). */
function joinShared(chunks: readonly Buffer[]): Uint8Array {
  let size = 0;
  for (const c of chunks) size += c.length;
  const out = sharedBytes(size);
  let at = 0;
  for (const c of chunks) at += c.copy(out, at);
  return new Uint8Array(out.buffer, 0, size);
}

/** Compresses `body` in the thread pool, a piece at a time; rejects once `signal` aborts. */
async function compressPieces(
  body: Uint8Array,
  coding: Coding,
  settings: CodingSettings,
  signal: AbortSignal | undefined,
): Promise<Uint8Array> {
  const chunkSize = CODING_PIECE_BYTES;
  const zip =
    coding === 'gzip'
      ? createGzip({ level: settings.gzipLevel, chunkSize })
      : createBrotliCompress({
          ...brotliParams(body.length, settings.brotliQuality),
          chunkSize,
        });
  const out: Buffer[] = [];
  zip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    zip.once('end', resolve);
    zip.once('error', reject);
  });
  // Awaited only once the whole body is written: an abort before that throws here and leaves it
  // unawaited, rejected by the same abort (left unhandled, it killed the build worker's thread
  // with an error-level log when a service stopped during a rebuild).
  ended.catch(() => undefined);
  const stop = (): void => void zip.destroy(new Error('a newer version is being built'));
  signal?.addEventListener('abort', stop, { once: true });
  try {
    for (let at = 0; at < body.length && !signal?.aborted; at += chunkSize) {
      if (!zip.write(body.subarray(at, at + chunkSize))) await once(zip, 'drain');
    }
    signal?.throwIfAborted();
    zip.end();
    await ended;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  return joinShared(out);
}

/** One coding of `body`, made in this thread. */
export function makeCodingNow(body: Uint8Array, coding: Coding, settings: CodingSettings): Buffer {
  return coding === 'gzip'
    ? gzipSync(body, { level: settings.gzipLevel })
    : brotliCompressSync(body, brotliParams(body.length, settings.brotliQuality));
}

/** One coding of `body`, made where `work` says. */
async function makeCoding(
  body: Uint8Array,
  coding: Coding,
  settings: CodingSettings,
  options: MakeCodingsOptions,
): Promise<Uint8Array> {
  const { work, signal } = options;
  if (work === 'pieces') return compressPieces(body, coding, settings, signal);
  const bytes =
    coding === 'gzip'
      ? await gzipAsync(body, { level: settings.gzipLevel })
      : await brotliAsync(body, brotliParams(body.length, settings.brotliQuality));
  signal?.throwIfAborted();
  return bytes;
}

/** `makeCodings` in this thread: for a worker's own work. */
export function makeCodingsNow(
  body: Uint8Array,
  options: Omit<MakeCodingsOptions, 'work' | 'signal'> = {},
): Codings {
  const size = body.length;
  if (size < MIN_COMPRESS_BYTES) return { gzip: null, br: null };
  const settings = options.settings ?? codingSettings(size);
  const keep = keeper(size, options.shared === true);
  return {
    gzip: keep(makeCodingNow(body, 'gzip', settings)),
    br: keep(makeCodingNow(body, 'br', settings)),
  };
}

/**
 * Makes a body's gzip and brotli codings, one after the other (one thread of the pool, not two,
 * beside the event loop), with `codingSettings(size)` unless other settings are given.
 */
export async function makeCodings(body: Uint8Array, options: MakeCodingsOptions): Promise<Codings> {
  const size = body.length;
  if (size < MIN_COMPRESS_BYTES) return { gzip: null, br: null };
  const settings = options.settings ?? codingSettings(size);
  const keep = keeper(size, options.shared === true);
  const gz = keep(await makeCoding(body, 'gzip', settings, options));
  options.onEach?.('gzip', gz);
  const br = keep(await makeCoding(body, 'br', settings, options));
  options.onEach?.('br', br);
  return { gzip: gz, br };
}

/** A coding as kept: `null` when not smaller than the body, in shared memory when asked. */
function keeper(size: number, inShared: boolean): (bytes: Uint8Array) => Uint8Array | null {
  return (bytes) => (bytes.length < size ? (inShared ? shared(bytes) : bytes) : null);
}

/**
 * The codings of a body whose parts said they follow (the build worker, after the version went
 * live): up to 4 MiB in the thread pool in one piece, above it a megabyte at a time, with
 * `codingSettings(size)`, in shared memory. Rejects once `signal` aborts (a newer build).
 */
export function makeFollowingCodings(body: Uint8Array, signal: AbortSignal): Promise<Codings> {
  const work = body.length > DEFER_CODINGS_ABOVE_BYTES ? 'pieces' : 'pool';
  return makeCodings(body, { work, shared: true, signal });
}
