/**
 * `sslmode` in a PostgreSQL `DATABASE_URL`, with libpq's meaning, against a real server speaking
 * TLS: the run's throwaway cluster with TLS turned on for this file (a certificate from a CA
 * made for the run, which nothing trusts unless told), and off again at the end.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { createTestCa } from '../../tools/bench/test-ca.js';
import { fixture, runCommand, tempDir, type CliResult } from '../import/helpers.js';

const adminUrl = inject('pgAdminUrl');
const database = `ssl_${process.pid}`;
let admin: pg.Client;
let temp: ReturnType<typeof tempDir>;
let caPath: string;

/** The URL of the test database on 127.0.0.1 (the certificate's address), with `params`. */
const url = (params: string): string => {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return `${u.toString()}?${params}`;
};

/** `dealer-reviews import <business profile>` with `DATABASE_URL` set to `databaseUrl`. */
const importWith = (databaseUrl: string): Promise<CliResult> =>
  runCommand('import', [fixture('business.json')], join(temp.dir, 'unused.db'), {
    DATABASE_URL: databaseUrl,
  });

/** The server's files must belong to the user it runs as (as root: the package's `postgres`). */
function serverOwned(path: string, mode: number): void {
  if (userInfo().uid === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(path, uid, gid);
  }
  chmodSync(path, mode);
}

beforeAll(async () => {
  temp = tempDir();
  const ca = createTestCa(temp.dir);
  caPath = ca.caPath;
  serverOwned(temp.dir, 0o755);
  for (const name of ['server.crt', 'server.key']) {
    copyFileSync(join(temp.dir, name), join(temp.dir, `pg-${name}`));
    serverOwned(join(temp.dir, `pg-${name}`), 0o600);
  }
  admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`ALTER SYSTEM SET ssl_cert_file = '${join(temp.dir, 'pg-server.crt')}'`);
  await admin.query(`ALTER SYSTEM SET ssl_key_file = '${join(temp.dir, 'pg-server.key')}'`);
  await admin.query('ALTER SYSTEM SET ssl = on');
  await admin.query('SELECT pg_reload_conf()');
  await admin.query(`CREATE DATABASE ${database}`);
});

afterAll(async () => {
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  for (const setting of ['ssl', 'ssl_cert_file', 'ssl_key_file'])
    await admin.query(`ALTER SYSTEM RESET ${setting}`);
  await admin.query('SELECT pg_reload_conf()');
  await admin.end();
  temp.cleanup();
});

describe('sslmode in a PostgreSQL DATABASE_URL', () => {
  it('require: encrypts without checking the certificate, and prints no warning', async () => {
    const run = await importWith(url('sslmode=require'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The connection is encrypted: the server says so.
    const store = openStore(url('sslmode=require&application_name=ssl-check'));
    try {
      await store.state();
      const { rows } = await admin.query<{ ssl: boolean }>(
        `SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
         WHERE a.application_name = 'ssl-check'`,
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.ssl)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('verify-full: refuses a certificate no trusted CA signed, in one line', async () => {
    const run = await importWith(url('sslmode=verify-full'));
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^import: cannot open the store DATABASE_URL=.*certificate/);
  });

  it('verify-full and verify-ca: accept the certificate of the CA named by sslrootcert', async () => {
    for (const mode of ['verify-full', 'verify-ca']) {
      const run = await importWith(url(`sslmode=${mode}&sslrootcert=${caPath}`));
      expect(run.stderr, mode).toBe('');
      expect(run.code, mode).toBe(0);
    }
  });

  it('refuses prefer at start, in one line, with exit code 78', async () => {
    const run = await runCommand('serve', [], join(temp.dir, 'unused.db'), {
      DATABASE_URL: url('sslmode=prefer'),
      PORT: '0',
    });
    expect(run.code).toBe(78);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('sslmode=prefer is not supported');
  });
});
