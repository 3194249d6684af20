import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCa } from '../../tools/bench/test-ca.js';

/** How a callback answers a verification GET. */
export type VerifyBehaviour = 'echo' | 'wrong' | 'echo-newline' | 'not-found' | 'redirect' | 'hold';
/** How a callback answers a delivery POST: a status, or hold until released. */
export type DeliverBehaviour = number | 'hold';

export interface VerificationSeen {
  path: string;
  /** The raw query string as received. */
  rawQuery: string;
  query: URLSearchParams;
}

export interface DeliverySeen {
  path: string;
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A real HTTPS WebSub subscriber on loopback, scripted per callback path. */
export interface TestSubscriber {
  port: number;
  /** `https://localhost:<port><path>`. */
  url(path: string): string;
  verifications: VerificationSeen[];
  deliveries: DeliverySeen[];
  /** TCP connections accepted so far. */
  connections(): number;
  behave(path: string, b: { verify?: VerifyBehaviour; deliver?: DeliverBehaviour }): void;
  /** Answers every held request (verify holds with the challenge, deliveries with 204). */
  release(): void;
  /** Drops held requests without answering (their connections are destroyed). */
  dropHeld(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function answerVerify(res: ServerResponse, how: VerifyBehaviour, challenge: string): void {
  const text = { 'Content-Type': 'text/plain', 'X-Content-Type-Options': 'nosniff' };
  if (how === 'not-found') res.writeHead(404, text).end('no such subscription');
  else if (how === 'redirect') res.writeHead(302, { Location: '/elsewhere' }).end();
  else if (how === 'wrong') res.writeHead(200, text).end('not-the-challenge');
  else if (how === 'echo-newline') res.writeHead(200, text).end(`${challenge}\n`);
  else res.writeHead(200, text).end(challenge);
}

/** Starts a subscriber on 127.0.0.1 with a certificate from the test CA. */
export async function startSubscriber(ca: TestCa, host = '127.0.0.1'): Promise<TestSubscriber> {
  const verifications: VerificationSeen[] = [];
  const deliveries: DeliverySeen[] = [];
  const behaviours = new Map<string, { verify?: VerifyBehaviour; deliver?: DeliverBehaviour }>();
  let held: (() => void)[] = [];
  let heldResponses: ServerResponse[] = [];
  let connections = 0;

  const server: Server = createServer({ cert: ca.cert, key: ca.key }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://localhost');
    const raw = (req.url ?? '').includes('?') ? req.url!.slice(req.url!.indexOf('?') + 1) : '';
    const b = behaviours.get(url.pathname) ?? {};
    if (req.method === 'GET') {
      verifications.push({ path: url.pathname, rawQuery: raw, query: url.searchParams });
      const challenge = url.searchParams.get('hub.challenge') ?? '';
      if (b.verify === 'hold') {
        held.push(() => answerVerify(res, 'echo', challenge));
        heldResponses.push(res);
      } else answerVerify(res, b.verify ?? 'echo', challenge);
      return;
    }
    void readBody(req).then((body) => {
      deliveries.push({ path: url.pathname, rawQuery: raw, headers: req.headers, body });
      if (b.deliver === 'hold') {
        held.push(() => res.writeHead(204).end());
        heldResponses.push(res);
      } else res.writeHead(b.deliver ?? 204).end();
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path) => `https://localhost:${port}${path}`,
    verifications,
    deliveries,
    connections: () => connections,
    behave: (path, b) => behaviours.set(path, { ...behaviours.get(path), ...b }),
    release() {
      const run = held;
      held = [];
      heldResponses = [];
      for (const answer of run) answer();
    },
    dropHeld() {
      for (const res of heldResponses) res.socket?.destroy();
      held = [];
      heldResponses = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
