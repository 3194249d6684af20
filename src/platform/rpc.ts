import type { MessagePort, Worker } from 'node:worker_threads';
import { dict, type Dict } from './dict.js';

/**
 * A small request/response protocol over a worker's message port: the caller names an operation
 * and its arguments (structured-cloned), the other side runs the handler and
 * answers with the result or the error. Errors keep their `name`, `message` and `code`.
 */
interface Request {
  id: number;
  op: string;
  args: unknown[];
}

type Response =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string; code?: unknown } };

/** An error thrown on the other side, rebuilt with its name, message and code. */
export class RemoteError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    readonly code?: unknown,
  ) {
    super(message);
  }
}

export interface RpcClient {
  call<T>(op: string, args?: unknown[]): Promise<T>;
  /** Rejects every call in flight and every later one (the other side stopped). */
  failAll(err: Error): void;
}

/** A message the other side sends of its own accord (not an answer). */
export interface RpcEvent {
  event: string;
  payload: unknown;
}

/** The calling side over a worker (or a worker's parent port); events go to `onEvent`. */
export function rpcClient(
  port: Worker | MessagePort,
  onEvent: (event: RpcEvent) => void = () => undefined,
): RpcClient {
  let next = 1;
  let failed: Error | null = null;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  port.on('message', (message: Response | RpcEvent) => {
    if ('event' in message) {
      onEvent(message);
      return;
    }
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.ok) waiting.resolve(message.value);
    else {
      const { name, message: text, code } = message.error;
      waiting.reject(new RemoteError(name, text, code));
    }
  });
  return {
    call<T>(op: string, args: unknown[] = []): Promise<T> {
      if (failed) return Promise.reject(failed);
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        port.postMessage({ id, op, args } satisfies Request);
      });
    },
    failAll(err) {
      failed = err;
      for (const waiting of pending.values()) waiting.reject(err);
      pending.clear();
    },
  };
}

export type Handlers = Dict<(...args: never[]) => unknown>;

/**
 * The answering side: runs the handler named by each request. Results are cloned: what should
 * move without a copy goes in shared memory (`platform/arrays`).
 */
export function serveRpc(port: MessagePort, handlers: Handlers): void {
  port.on('message', (request: Request) => {
    const handler = handlers[request.op] as ((...args: unknown[]) => unknown) | undefined;
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown operation ${request.op}`);
        return handler(...request.args);
      })
      .then(
        (value) => port.postMessage({ id: request.id, ok: true, value } satisfies Response),
        (err: unknown) => {
          const e = err as { name?: unknown; message?: unknown; code?: unknown };
          port.postMessage({
            id: request.id,
            ok: false,
            error: {
              name: typeof e?.name === 'string' ? e.name : 'Error',
              message: typeof e?.message === 'string' ? e.message : String(err),
              ...(typeof e?.code === 'string' || typeof e?.code === 'number'
                ? { code: e.code }
                : {}),
            },
          } satisfies Response);
        },
      );
  });
}

/** Sends an event to the calling side (cloned, as results are). */
export function emit(port: MessagePort, event: string, payload: unknown): void {
  port.postMessage({ event, payload } satisfies RpcEvent);
}

/**
 * The URL of a worker module beside `moduleUrl`. Running from the TypeScript sources (the tests),
 * the worker is the compiled module in `dist/` (Node runs no TypeScript in workers); the test
 * projects build `dist/` first.
 */
export function workerUrl(moduleUrl: string, relative: string): URL {
  const url = new URL(relative, moduleUrl);
  if (!moduleUrl.endsWith('.ts')) return url;
  // Modules under src/ and tools/ compile to dist/src/ and dist/tools/.
  const at = Math.max(url.pathname.lastIndexOf('/src/'), url.pathname.lastIndexOf('/tools/'));
  return new URL(
    `file://${url.pathname.slice(0, at)}/dist${url.pathname.slice(at)}`.replace(/\.ts$/, '.js'),
  );
}

/** The memory a thread's JavaScript heap holds, in bytes (for diagnostics and benchmarks). */
export interface ThreadMemory {
  heapUsed: number;
  heapTotal: number;
  /** Memory of buffers (typed arrays) this thread created, outside the heap. */
  external: number;
}

/** This thread's memory. */
export function threadMemory(): ThreadMemory {
  const { heapUsed, heapTotal, external } = process.memoryUsage();
  return { heapUsed, heapTotal, external };
}

/** V8's `gc` extension: `{ type: 'major', execution: 'async' }` marks concurrently. */
type Collector = (options?: { type: 'major'; execution: 'async' }) => void | Promise<void>;

let collector: Collector | null | undefined;

/**
 * Runs a full garbage collection of this thread's heap, when the runtime allows it. A worker that
 * goes idle after building a data version never allocates again until the next one, so V8 never
 * collects what the build left (hundreds of MB at 100,000 reviews); this returns it at once.
 * The collection is V8's asynchronous major one: marked concurrently and incrementally, so that
 * the thread keeps serving meanwhile (a synchronous one held the event loop for 40 ms at
 * 100,000 reviews); the promise settles when it is done.
 */
export async function collectGarbage(): Promise<void> {
  if (collector === undefined) {
    try {
      const [v8, vm] = await Promise.all([import('node:v8'), import('node:vm')]);
      v8.setFlagsFromString('--expose-gc');
      collector = vm.runInNewContext('gc') as Collector;
    } catch {
      collector = null;
    }
  }
  await collector?.({ type: 'major', execution: 'async' });
}

/**
 * A protocol's operations: each operation's name, its arguments and its result (or a promise of
 * it). Both sides name the same interface, so the compiler checks each call against its handler.
 */
export type Operations<Ops> = { [K in keyof Ops]: (...args: never[]) => unknown };

/** The calling side of a typed protocol (`Ops`: its operations). */
export interface TypedRpcClient<Ops extends Operations<Ops>> {
  call<K extends keyof Ops & string>(
    op: K,
    ...args: Parameters<Ops[K]>
  ): Promise<Awaited<ReturnType<Ops[K]>>>;
  /** Rejects every call in flight and every later one (the other side stopped). */
  failAll(err: Error): void;
}

/**
 * `rpcClient` for a typed protocol: operations `Ops`, events `Event` (a discriminated union of
 * `{ event, payload }`).
 */
export function typedRpcClient<Ops extends Operations<Ops>, Event extends RpcEvent>(
  port: Worker | MessagePort,
  onEvent: (event: Event) => void,
): TypedRpcClient<Ops> {
  // The one place the protocol's types meet the untyped port: the other side serves `Ops`.
  const client = rpcClient(port, onEvent as (event: RpcEvent) => void);
  return {
    call: (op, ...args) => client.call(op, args),
    failAll: (err) => client.failAll(err),
  };
}

/** `serveRpc` for a typed protocol: a handler for every operation of `Ops`. */
export function serveTypedRpc<Ops extends Operations<Ops>>(port: MessagePort, handlers: Ops): void {
  // Looked up by the name in each request: a record without a prototype.
  serveRpc(port, dict(handlers as unknown as Handlers));
}

/** Sends an event of a typed protocol to the calling side. */
export function emitEvent<Event extends RpcEvent>(port: MessagePort, event: Event): void {
  port.postMessage(event);
}
