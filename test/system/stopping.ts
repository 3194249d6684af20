/**
 * The service started as an operator starts it (`node dist/src/main.js`, `npm start`, `npx
 * dealer-reviews serve`) in a process group of its own, stopped with a signal as a supervisor
 * (to the process it started) or a terminal (to the whole group) sends it, and what it leaves
 * behind: its port, and any process of its tree (each carries a marker in its environment, so
 * that one that outlived its parent is found wherever it was re-parented).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { freePort } from '../helpers/ports.js';
import { TEST_BASE_URL } from '../helpers/service.js';

export interface Started {
  child: ChildProcess;
  url: string;
  port: number;
  /** Every line the tree printed (the service's JSON logs among them). */
  logs: string[];
  marker: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once every process of the tree has closed its output (the last lines are in `logs`). */
  closed: Promise<void>;
}

const MARKER = 'DEALER_REVIEWS_TEST_TREE';

/** Starts `command args` in `cwd` as its own process group, and waits until /healthz answers. */
export async function startTree(
  command: string,
  args: readonly string[],
  options: {
    cwd: string;
    env: Record<string, string>;
    /** What the rest of the environment is (default: this process's). */
    baseEnv?: NodeJS.ProcessEnv;
    readyWithinMs?: number;
  },
): Promise<Started> {
  const port = await freePort();
  const marker = randomUUID();
  const child = spawn(command, args, {
    cwd: options.cwd,
    detached: true,
    env: {
      ...(options.baseEnv ?? process.env),
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: TEST_BASE_URL,
      LOG_LEVEL: 'info',
      [MARKER]: marker,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  for (const output of [child.stdout!, child.stderr!]) {
    output.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(line);
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const started: Started = { child, url, port, logs, marker, exited, closed };
  const deadline = Date.now() + (options.readyWithinMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${command} ${args.join(' ')} exited:\n${logs.join('\n')}`);
    }
    try {
      if ((await fetch(`${started.url}/healthz`)).ok) return started;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      killTree(started);
      throw new Error(`${command} ${args.join(' ')} did not start:\n${logs.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The processes (ids) still alive whose environment carries the tree's marker. */
export function leftovers(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(`${MARKER}=${marker}`))
        found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Whether a new server can listen on the port (nothing holds it any more). */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * Waits (at most `ms`) until the started process has exited, no process of its tree is left
 * and its port is free (then for the tree's last lines); resolves with how it exited, or rejects
 * saying what is left.
 */
export async function gone(
  s: Started,
  ms = 10_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const deadline = Date.now() + ms;
  const exit = await Promise.race([
    s.exited,
    new Promise<null>((r) => setTimeout(() => r(null), ms)),
  ]);
  for (;;) {
    const left = leftovers(s.marker);
    if (exit !== null && left.length === 0 && (await portFree(s.port))) {
      // A service that outlived npm writes its last lines after npm's exit.
      await s.closed;
      return exit;
    }
    if (Date.now() > deadline) {
      const what = exit === null ? 'the started process' : `processes ${left.join(', ')}`;
      throw new Error(`${what} still there ${ms} ms after the signal:\n${s.logs.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Kills whatever is left of the tree (a failed test's cleanup). */
export function killTree(s: Started): void {
  for (const pid of leftovers(s.marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** The service's JSON log lines with this `msg`. */
export function logged(s: Started, msg: string): Record<string, unknown>[] {
  return s.logs
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg);
}

/**
 * Opens a 2026-07-28 `subscriptions/listen` stream (an MCP event stream that stays open until
 * the server ends it); resolves once it is acknowledged, with a promise of its end.
 */
export async function openListenStream(url: string): Promise<{ ended: Promise<void> }> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: {
        notifications: { resourceSubscriptions: [`${TEST_BASE_URL}/reviews.json`] },
        _meta: meta,
      },
    }),
  });
  if (!res.headers.get('content-type')?.includes('text/event-stream')) {
    throw new Error(`no event stream: ${res.status} ${await res.text()}`);
  }
  const reader = res.body!.getReader();
  await reader.read(); // the acknowledgement
  const ended = (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // cut: also an end
    }
  })();
  return { ended };
}

/**
 * A request under way that never finishes by itself: a body announced longer than what is sent.
 * The service's shutdown waits for it until its grace ends, then cuts it.
 */
export async function openUnfinishedRequest(url: string): Promise<{ closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      'Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
  );
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { closed };
}
