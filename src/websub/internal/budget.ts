/**
 * Bytes of notification bodies in flight across every delivery of this instance, at most: a
 * delivery hands its body to the socket one slice at a time, each slice only when this budget has
 * room for it, and gives the room back once the socket has taken the slice (its buffer drained).
 * Memory for bodies being sent is therefore bounded whatever the number of deliveries and the
 * size of the topic; deliveries beyond it wait for room instead of all sending at once.
 */
export const DELIVERY_BYTES_IN_FLIGHT = 8 * 1024 * 1024;

/** The size of one slice of a body handed to the socket. */
export const DELIVERY_SLICE_BYTES = 64 * 1024;

/** A counting semaphore of bytes, granted in the order asked (no request is starved). */
export class ByteBudget {
  private used = 0;
  private readonly waiting: { bytes: number; grant: () => void }[] = [];

  constructor(readonly capacity: number) {}

  /** Bytes taken now. */
  inUse(): number {
    return this.used;
  }

  /** Resolves once `bytes` (at most the capacity) are taken; rejects if `signal` aborts first. */
  take(bytes: number, signal?: AbortSignal): Promise<void> {
    const n = Math.min(bytes, this.capacity);
    if (this.waiting.length === 0 && this.used + n <= this.capacity) {
      this.used += n;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        bytes: n,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(entry);
        if (i !== -1) this.waiting.splice(i, 1);
        this.drain();
        reject(signal!.reason as Error);
      };
      if (signal?.aborted) return reject(signal.reason as Error);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  give(bytes: number): void {
    this.used -= Math.min(bytes, this.capacity);
    this.drain();
  }

  private drain(): void {
    while (this.waiting.length > 0 && this.used + this.waiting[0]!.bytes <= this.capacity) {
      const next = this.waiting.shift()!;
      this.used += next.bytes;
      next.grant();
    }
  }
}

/**
 * The body as slices of the same memory (views, never copies), each taken from `budget` before it
 * is handed to the socket and given back when the next one is asked for (the writer asks only
 * once the socket has taken the previous one) or when the request ends, whichever comes first.
 */
export function slicedBody(
  body: Uint8Array,
  budget: ByteBudget,
): (signal: AbortSignal) => AsyncIterable<Uint8Array> {
  return (signal) => ({
    async *[Symbol.asyncIterator]() {
      for (let offset = 0; offset < body.length; offset += DELIVERY_SLICE_BYTES) {
        const slice = body.subarray(offset, offset + DELIVERY_SLICE_BYTES);
        await budget.take(slice.length, signal);
        try {
          yield slice;
        } finally {
          budget.give(slice.length);
        }
      }
    },
  });
}
