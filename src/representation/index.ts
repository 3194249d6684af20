/**
 * A prepared response body: identity bytes, strong ETag, Last-Modified, headers, and its gzip and
 * brotli codings, decided and made one way (`codings.ts`). Its bytes and tag never change; its
 * codings may arrive after it goes live (`PreparedRepresentation.addCodings`), identity being
 * served meanwhile.
 */
import { createHash } from 'node:crypto';
import {
  DEFER_CODINGS_ABOVE_BYTES,
  MIN_COMPRESS_BYTES,
  codingSettings,
} from '../platform/version-policy.js';
import {
  codingTime,
  makeCodingNow,
  makeCodings,
  makeCodingsNow,
  shared,
  toBuffer,
  type Coding,
  type Codings,
} from './codings.js';

export { makeCodingsNow, makeFollowingCodings, type Codings } from './codings.js';

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
  encoded(coding: Coding): Buffer | null;
}

export interface RepresentationOptions {
  contentType: string;
  lastModifiedMs: number;
  headers?: Record<string, string>;
}

/** How `prepareParts` treats the codings of a body (see `codingTime`). */
export interface PartsOptions extends RepresentationOptions {
  /**
   * The thread that prepares the parts makes the codings of a large body itself after it goes
   * live, and sends them (`makeFollowingCodings`, then `addCodings`): the thread that serves it
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

/**
 * A representation whose codings can be added after it goes live. Each coding is absent (made
 * on first demand, with the fast settings: a response computed per request), pending (made
 * elsewhere; identity is served), or made (`null` when not smaller than the identity bytes).
 */
export class PreparedRepresentation implements Representation {
  readonly etag: string;
  readonly lastModified: string;
  readonly contentType: string;
  readonly lastModifiedMs: number;
  readonly headers: Readonly<Record<string, string>>;
  private readonly codings = new Map<Coding, Buffer | null>();
  /** Codings being made elsewhere: served as identity until they are ready. */
  private readonly pending = new Set<Coding>();

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

  /** Stores a coding (kept only when it is smaller than the identity bytes). */
  private setEncoded(coding: Coding, bytes: Uint8Array | null): void {
    this.pending.delete(coding);
    this.codings.set(coding, bytes && bytes.length < this.body.length ? toBuffer(bytes) : null);
  }

  /** Its codings are being made elsewhere: identity is served until `addCodings`. */
  codingsPending(): void {
    this.pending.add('gzip');
    this.pending.add('br');
  }

  /** The codings made elsewhere arrive (`null`: that coding is not smaller). */
  addCodings(codings: Codings): void {
    this.setEncoded('gzip', codings.gzip);
    this.setEncoded('br', codings.br);
  }

  /**
   * Makes its codings in the thread pool after it went live (identity served meanwhile); should
   * that fail, identity stays (it is always right).
   */
  codeAfterLive(): void {
    this.codingsPending();
    const onEach = (coding: Coding, bytes: Uint8Array | null): void =>
      this.setEncoded(coding, bytes);
    makeCodings(this.body, { work: 'pool', onEach }).catch(() =>
      this.addCodings({ gzip: null, br: null }),
    );
  }

  encoded(coding: Coding): Buffer | null {
    if (this.pending.has(coding)) return null;
    if (!this.codings.has(coding)) {
      // Dynamic responses are compressed on first demand, once, with fast settings.
      const settings = codingSettings(this.body.length, true);
      this.setEncoded(coding, makeCodingNow(this.body, coding, settings));
    }
    return this.codings.get(coding) ?? null;
  }
}

const bytesOf = (body: Uint8Array | string): Buffer =>
  typeof body === 'string' ? Buffer.from(body) : toBuffer(body);

/**
 * Prepares a response body whose compressed forms are made lazily, on the first request that
 * accepts them (search and since responses, cached per data version).
 */
export function prepareRepresentation(
  body: Buffer | string,
  options: RepresentationOptions,
): Representation {
  return new PreparedRepresentation(bytesOf(body), options);
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
  const rep = new PreparedRepresentation(bytesOf(body), options);
  const time = codingTime(rep.body.length);
  if (time === 'before-live') rep.addCodings(await makeCodings(rep.body, { work: 'pool' }));
  else if (time === 'after-live') rep.codeAfterLive();
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
  readonly codings?: Codings;
  /** The codings (absent) follow from the thread that prepared the parts. */
  readonly codingsFollow?: boolean;
}

/**
 * Prepares the parts of a representation off the event loop: the ETag always, the codings now
 * for bodies coded before they go live (`codingTime`), later for the others: made by whoever
 * serves it, or, with `codingsFollow`, by this thread after the document goes live
 * (`makeFollowingCodings`).
 */
export function prepareParts(
  body: Uint8Array | string,
  options: PartsOptions,
): RepresentationParts {
  const input = typeof body === 'string' ? Buffer.from(body) : body;
  const follow = options.codingsFollow === true;
  const time = codingTime(input.length, follow ? options.followAbove : DEFER_CODINGS_ABOVE_BYTES);
  const bytes = shared(input);
  return {
    contentType: options.contentType,
    lastModifiedMs: options.lastModifiedMs,
    headers: { ...options.headers },
    body: bytes,
    etag: strongEtag(toBuffer(bytes)),
    ...(time !== 'after-live'
      ? { codings: makeCodingsNow(bytes, { shared: true }) }
      : follow
        ? { codingsFollow: true }
        : {}),
  };
}

/**
 * The representation of parts built elsewhere: no hashing on this thread. Codings that follow
 * from the thread that built them are added with `addCodings`; those of a large body built
 * without them are made here in the thread pool; identity is served meanwhile.
 */
export function restoreRepresentation(parts: RepresentationParts): PreparedRepresentation {
  const rep = new PreparedRepresentation(toBuffer(parts.body), parts, parts.etag);
  if (parts.codings) rep.addCodings(parts.codings);
  else if (parts.codingsFollow) rep.codingsPending();
  else if (parts.body.length >= MIN_COMPRESS_BYTES) rep.codeAfterLive();
  return rep;
}
