import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Writable } from 'node:stream';
import { DOCUMENTS } from '../catalogue.js';
import { evaluatePreconditions, notModifiedHeaders } from '../http/conditional.js';
import { invalidRequest, preconditionFailed } from '../http/errors.js';
import { chooseCoding, type Coding } from '../http/negotiate.js';
import { COMMON_HEADERS, DATA_CACHE_CONTROL, sendRepresentation } from '../http/respond.js';
import { ServiceError } from '../platform/errors.js';
import { prepareRepresentation } from '../representation/index.js';
import { decodeCursor, encodeCursor, fingerprint } from '../reviews/cursor.js';
import { writeFragments } from '../reviews/dataset.js';
import { firstBefore } from '../reviews/search.js';
import type { SinceQuery } from '../reviews/search-schema.js';
import { sincePage } from '../reviews/since.js';
import type { Snapshot } from '../snapshot/types.js';
import { streamCompressor, type SinceStreams } from './since-streams.js';

/**
 * Above this many reviews a since result is streamed rather than prepared: a large result is a
 * slice of the whole dataset (110 MB at 100,000 reviews), written from the review bytes already
 * in memory a batch at a time, so no request holds the event loop.
 */
export const STREAM_FROM_REVIEWS = 2_000;

/** Bytes of review JSON written per turn of the event loop while streaming. */
const BATCH_BYTES = 256 * 1024;

/**
 * The same for a compressed stream: its compressor takes 64 KiB at a time (a job of a millisecond
 * or two in the thread pool), and a slow reader's stream holds two batches, not two of 256 KiB.
 */
const COMPRESSED_BATCH_BYTES = 64 * 1024;

function head(since: string, count: number): string {
  return `{"since":"${since}","count":${count},"reviews":[`;
}

/** `{ since, count, reviews }` of every review dated on or after `since`, oldest first. */
function prepared(snapshot: Snapshot, since: string, end: number) {
  const key = `since:${since}`;
  let rep = snapshot.responses.get(key);
  if (!rep) {
    rep = prepareRepresentation(
      writeFragments(head(since, end), end, (i) => snapshot.fragment(end - 1 - i), ']}'),
      { contentType: 'application/json', lastModifiedMs: Date.parse(snapshot.state.changedAt) },
    );
    snapshot.responses.set(key, rep);
  }
  return rep;
}

/** A paged result: `{ since, count, total, nextCursor, reviews }`, and a `Link` to the next page. */
function paged(
  req: IncomingMessage,
  res: ServerResponse,
  snapshot: Snapshot,
  since: string,
  query: SinceQuery & { limit: number },
  baseUrl: string,
): void {
  const print = fingerprint({ date: since });
  let after;
  if (query.cursor !== undefined) {
    after = decodeCursor(query.cursor, print);
    if (!after) {
      throw invalidRequest([
        { path: ['cursor'], code: 'invalid_cursor', message: 'is not a cursor of this date' },
      ]);
    }
  }
  const key = `since:${since}:${query.limit}:${query.cursor ?? ''}`;
  let rep = snapshot.responses.get(key);
  if (!rep) {
    const page = sincePage(snapshot.index, since, query.limit, after);
    const next = page.next ? encodeCursor(page.next, print) : null;
    const head = `{"since":"${since}","count":${page.positions.length},"total":${page.total},"nextCursor":${JSON.stringify(next)},"reviews":[`;
    rep = prepareRepresentation(
      writeFragments(
        head,
        page.positions.length,
        (i) => snapshot.fragment(page.positions[i]!),
        ']}',
      ),
      {
        contentType: 'application/json',
        lastModifiedMs: Date.parse(snapshot.state.changedAt),
        headers: next
          ? {
              Link: `<${baseUrl}/api/reviews/since/${since}?limit=${query.limit}&cursor=${next}>; rel="next"`,
            }
          : {},
      },
    );
    snapshot.responses.set(key, rep);
  }
  sendRepresentation(req, res, rep);
}

/** A strong tag for a streamed result: the dataset's bytes and the date fix its bytes. */
function streamedEtag(snapshot: Snapshot, since: string): string {
  const dataset =
    snapshot.representations.get(DOCUMENTS.reviews.path)?.etag ?? snapshot.state.version;
  const hash = createHash('sha1').update(`${dataset} since ${since}`).digest('base64url');
  return `"s${hash}"`;
}

/** Writes `chunk`, waiting for the sink to drain when its buffer is full (or to close). */
async function write(sink: Writable, chunk: Buffer): Promise<void> {
  if (sink.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      sink.off('drain', done);
      sink.off('close', done);
      resolve();
    };
    sink.on('drain', done);
    sink.on('close', done);
  });
}

/**
 * The headers of a streamed result in `coding` (no `Content-Length` when compressed: its size is
 * known only once sent), and its validators for conditional requests.
 */
function streamedHeaders(snapshot: Snapshot, since: string, end: number, coding: Coding) {
  const base = streamedEtag(snapshot, since);
  const etag = coding === 'identity' ? base : `${base.slice(0, -1)}-${coding}"`;
  const lastModifiedMs = Date.parse(snapshot.state.changedAt);
  const validators = {
    ...COMMON_HEADERS,
    'Cache-Control': DATA_CACHE_CONTROL,
    Vary: 'Accept-Encoding',
    ETag: etag,
    'Last-Modified': new Date(Math.floor(lastModifiedMs / 1000) * 1000).toUTCString(),
  };
  const headers: Record<string, string | number> = {
    ...validators,
    'Content-Type': 'application/json',
  };
  if (coding === 'identity') {
    const fragment = snapshot.fragments();
    let size = Buffer.byteLength(head(since, end)) + 2 + Math.max(0, end - 1);
    for (let pos = 0; pos < end; pos++) size += fragment(pos).length;
    headers['Content-Length'] = size;
  } else headers['Content-Encoding'] = coding;
  const equivalent = [base, `${base.slice(0, -1)}-gzip"`, `${base.slice(0, -1)}-br"`];
  return { validators, headers, check: { etag, equivalent, lastModifiedMs } };
}

/**
 * Streams a large since result from the review bytes in memory: batches of about 256 KB (64 KB
 * compressed), one per turn of the event loop, compressed on the fly (in the thread pool, with
 * bounded memory: `streamCompressor`) when the client accepts it, never faster than the
 * connection takes them. Conditional requests and HEAD are answered like those of prepared
 * documents. While it is sent it holds only the review bytes of its version, not the version; a
 * reader slower than the streams' floor rate is cut (`SinceStreams`).
 */
function streamed(
  req: IncomingMessage,
  res: ServerResponse,
  snapshot: Snapshot,
  since: string,
  end: number,
  streams: SinceStreams,
): Promise<void> | void {
  const accept = req.headers['accept-encoding'];
  const coding = accept ? chooseCoding(accept, ['br', 'gzip']) : 'identity';
  const { validators, headers, check } = streamedHeaders(snapshot, since, end, coding);
  const h = req.headers;
  if (h['if-none-match'] || h['if-modified-since'] || h['if-match'] || h['if-unmodified-since']) {
    const outcome = evaluatePreconditions(h, check);
    if (outcome === 'not-modified') {
      res.writeHead(304, notModifiedHeaders(validators));
      res.end();
      return;
    }
    if (outcome === 'failed') throw preconditionFailed();
  }
  if (req.method === 'HEAD') {
    res.writeHead(200, headers);
    res.end();
    return;
  }
  if (!streams.open(res, snapshot.state.version)) {
    throw new ServiceError(
      'busy',
      `${streams.maxStreams} large since results are being sent; retry later, or page with ?limit=.`,
      { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
    );
  }
  res.writeHead(200, headers);
  let sink: Writable = res;
  if (coding !== 'identity') {
    const zip = streamCompressor(coding);
    zip.pipe(res);
    res.on('close', () => zip.destroy());
    sink = zip;
  }
  // Not an async function: its frame (and the snapshot) is gone once the bytes are on their way.
  const batchBytes = coding === 'identity' ? BATCH_BYTES : COMPRESSED_BATCH_BYTES;
  return pump(res, sink, snapshot.fragments(), Buffer.from(head(since, end)), end, batchBytes);
}

/**
 * Writes `chunk` and resolves once the sink has consumed it (written it out, or compressed it),
 * or has closed: the bytes may then be overwritten.
 */
function consumed(sink: Writable, chunk: Buffer): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      sink.off('close', done);
      resolve();
    };
    sink.on('close', done);
    sink.write(chunk, done);
  });
}

/**
 * Writes `{head}` and then the reviews at positions end-1 down to 0 (oldest first), copied into
 * two batch buffers of its own in turn: each is refilled once the sink has consumed it, which also
 * bounds what waits in the sink to two batches. A buffer per batch (672 MB of them for six
 * streams of 100,000 reviews) made V8 run a full collection on the event loop's thread every
 * 30 MB or so.
 */
async function pump(
  res: ServerResponse,
  sink: Writable,
  fragment: (pos: number) => Buffer,
  open: Buffer,
  end: number,
  batchBytes: number,
): Promise<void> {
  await write(sink, open);
  const buffers = [Buffer.allocUnsafe(batchBytes), Buffer.allocUnsafe(batchBytes)];
  const writing: (Promise<void> | null)[] = [null, null];
  let turn = 0;
  let pos = end - 1;
  while (pos >= 0) {
    if (res.destroyed) return;
    await writing[turn];
    if (res.destroyed) return;
    let batch = buffers[turn]!;
    let at = 0;
    while (pos >= 0) {
      const bytes = fragment(pos);
      const comma = pos === end - 1 ? 0 : 1;
      if (at + comma + bytes.length > batch.length) {
        if (at > 0) break;
        // A review longer than a batch (none is, at today's limits) gets a buffer its size.
        batch = buffers[turn] = Buffer.allocUnsafe(comma + bytes.length);
      }
      if (comma) batch[at++] = 0x2c; // ','
      at += bytes.copy(batch, at);
      pos--;
    }
    if (at > 0) writing[turn] = consumed(sink, batch.subarray(0, at));
    turn = 1 - turn;
    await nextTurn();
  }
  await Promise.all(writing);
  if (!res.destroyed) sink.end(CLOSE);
}

/** When a client may try again after a 503 for too many streams. */
const RETRY_AFTER_SECONDS = 5;

const CLOSE = Buffer.from(']}');

/**
 * `GET /api/reviews/since/{date}`: every review dated on or after the date, oldest first, as
 * `{ since, count, reviews }` (prepared for small results, streamed for large ones); with `limit`
 * (and then `cursor`), one page at a time as `{ since, count, total, nextCursor, reviews }`.
 */
export function sendSince(
  req: IncomingMessage,
  res: ServerResponse,
  snapshot: Snapshot,
  since: string,
  query: SinceQuery,
  baseUrl: string,
  streams: SinceStreams,
): Promise<void> | void {
  if (query.limit !== undefined) {
    paged(req, res, snapshot, since, { ...query, limit: query.limit }, baseUrl);
    return;
  }
  if (query.cursor !== undefined) {
    throw invalidRequest([
      { path: ['cursor'], code: 'invalid_cursor', message: 'is only valid with limit' },
    ]);
  }
  const end = firstBefore(snapshot.index, since);
  if (end <= STREAM_FROM_REVIEWS) sendRepresentation(req, res, prepared(snapshot, since, end));
  else return streamed(req, res, snapshot, since, end, streams);
}
