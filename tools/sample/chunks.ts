import type { LocalDateTime } from './local-time.js';
import { reviewAt, sampleTimes, type GenerateOptions } from './generate.js';

/** Reviews per chunk handed between the parallel writer's threads. */
export const CHUNK_SIZE = 5000;

/**
 * Makes consecutive slices of the sample as JSON text, one review per line, for chunks asked in
 * increasing order. It walks the (cheap) timeline once and writes only the reviews of the chunks
 * asked for, so a thread that makes every fourth chunk still sees the same times as everyone.
 */
export class ChunkMaker {
  private readonly times: Iterator<LocalDateTime>;
  private index = 0;

  constructor(private readonly options: GenerateOptions) {
    this.times = sampleTimes(options);
  }

  /** The number of chunks of the sample. */
  get chunks(): number {
    return Math.ceil(this.options.count / CHUNK_SIZE);
  }

  /** The reviews of chunk `k`, as JSON lines joined by `,\n` (no leading separator). */
  make(k: number): string {
    const from = k * CHUNK_SIZE;
    const to = Math.min(this.options.count, from + CHUNK_SIZE);
    if (from < this.index) throw new Error(`chunk ${k} asked out of order`);
    const lines: string[] = [];
    while (this.index < to) {
      const t = this.times.next();
      if (t.done) throw new Error('timeline ended early');
      if (this.index >= from)
        lines.push(JSON.stringify(reviewAt(this.options, this.index, t.value)));
      this.index++;
    }
    return lines.join(',\n');
  }
}
