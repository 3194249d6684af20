import { join } from 'node:path';

/**
 * The database the system tests' instances share: a SQLite file in the test's folder.
 */
export async function systemDatabaseUrl(
  dir: string,
): Promise<{ url: string; cleanup: () => Promise<void> }> {
  return { url: `sqlite:${join(dir, 'reviews.db')}`, cleanup: async () => undefined };
}
