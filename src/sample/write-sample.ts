import { closeSync, openSync, writeSync } from 'node:fs';
import { sampleBusiness } from './dealership.js';
import { generateReviews, type GenerateOptions } from './generate.js';

const FLUSH_AT = 1 << 20;

/** What a write produced. */
export interface WriteResult {
  reviews: number;
  bytes: number;
}

/**
 * Writes the sample file: `{"business": ..., "reviews": [...]}` as UTF-8 JSON with the business
 * on its own line and one review per line, so diffs stay readable. Output is buffered in 1 MiB
 * chunks and written as it is generated, so memory stays flat for a million reviews. `out` is a
 * file path, or `-` for standard output.
 */
export function writeSample(options: GenerateOptions, out: string): WriteResult {
  const fd = out === '-' ? 1 : openSync(out, 'w');
  let buffer = `{"business":${JSON.stringify(sampleBusiness())},\n"reviews":[`;
  let bytes = 0;
  let reviews = 0;
  const flush = (): void => {
    const chunk = Buffer.from(buffer, 'utf8');
    let off = 0;
    while (off < chunk.length) {
      try {
        off += writeSync(fd, chunk, off);
      } catch (err) {
        // A non-blocking pipe on stdout: wait for the reader and try again.
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      }
    }
    bytes += chunk.length;
    buffer = '';
  };
  try {
    for (const row of generateReviews(options)) {
      buffer += (reviews === 0 ? '\n' : ',\n') + JSON.stringify(row);
      reviews++;
      if (buffer.length >= FLUSH_AT) flush();
    }
    buffer += '\n]}\n';
    flush();
  } finally {
    if (fd !== 1) closeSync(fd);
  }
  return { reviews, bytes };
}
