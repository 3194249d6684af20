import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { once } from 'node:events';
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

/** One prepared response body: built once per data version, served from memory. */
export interface Representation {
  readonly contentType: string;
  /** The identity bytes. */
  readonly body: Buffer;
  /** Strong entity tag of the identity bytes, quoted (`"..."`). */
  readonly etag: string;
  /** HTTP-date of the newest change to the published data. */
  readonly lastModified: string;
  readonly lastModifiedMs: number;
  /** Extra response headers (Link, Cache-Control). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body in a content coding, or `null` when that coding would not make it smaller. */
  encoded(coding: 'gzip' | 'br'): Buffer | null;
}

const gzipAsync = promisify<Buffer, ZlibOptions, Buffer>(gzip);
const brotliAsync = promisify<Buffer, BrotliOptions, Buffer>(brotliCompress);

/** Bodies smaller than this are never compressed: the saving does not pay for the work. */
const MIN_COMPRESS_BYTES = 1024;

export interface RepresentationOptions {
  contentType: string;
  lastModifiedMs: number;
  headers?: Record<string, string>;
}

/** How `prepareParts` treats the codings of a body over 4 MiB. */
export interface PartsOptions extends RepresentationOptions {
  /**
   * The thread that prepares the parts makes the codings of a large body itself after it goes
   * live, and sends them (`makeLargeCodings`, then `addCodings`): the thread that serves it
   * compresses nothing. Unset, that thread compresses them in its thread pool.
   */
  codingsFollow?: boolean;
  /**
   * With `codingsFollow`: the codings of bodies over this many bytes follow (default 4 MiB); a
   * smaller body gets them at once. The build worker makes every version after the first go live
   * before its codings (0): compressing the feeds and the dataset with the best settings took
   * most of a small store's rebuild (0.3 s of 0.4 s at 2,800 reviews).
   */
  followAbove?: number;
}

function strongEtag(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

function httpDate(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toUTCString();
}

function brotliParams(size: number, quality: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

/** A representation whose codings can be added after it goes live. */
export class PreparedRepresentation implements Representation {
  readonly etag: string;
  readonly lastModified: string;
  readonly contentType: string;
  readonly lastModifiedMs: number;
  readonly headers: Readonly<Record<string, string>>;
  private readonly codings = new Map<'gzip' | 'br', Buffer | null>();
  /** Codings being made in the background: served as identity until they are ready. */
  private readonly pending = new Set<'gzip' | 'br'>();

  constructor(
    readonly body: Buffer,
    options: RepresentationOptions,
    etag?: string,
  ) {
    this.etag = etag ?? strongEtag(body);
    this.contentType = options.contentType;
    this.lastModifiedMs = options.lastModifiedMs;
    this.lastModified = httpDate(options.lastModifiedMs);
    this.headers = Object.freeze({ ...options.headers });
    if (body.length < MIN_COMPRESS_BYTES) {
      this.codings.set('gzip', null);
      this.codings.set('br', null);
    }
  }

  /** Stores a precomputed coding (kept only when it is smaller than the identity bytes). */
  setEncoded(coding: 'gzip' | 'br', bytes: Buffer): void {
    this.pending.delete(coding);
    this.codings.set(coding, bytes.length < this.body.length ? bytes : null);
  }

  /** Marks a coding as being made in the background. */
  setPending(coding: 'gzip' | 'br'): void {
    this.pending.add(coding);
  }

  encoded(coding: 'gzip' | 'br'): Buffer | null {
    if (this.pending.has(coding)) return null;
    if (!this.codings.has(coding)) {
      // Dynamic responses are compressed on first demand, once, with fast settings.
      const bytes =
        coding === 'gzip'
          ? gzipSync(this.body, { level: 5 })
          : brotliCompressSync(this.body, brotliParams(this.body.length, 4));
      this.setEncoded(coding, bytes);
    }
    return this.codings.get(coding) ?? null;
  }
}

/**
 * Prepares a response body whose compressed forms are made lazily, on the first request that
 * accepts them (search and since responses, cached per data version).
 */
export function prepareRepresentation(
  body: Buffer | string,
  options: RepresentationOptions,
): Representation {
  return new PreparedRepresentation(typeof body === 'string' ? Buffer.from(body) : body, options);
}

/** Documents above this size are compressed after they go live (identity is served meanwhile). */
const DEFER_COMPRESSION_BYTES = 4 * 1024 * 1024;

async function compressBoth(rep: PreparedRepresentation): Promise<void> {
  const size = rep.body.length;
  const quality = size <= 512 * 1024 ? 11 : size <= DEFER_COMPRESSION_BYTES ? 9 : 4;
  // One after the other: one thread of the pool, not two, beside the event loop.
  rep.setEncoded(
    'gzip',
    await gzipAsync(rep.body, { level: size <= DEFER_COMPRESSION_BYTES ? 9 : 5 }),
  );
  rep.setEncoded('br', await brotliAsync(rep.body, brotliParams(size, quality)));
}

/**
 * Prepares a document served on every request (datasets and feeds): gzip and brotli are made in
 * the thread pool with the best settings that keep a rebuild quick. Up to 4 MiB they are ready
 * before the document goes live; larger documents (a dataset of many thousand reviews) go live at
 * once and gain their compressed forms a moment later, so a data change is published sooner.
 */
export async function precompressRepresentation(
  body: Buffer | string,
  options: RepresentationOptions,
): Promise<Representation> {
  const rep = new PreparedRepresentation(
    typeof body === 'string' ? Buffer.from(body) : body,
    options,
  );
  const size = rep.body.length;
  if (size < MIN_COMPRESS_BYTES) return rep;
  if (size <= DEFER_COMPRESSION_BYTES) {
    await compressBoth(rep);
    return rep;
  }
  rep.setPending('gzip');
  rep.setPending('br');
  compressBoth(rep).catch(() => {
    // Compression failing leaves the identity bytes, which are always correct.
    rep.setEncoded('gzip', rep.body);
    rep.setEncoded('br', rep.body);
  });
  return rep;
}

/**
 * A representation as built off the event loop (in the build worker): its bytes, strong ETag and,
 * when made already, its codings. Every buffer is in shared memory, so the parts move to another
 * thread without a copy, and the thread that made them can still read them (`codingsFollow`).
 */
export interface RepresentationParts {
  readonly contentType: string;
  readonly lastModifiedMs: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly etag: string;
  /** The codings: `null` when not smaller than the body, absent when they follow later. */
  readonly codings?: { gzip: Uint8Array | null; br: Uint8Array | null };
  /** The codings (absent) follow from the thread that prepared the parts. */
  readonly codingsFollow?: boolean;
}

/**
 * The bytes in a `SharedArrayBuffer` of their own (copied unless they are in one already:
 * `/reviews.json` is a view a few bytes into its buffer, see `ReviewsDocumentWriter`). Prepared
 * parts are handed to the service's thread this way: threads share them without a copy, and the
 * receiving thread's collector does not count them as its external memory (`platform/arrays`).
 */
function shared(bytes: Uint8Array): Uint8Array {
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

/**
 * Makes the gzip and brotli forms of a body of up to 4 MiB, synchronously (for a worker thread),
 * with the settings of `precompressRepresentation`; a coding that is not smaller is `null`.
 */
export function makeCodings(body: Uint8Array): { gzip: Uint8Array | null; br: Uint8Array | null } {
  const size = body.length;
  if (size < MIN_COMPRESS_BYTES) return { gzip: null, br: null };
  const quality = size <= 512 * 1024 ? 11 : 9;
  const gz = gzipSync(body, { level: 9 });
  const br = brotliCompressSync(body, brotliParams(size, quality));
  return {
    gzip: gz.length < size ? shared(gz) : null,
    br: br.length < size ? shared(br) : null,
  };
}

/** Bytes handed to a compressor at a time: a new build can stop it between two of them. */
const PIECE_BYTES = 1024 * 1024;

/** Compresses `body` in the thread pool, a piece at a time; rejects once `signal` aborts. */
async function compressPieces(
  body: Uint8Array,
  coding: 'gzip' | 'br',
  signal: AbortSignal,
): Promise<Uint8Array> {
  const zip =
    coding === 'gzip'
      ? createGzip({ level: 5, chunkSize: PIECE_BYTES })
      : createBrotliCompress({ ...brotliParams(body.length, 4), chunkSize: PIECE_BYTES });
  const out: Buffer[] = [];
  zip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    zip.once('end', resolve);
    zip.once('error', reject);
  });
  const stop = (): void => void zip.destroy(new Error('a newer version is being built'));
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (let at = 0; at < body.length && !signal.aborted; at += PIECE_BYTES) {
      if (!zip.write(body.subarray(at, at + PIECE_BYTES))) await once(zip, 'drain');
    }
    signal.throwIfAborted();
    zip.end();
    await ended;
  } finally {
    signal.removeEventListener('abort', stop);
  }
  return joinShared(out);
}

/**
 * The gzip and brotli forms of a body over 4 MiB (for the build worker, after the version went
 * live), with the fast settings the thread pool uses for them (`precompressRepresentation`): made
 * one after the other in the thread pool, a megabyte at a time, so that the worker keeps
 * answering and a newer build stops them (`signal`). A coding that is not smaller is `null`.
 */
export async function makeLargeCodings(
  body: Uint8Array,
  signal: AbortSignal,
): Promise<{ gzip: Uint8Array | null; br: Uint8Array | null }> {
  const gz = await compressPieces(body, 'gzip', signal);
  const br = await compressPieces(body, 'br', signal);
  return {
    gzip: gz.length < body.length ? gz : null,
    br: br.length < body.length ? br : null,
  };
}

/**
 * Prepares the parts of a representation off the event loop: the ETag always, the codings now
 * for documents up to 4 MiB and later above (made by whoever serves it, or, with
 * `codingsFollow`, by this thread after the document goes live: `makeFollowingCodings`).
 */
export function prepareParts(
  body: Uint8Array | string,
  options: PartsOptions,
): RepresentationParts {
  const input = typeof body === 'string' ? Buffer.from(body) : body;
  const follows =
    options.codingsFollow === true &&
    input.length >= MIN_COMPRESS_BYTES &&
    input.length > (options.followAbove ?? DEFER_COMPRESSION_BYTES);
  const bytes = shared(input);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const small = bytes.length <= DEFER_COMPRESSION_BYTES;
  return {
    contentType: options.contentType,
    lastModifiedMs: options.lastModifiedMs,
    headers: { ...options.headers },
    body: bytes,
    etag: strongEtag(buffer),
    ...(follows ? { codingsFollow: true } : small ? { codings: makeCodings(bytes) } : {}),
  };
}

/**
 * The codings of a body whose parts said they follow (`codingsFollow`), made in the thread pool:
 * up to 4 MiB the same bytes as `makeCodings` (the best settings), above them those of
 * `makeLargeCodings`. Rejects once `signal` aborts (a newer build).
 */
export async function makeFollowingCodings(
  body: Uint8Array,
  signal: AbortSignal,
): Promise<{ gzip: Uint8Array | null; br: Uint8Array | null }> {
  const size = body.length;
  if (size > DEFER_COMPRESSION_BYTES) return makeLargeCodings(body, signal);
  if (size < MIN_COMPRESS_BYTES) return { gzip: null, br: null };
  const input = toBuffer(body);
  const gz = await gzipAsync(input, { level: 9 });
  signal.throwIfAborted();
  const br = await brotliAsync(input, brotliParams(size, size <= 512 * 1024 ? 11 : 9));
  signal.throwIfAborted();
  return {
    gzip: gz.length < size ? shared(gz) : null,
    br: br.length < size ? shared(br) : null,
  };
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The representation of parts built elsewhere: no hashing or compressing on this thread. Codings
 * that follow later are added with `addCodings`; until then the identity bytes are served.
 */
export function restoreRepresentation(parts: RepresentationParts): PreparedRepresentation {
  const rep = new PreparedRepresentation(toBuffer(parts.body), parts, parts.etag);
  if (parts.codings) addCodings(rep, parts.codings);
  else if (parts.codingsFollow) {
    // The thread that built it sends them (`addCodings`); identity is served meanwhile.
    rep.setPending('gzip');
    rep.setPending('br');
  } else if (parts.body.length >= MIN_COMPRESS_BYTES) {
    // A large document goes live at once; its codings are made in the thread pool meanwhile.
    rep.setPending('gzip');
    rep.setPending('br');
    compressBoth(rep).catch(() => {
      rep.setEncoded('gzip', rep.body);
      rep.setEncoded('br', rep.body);
    });
  }
  return rep;
}

/** Adds codings made elsewhere to a live representation. */
export function addCodings(
  rep: PreparedRepresentation,
  codings: { gzip: Uint8Array | null; br: Uint8Array | null },
): void {
  rep.setEncoded('gzip', codings.gzip ? toBuffer(codings.gzip) : rep.body);
  rep.setEncoded('br', codings.br ? toBuffer(codings.br) : rep.body);
}
