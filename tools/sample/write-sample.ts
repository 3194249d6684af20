import { closeSync, openSync, writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { ChunkMaker } from './chunks.js';
import { sampleBusiness } from './dealership.js';
import type { GenerateOptions } from './generate.js';
import type { ChunkMessage, WorkerInput } from './sample-worker.js';

/** What a write produced. */
export interface WriteResult {
  reviews: number;
  bytes: number;
}

/** An output file (or standard output, `-`) written synchronously, counting bytes. */
class Output {
  readonly fd: number;
  bytes = 0;
  constructor(readonly path: string) {
    this.fd = path === '-' ? 1 : openSync(path, 'w');
  }
  write(text: string): void {
    const chunk = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < chunk.length) {
      try {
        off += writeSync(this.fd, chunk, off);
      } catch (err) {
        // A non-blocking pipe on stdout: wait for the reader and try again.
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      }
    }
    this.bytes += chunk.length;
  }
  close(): void {
    if (this.fd !== 1) closeSync(this.fd);
  }
}

const head = (): string => `{"business":${JSON.stringify(sampleBusiness())},\n"reviews":[`;
const TAIL = '\n]}\n';

/**
 * Writes the sample file: `{"business": ..., "reviews": [...]}` as UTF-8 JSON with the business
 * on its own line and one review per line, so diffs stay readable. Reviews are written in chunks
 * as they are made, so memory stays flat for a million reviews. `out` is a path, or `-` for
 * standard output.
 */
export function writeSample(options: GenerateOptions, out: string): WriteResult {
  const output = new Output(out);
  try {
    output.write(head());
    const maker = new ChunkMaker(options);
    for (let k = 0; k < maker.chunks; k++) output.write((k === 0 ? '\n' : ',\n') + maker.make(k));
    output.write(TAIL);
  } finally {
    output.close();
  }
  return { reviews: options.count, bytes: output.bytes };
}

/**
 * Writes the same bytes as `writeSample` using `jobs` worker threads: worker `w` makes chunks
 * w, w + jobs, ... and the writer puts them in order, acknowledging each so a worker never runs
 * more than one chunk ahead. Every review depends only on the seed, the count and its index, so
 * the output does not depend on the number of threads. `workerUrl` is the compiled worker script.
 */
export async function writeSampleParallel(
  options: GenerateOptions,
  out: string,
  jobs: number,
  workerUrl: URL = new URL('./sample-worker.js', import.meta.url),
): Promise<WriteResult> {
  const output = new Output(out);
  const chunks = new ChunkMaker(options).chunks;
  const workers = Array.from(
    { length: Math.min(jobs, chunks) },
    (_, worker) =>
      new Worker(workerUrl, {
        workerData: { options, jobs: Math.min(jobs, chunks), worker } satisfies WorkerInput,
      }),
  );
  try {
    output.write(head());
    await new Promise<void>((resolve, reject) => {
      const ready = new Map<number, [string, Worker]>();
      let next = 0;
      const drain = (): void => {
        for (let entry = ready.get(next); entry; entry = ready.get(next)) {
          ready.delete(next);
          output.write((next === 0 ? '\n' : ',\n') + entry[0]);
          entry[1].postMessage('ack');
          if (++next === chunks) resolve();
        }
      };
      for (const w of workers) {
        w.on('message', (m: ChunkMessage) => {
          ready.set(m.k, [m.text, w]);
          drain();
        });
        w.on('error', reject);
      }
    });
    output.write(TAIL);
  } finally {
    output.close();
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return { reviews: options.count, bytes: output.bytes };
}
