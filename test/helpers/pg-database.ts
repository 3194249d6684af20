import pg from 'pg';

/**
 * A new, empty database named `name` on the test cluster of the `postgres` project (its admin
 * URL: `inject('pgAdminUrl')`), and its removal (closing whatever still holds it).
 */
export async function throwawayDatabase(
  adminUrl: string,
  name: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  return {
    url,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
