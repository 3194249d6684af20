import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import { rpcClient, workerUrl, type RpcEvent } from '../platform/rpc.js';
import type { Builder, BuiltDocument, BuiltVersion } from '../snapshot/index.js';

/** What the build worker starts with. */
export interface BuildThreadData {
  databaseUrl: string;
  baseUrl: string;
  /** Whether the WebSub hub runs (hub links in the topics). */
  hub: boolean;
  /** Load the sample dealership into an empty store. */
  sampleData: boolean;
}

/** A log line of the build worker, written by the service's logger. */
export interface BuildThreadLog {
  level: 'info' | 'warn' | 'error';
  msg: string;
  [key: string]: unknown;
}

/**
 * Starts the build worker (`thread.ts`) and returns it as the publisher's `Builder`: `build()`
 * asks it for the newest data version, which arrives as transferred buffers; the insights follow
 * as a `document` event. Resolves once the worker has opened the store (and loaded the sample
 * dealership into an empty one, when asked); rejects when it cannot.
 */
export async function startBuildThread(data: BuildThreadData, logger: Logger): Promise<Builder> {
  const worker = new Worker(workerUrl(import.meta.url, './thread.js'), { workerData: data });
  const documents = new Set<(version: number, doc: BuiltDocument) => void>();
  const onEvent = (event: RpcEvent): void => {
    if (event.event === 'document') {
      const { version, doc } = event.payload as { version: number; doc: BuiltDocument };
      for (const listener of documents) listener(version, doc);
    } else if (event.event === 'log') {
      const { level, msg, ...rest } = event.payload as BuildThreadLog;
      logger[level](rest, msg);
    }
  };
  const client = rpcClient(worker, onEvent);
  let closing = false;
  worker.on('error', (err) => {
    logger.error({ err }, 'the build worker failed');
    client.failAll(err);
  });
  worker.on('exit', (code) => {
    if (!closing) client.failAll(new Error(`the build worker stopped (exit code ${code})`));
  });
  try {
    await client.call('ready');
  } catch (err) {
    closing = true;
    await worker.terminate();
    throw err;
  }
  return {
    build: () => client.call<BuiltVersion>('build'),
    onDocument(listener) {
      documents.add(listener);
    },
    async close() {
      if (closing) return;
      closing = true;
      await client.call('close').catch(() => undefined);
      await worker.terminate();
    },
  };
}
