import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from '../../tools/postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL of the run's throwaway PostgreSQL cluster (trust auth, 127.0.0.1). */
    pgAdminUrl: string;
  }
}

/**
 * Global setup of the `postgres` project: a throwaway cluster for this run only
 * (`tools/postgres-cluster.ts`), with no durability (fsync off). The tests get its superuser URL
 * through `inject('pgAdminUrl')` and create and drop their own databases. Stopped and deleted at
 * the end.
 */
export async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgresCluster({ purpose: 'npm run test:postgres' });
  project.provide('pgAdminUrl', cluster.adminUrl);
  return cluster.stop;
}
