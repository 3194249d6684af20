import { inject } from 'vitest';
import pg from 'pg';

let databases = 0;

/**
 * The database the system tests' instances share: a new database on the run's throwaway
 * PostgreSQL cluster (the project's global setup starts it), dropped by `cleanup`.
 */
export async function systemDatabaseUrl(
  _dir: string,
): Promise<{ url: string; cleanup: () => Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  const name = `system_${process.pid}_${++databases}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // WITH (FORCE): a killed instance's connections may not have been noticed yet.
    cleanup: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
