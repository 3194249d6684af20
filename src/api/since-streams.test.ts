import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Transform } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { streamCompressor } from './since-streams.js';

const run = promisify(execFile);

/** This module as compiled (the unit project's setup builds it first). */
const COMPILED = join(import.meta.dirname, '../../dist/src/api/since-streams.js');

const WORDS =
  'the service was quick and friendly oil change tires brakes waited an hour great team Ann Bo helped us explain price fair again never'.split(
    ' ',
  );

/** About `bytes` of review-like JSON, varied (a seeded generator), `{"reviews":[...]}`. */
function reviewsJson(bytes: number): Buffer {
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = Array.from({ length: 20 + next(60) }, () => WORDS[next(WORDS.length)]).join(' ');
    const part = JSON.stringify({ id: `r${i}-${next(1e9)}`, rating: 1 + next(5), text });
    parts.push(part);
    size += part.length + 1;
  }
  return Buffer.from(`{"reviews":[${parts.join(',')}]}`);
}

/** Writes `input` through `zip` in 64 KiB pieces, each once the previous is consumed. */
async function feed(zip: Transform, input: Buffer): Promise<void> {
  for (let at = 0; at < input.length; at += 64 * 1024) {
    await new Promise<void>((resolve, reject) =>
      zip.write(input.subarray(at, at + 64 * 1024), (err) => (err ? reject(err) : resolve())),
    );
  }
}

/** The window of a brotli stream, from its header (RFC 7932, section 9.1): log2 of its bytes. */
function brotliWindowBits(stream: Buffer): number {
  const b = stream[0]!;
  if ((b & 1) === 0) return 16;
  const n = (b >> 1) & 7;
  if (n !== 0) return 17 + n;
  const m = (b >> 4) & 7;
  return m === 0 ? 17 : 8 + m;
}

describe('the compressor of a streamed since result', () => {
  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('%s: decompresses to the bytes written', async (coding, decode) => {
    const input = reviewsJson(3 * 1024 * 1024);
    const zip = streamCompressor(coding);
    const out: Buffer[] = [];
    zip.on('data', (c: Buffer) => out.push(c));
    const ended = new Promise((resolve) => zip.on('end', resolve));
    await feed(zip, input);
    zip.end();
    await ended;
    const body = Buffer.concat(out);
    expect(body.length).toBeLessThan(input.length / 4);
    expect(decode(body).equals(input)).toBe(true);
  });

  it('br: has a window of 256 KiB (its memory does not grow with the result)', async () => {
    const zip = streamCompressor('br');
    const first = new Promise<Buffer>((resolve) => zip.once('data', resolve));
    await feed(zip, reviewsJson(512 * 1024));
    zip.end();
    expect(brotliWindowBits(await first)).toBe(18);
  });

  it('br: a dozen streams, each past 8 MB of input, hold a few MB each', async () => {
    // In a process of its own, with the collector at hand: RSS before and after, nothing else.
    const dir = mkdtempSync(join(tmpdir(), 'since-streams-'));
    const file = join(dir, 'input.json');
    writeFileSync(file, reviewsJson(256 * 1024));
    const script = `
      import { streamCompressor } from ${JSON.stringify(pathToFileURL(COMPILED).href)};
      import { readFileSync } from 'node:fs';
      const input = readFileSync(${JSON.stringify(file)});
      const write = (zip, piece) => new Promise((resolve) => zip.write(piece, resolve));
      globalThis.gc();
      const before = process.memoryUsage().rss;
      const zips = [];
      for (let i = 0; i < 12; i++) {
        const zip = streamCompressor('br');
        zip.on('data', () => {});
        for (let n = 0; n < 36; n++) await write(zip, input); // 9 MB
        zips.push(zip);
      }
      globalThis.gc();
      console.log((process.memoryUsage().rss - before) / zips.length / 1024 / 1024);
    `;
    const { stdout } = await run(process.execPath, [
      '--expose-gc',
      '--input-type=module',
      '-e',
      script,
    ]).finally(() => rmSync(dir, { recursive: true, force: true }));
    const perStream = Number(stdout.trim());
    // About 2 MB each; brotli's default 4 MiB window held about 9 MB (an 8 MiB ring buffer).
    expect(perStream).toBeGreaterThan(0);
    expect(perStream).toBeLessThan(5);
  }, 60_000);
});
