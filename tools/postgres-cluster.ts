/**
 * A throwaway PostgreSQL cluster in a temporary folder (initdb, then pg_ctl), listening on a free
 * port of 127.0.0.1 with trust authentication and its socket in the folder: what the `postgres`
 * test project (test/setup/postgres.ts) and the benchmarks (`BENCH_ENGINES=postgres`) run
 * against. Needs Debian's PostgreSQL server binaries (`apt-get install -y postgresql`); as root,
 * its commands run as the package's `postgres` user.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const BIN_ROOT = '/usr/lib/postgresql';
const INSTALL = 'apt-get install -y postgresql';

export interface PostgresCluster {
  /** The superuser URL (`postgres://postgres@127.0.0.1:<port>/postgres`). */
  adminUrl: string;
  /** The server's `bin` folder (initdb, pg_ctl, ...). */
  bin: string;
  /**
   * Stops the server as a crash would (`pg_ctl stop -m immediate`: every connection cut, no
   * checkpoint), keeping its data; `start` brings it back on the same port. For outage tests.
   */
  kill(): Promise<void>;
  /** Starts the server again after `kill` (recovery from the WAL); resolves once it accepts. */
  start(): Promise<void>;
  /** Stops the server at once and deletes the folder. */
  stop(): void;
}

/** A missing tool, not a bug: its message is the whole story (no stack). */
function oneLine(message: string): Error {
  const err = new Error(message);
  err.stack = `Error: ${message}`;
  return err;
}

/** The `bin` folder of the newest PostgreSQL server installed the Debian way. */
function serverBinaries(purpose: string): string {
  const versions = existsSync(BIN_ROOT)
    ? readdirSync(BIN_ROOT)
        .filter((v) => existsSync(join(BIN_ROOT, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw oneLine(
      `${purpose} needs the PostgreSQL server binaries (${BIN_ROOT}/*/bin/initdb): ${INSTALL}`,
    );
  }
  return join(BIN_ROOT, versions[0]!, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, its commands run as the package's `postgres` user. */
function runner(purpose: string): {
  run(cmd: string, args: string[]): void;
  /** The same, without holding the event loop. */
  runAsync(cmd: string, args: string[]): Promise<void>;
  owner?: { uid: number; gid: number };
} {
  const runAsync = (cmd: string, args: string[]): Promise<void> =>
    new Promise((resolve, reject) => {
      const [file, argv] =
        userInfo().uid === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
      execFile(file, argv, (err) => (err ? reject(err) : resolve()));
    });
  if (userInfo().uid !== 0) {
    return { run: (cmd, args) => void execFileSync(cmd, args, { stdio: 'pipe' }), runAsync };
  }
  let ids: string[];
  try {
    ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim().split(/\s+/);
    ids.push(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  } catch {
    throw oneLine(`${purpose} as root needs the postgres system user: ${INSTALL}`);
  }
  return {
    run: (cmd, args) =>
      void execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' }),
    runAsync,
    owner: { uid: Number(ids[0]), gid: Number(ids[1]) },
  };
}

/**
 * Starts a cluster for this process's run. `durable: false` (the tests) turns fsync, synchronous
 * commit and full-page writes off; the benchmarks keep PostgreSQL's defaults. `purpose` names the
 * command in the message when the server binaries are missing.
 */
export async function startPostgresCluster(options: {
  purpose: string;
  durable?: boolean;
  maxConnections?: number;
}): Promise<PostgresCluster> {
  const bin = serverBinaries(options.purpose);
  const { run, runAsync, owner } = runner(options.purpose);
  const dir = mkdtempSync(join(tmpdir(), 'dealer-reviews-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  let started = false;
  const stop = (): void => {
    try {
      if (started) run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    run(join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    const port = await freePort();
    const settings = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses='127.0.0.1'",
      ...(options.durable
        ? []
        : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
      `-c max_connections=${options.maxConnections ?? 200}`,
    ].join(' ');
    try {
      run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-o', settings, '-w', 'start']);
    } catch (err) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-3) : [];
      throw new Error(`the throwaway PostgreSQL server did not start: ${tail.join(' | ')}`, {
        cause: err,
      });
    }
    started = true;
    const pgCtl = join(bin, 'pg_ctl');
    return {
      adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
      bin,
      async kill() {
        await runAsync(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
        started = false;
      },
      async start() {
        await runAsync(pgCtl, ['-D', data, '-l', log, '-o', settings, '-w', 'start']);
        started = true;
      },
      stop,
    };
  } catch (err) {
    stop();
    throw err;
  }
}
