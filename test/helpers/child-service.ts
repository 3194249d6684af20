import { freePort } from './ports.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { TEST_BASE_URL } from './service.js';

const MAIN = join(import.meta.dirname, '../../dist/src/main.js');
const DIST = join(import.meta.dirname, '../../dist/src');

/** The service running as its own process (`node dist/src/main.js`), as in production. */
export interface ChildService {
  url: string;
  child: ChildProcess;
  /** Every log line it printed. */
  logs: string[];
  /** kill -9: no shutdown handler runs. */
  crash(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

export { freePort };

/** Polls `check` until it returns a value other than false/undefined/null, or fails after `ms`. */
export async function waitUntil<T>(
  check: () => T | Promise<T>,
  what: string,
  ms = 20_000,
): Promise<NonNullable<Exclude<T, false>>> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== false && value !== undefined && value !== null)
      return value as NonNullable<Exclude<T, false>>;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts the built service as a child process over an existing store, trusting the test CA (when
 * given) through NODE_EXTRA_CA_CERTS (the only way the hub trusts an extra CA), and waits until
 * it is ready. Defaults suit WebSub tests: loopback callbacks allowed, short timeouts and retries.
 */
export async function startChildService(options: {
  databaseUrl: string;
  caPath?: string;
  env?: Record<string, string>;
}): Promise<ChildService> {
  const port = await freePort();
  const logs: string[] = [];
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: TEST_BASE_URL,
      DATABASE_URL: options.databaseUrl,
      SAMPLE_DATA: 'off',
      LOG_LEVEL: 'info',
      DATA_POLL_MS: '100',
      ...(options.caPath ? { NODE_EXTRA_CA_CERTS: options.caPath } : {}),
      WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
      WEBSUB_TIMEOUT_MS: '2000',
      WEBSUB_RETRY_DELAYS_MS: '50,50',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) =>
    logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  // Generous: a readiness wait, not a timing goal. On a busy machine (CI running the system
  // suites' files side by side) a cold start that reads the models can take well over 20 s.
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`the service exited:\n${logs.join('\n')}`);
      try {
        return (await fetch(`${url}/healthz`)).ok;
      } catch {
        return false;
      }
    },
    'the service to start',
    90_000,
  );
  return {
    url,
    child,
    logs,
    async crash() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** Imports reviews into the store from a separate Node process, as the import CLI would. */
export function ingestInAnotherProcess(databaseUrl: string, reviews: unknown[]): Promise<number> {
  const script = `
    import { ingest } from ${JSON.stringify(join(DIST, 'import/ingest.js'))};
    import { openStore } from ${JSON.stringify(join(DIST, 'store/index.js'))};
    import { ReviewSource } from ${JSON.stringify(join(DIST, 'domain/review.js'))};
    const rows = JSON.parse(process.env.ROWS).map((r) => ReviewSource.parse(r));
    const store = openStore(process.env.DATABASE_URL);
    await ingest(store, { reviews: rows });
    await store.close();
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, DATABASE_URL: databaseUrl, ROWS: JSON.stringify(reviews) },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

let counter = 0;

/** A new review (unique per call) dated after every fixture review, so all three topics change. */
export function freshReview(): Record<string, unknown> {
  counter++;
  return {
    source: 'google',
    sourceReviewId: `websub-${process.pid}-${Date.now()}-${counter}`,
    reviewRating: { ratingValue: 5 },
    reviewBody: `Great service, visit number ${counter}.`,
    author: { name: `Subscriber Tester ${counter}` },
    datePublished: new Date(Date.parse('2031-01-01T12:00:00Z') + counter * 60_000).toISOString(),
  };
}

/** POSTs a form to the hub. */
export async function postHub(
  serviceUrl: string,
  form: Record<string, string>,
): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(`${serviceUrl}/api/websub/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

export { IDENTITY_HEAD } from '../../tools/bench/identity-head.js';
