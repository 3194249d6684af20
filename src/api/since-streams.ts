import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Transform } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { Published } from '../snapshot/types.js';

/**
 * The slowest a large since result may be read: a stream whose connection takes fewer than
 * `bytes` (as sent, compressed or not) in any `windowMs` once its answer has begun is cut.
 */
export interface MinRate {
  readonly bytes: number;
  readonly windowMs: number;
}

/** 32 KiB in 30 s (about 1 KiB/s): a 110 MB answer at that pace would take 29 hours. */
export const DEFAULT_MIN_RATE: MinRate = Object.freeze({ bytes: 32 * 1024, windowMs: 30_000 });

/** Samples of each stream's bytes per window: the window slides by a sixth of itself. */
const SAMPLES = 6;

interface Stream {
  /** The data version it reads. */
  readonly version: number;
  readonly socket: Socket | null;
  /** The bytes its connection had taken at each of the last samples, oldest first. */
  readonly sent: number[];
}

/** Bytes a connection has taken from the service, those still queued in it included. */
function sent(socket: Socket | null): number {
  return socket?.bytesWritten ?? 0;
}

/**
 * The large since results being streamed, and the data version each one reads. A stream holds
 * its version's review bytes and, compressed, its compressor until it ends, so a client that reads
 * slowly (or not at all) could keep old versions and memory: at most `maxStreams` run at once
 * (more get a 503 with `Retry-After`), a stream whose connection takes less than `minRate` is cut,
 * and a stream whose version is two versions behind the live one is cut (the client sees a
 * truncated body, as with any dropped connection), so streams hold at most the live version and
 * the one before it. A client that stops reading altogether is also cut by the server's socket
 * timeout. `released` is called when a stream of a superseded version ends: its bytes can then be
 * collected.
 */
export class SinceStreams {
  private readonly active = new Map<ServerResponse, Stream>();
  private live: number;
  private previous: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    published: Published,
    readonly maxStreams: number,
    readonly minRate: MinRate = DEFAULT_MIN_RATE,
    private readonly released: () => void = () => {},
  ) {
    this.live = published.current().state.version;
    this.previous = this.live;
    published.onChange(({ version }) => {
      if (version === this.live) return; // a document that followed (the insights)
      this.previous = this.live;
      this.live = version;
      for (const [res, s] of this.active) if (s.version < this.previous) res.destroy();
    });
  }

  /** Streams under way. */
  get size(): number {
    return this.active.size;
  }

  /**
   * Registers a stream of `version` whose answer begins now, or returns false when `maxStreams`
   * are already running.
   */
  open(res: ServerResponse, version: number): boolean {
    if (this.active.size >= this.maxStreams) return false;
    this.active.set(res, { version, socket: res.socket, sent: [] });
    this.timer ??= setInterval(() => this.sample(), this.minRate.windowMs / SAMPLES).unref();
    res.once('close', () => {
      this.active.delete(res);
      if (this.active.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
      if (version !== this.live) this.released();
    });
    return true;
  }

  /**
   * Samples what each stream's connection has taken, and cuts those that took less than
   * `minRate.bytes` over the last window. A stream's first sample is taken a sixth of a window
   * or less after its answer began, so its first full window ends a window or more after that.
   */
  private sample(): void {
    for (const [res, stream] of this.active) {
      stream.sent.push(sent(stream.socket));
      if (stream.sent.length <= SAMPLES) continue;
      const moved = stream.sent.at(-1)! - stream.sent.shift()!;
      if (moved < this.minRate.bytes) res.destroy();
    }
  }
}

/**
 * The compressor of a streamed since result, with bounded memory whatever the result's size and
 * the reader's pace (measured once a stream is past its first megabytes, see docs/benchmarks.md):
 * brotli at quality 4 with a 256 KiB window (lgwin 18) holds about 2 MB, gzip at level 5 with a
 * 32 KiB window (windowBits 15, memLevel 8) under 1 MB. Brotli's default 4 MiB window (lgwin 22)
 * held about 9-12 MB per stream. Quality 5 compressed a little better (7.1 times against 7.0) at
 * well under half the speed: each slow reader costs what its connection's kernel buffers take
 * (up to 4 MB compressed on loopback), so speed counts. Its work runs in the thread pool.
 */
export function streamCompressor(coding: 'br' | 'gzip'): Transform {
  if (coding === 'gzip') return createGzip({ level: 5, windowBits: 15, memLevel: 8 });
  return createBrotliCompress({
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_LGWIN]: 18,
    },
  });
}
