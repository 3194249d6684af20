/** The parts of the `pubsubhubbub` subscriber package (no types of its own) that tests use. */
declare module 'pubsubhubbub' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  import type { EventEmitter } from 'node:events';

  interface Notification {
    topic: string;
    hub: string;
    callback: string;
    feed: Buffer;
    headers: Record<string, string | string[] | undefined>;
  }

  interface Subscriber extends EventEmitter {
    listener(): (req: IncomingMessage, res: ServerResponse) => void;
    subscribe(topic: string, hub: string, callback?: (err: Error | null) => void): void;
    unsubscribe(topic: string, hub: string, callback?: (err: Error | null) => void): void;
  }

  export function createServer(options: {
    callbackUrl: string;
    secret?: string;
    leaseSeconds?: number;
  }): Subscriber;
  export type { Notification, Subscriber };
}
