import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { Business, type BusinessInput } from '../../src/domain/business.js';
import { ReviewSource, type ReviewSourceInput } from '../../src/domain/review.js';
import { ingest } from '../../src/import/ingest.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/service.js';
import { openStore } from '../../src/store/index.js';

export interface TestService extends RunningService {
  dir: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

export const TEST_BASE_URL = 'https://reviews.example.com';

/** Seeds a fresh SQLite store in a temp folder. */
export async function seedStore(
  databaseUrl: string,
  business: BusinessInput | null,
  reviews: ReviewSourceInput[],
): Promise<void> {
  const store = openStore(databaseUrl);
  await ingest(store, {
    ...(business ? { business: Business.parse(business) } : {}),
    reviews: reviews.map((r) => ReviewSource.parse(r)),
  });
  await store.close();
}

/** The configuration of a test instance on a random loopback port over `databaseUrl`. */
function testConfig(databaseUrl: string, env: Record<string, string> = {}) {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    BASE_URL: TEST_BASE_URL,
    DATABASE_URL: databaseUrl,
    SAMPLE_DATA: 'off',
    LOG_LEVEL: 'silent',
    DATA_POLL_MS: '100',
    ...env,
  });
}

/** Starts the real service on a random loopback port over a temp store holding the given data. */
export async function startTestService(options: {
  business?: BusinessInput | null;
  reviews?: ReviewSourceInput[];
  env?: Record<string, string>;
}): Promise<TestService> {
  const dir = mkdtempSync(join(tmpdir(), 'reviews-test-'));
  const databaseUrl = `sqlite:${join(dir, 'reviews.db')}`;
  await seedStore(databaseUrl, options.business ?? null, options.reviews ?? []);
  const config = testConfig(databaseUrl, options.env);
  const service = await startService(config, createLogger(config.logLevel));
  return {
    ...service,
    dir,
    databaseUrl,
    async stop() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Another instance of the service, in this process, on the store of a running one (no shared
 * memory, only the store), as a second instance behind a load balancer.
 */
export function startInstanceOn(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<RunningService> {
  const config = testConfig(databaseUrl, env);
  return startService(config, createLogger(config.logLevel));
}
