import { parentPort, workerData } from 'node:worker_threads';
import { ChunkMaker } from './chunks.js';
import type { GenerateOptions } from './generate.js';

/** What the parallel writer tells each worker thread. */
export interface WorkerInput {
  options: GenerateOptions;
  jobs: number;
  worker: number;
}

/** A chunk of JSON lines sent back to the writer. */
export interface ChunkMessage {
  k: number;
  text: string;
}

/**
 * Worker-thread entry of the parallel writer: makes every `jobs`-th chunk starting at its own
 * number, and keeps at most one finished chunk waiting for the writer's acknowledgement, so
 * memory stays bounded however large the sample.
 */
async function run(port: NonNullable<typeof parentPort>, input: WorkerInput): Promise<void> {
  const maker = new ChunkMaker(input.options);
  let acked = 0;
  let posted = 0;
  let wake: (() => void) | null = null;
  port.on('message', () => {
    acked++;
    wake?.();
    wake = null;
  });
  for (let k = input.worker; k < maker.chunks; k += input.jobs) {
    const text = maker.make(k);
    while (posted - acked >= 1) await new Promise<void>((resolve) => (wake = resolve));
    port.postMessage({ k, text } satisfies ChunkMessage);
    posted++;
  }
  port.close();
}

if (parentPort) void run(parentPort, workerData as WorkerInput);
