import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The model checks that run for minutes, longest first, so that they start before the short ones
 * and two workers finish at about the same time.
 */
const LONG_RUNNING = [
  'test/models/recorded-scores/mams-acsa.test.ts',
  'test/models/recorded-scores/semeval14-restaurants.test.ts',
  'test/models/recorded-scores/dealership.test.ts',
  'test/models/recorded-scores/survey-cv.test.ts',
  'test/models/train-determinism.test.ts',
];

class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const i = LONG_RUNNING.findIndex((path) => file.moduleId.endsWith(path));
      return i < 0 ? LONG_RUNNING.length : i;
    };
    // Array.prototype.sort is stable: the rest keep the default order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The end-to-end tests that wait on processes or on the clock, or push data to the import's
 * limits: the `slow` project's (`npm run test:slow`, which CI runs after `npm test`), so that
 * `npm test` keeps to its 3 minutes on 2 cores. Each costs seconds by nature, not by waste (docs/benchmarks.md,
 * *Test suite*):
 * - the commands as processes (`test/import`, `test/tools`, `config`), the service as a process or
 *   beside another process (`sample-data`, `import-guards`, `live-update`, `store-lock`,
 *   `mcp-subscriptions`), crashes (`websub-durability`);
 * - the clock: WebSub deliveries with their retries, backoffs, leases and restarts (`websub-hub`,
 *   `websub-edits`, `websub-ssrf`), the sources' sync worker on its intervals (`sync-*`), socket
 *   timeouts and read rates (`since-streams`), per-minute limits (`mcp-limits`);
 * - the tool results' token budgets over the largest data the import accepts (`mcp-budgets`), and
 *   the fuzz suite at its bounded runs (`test/fuzz`; `npm run fuzz` runs it longer).
 * `npm test` keeps a test of each feature through its real interface: the hub's subscribe, verify
 * and deliver in `websub-pubsubhubbub` and `websub-form`, MCP in `mcp-transport` and `mcp-tools`.
 */
const SLOW_TESTS = [
  'test/import/**/*.test.ts',
  'test/tools/**/*.test.ts',
  'test/fuzz/**/*.test.ts',
  ...[
    'config',
    'sample-data',
    'import-guards',
    'live-update',
    'store-lock',
    'mcp-subscriptions',
    'websub-durability',
    'websub-hub',
    'websub-edits',
    'websub-ssrf',
    'sync-gbp',
    'sync-urls',
    'sync-websub',
    'sync-thread',
    'since-streams',
    'mcp-limits',
    'mcp-budgets',
  ].map((name) => `test/e2e/${name}.test.ts`),
];

/** The tests that need a PostgreSQL server: the `postgres` project's, never `unit`'s. */
const POSTGRES_TESTS = ['test/store/postgres.test.ts', 'test/postgres/**/*.test.ts'];

/**
 * The projects:
 * - `unit`: in-process tests beside the code (`src/**`, `tools/**`, and the store's contract
 *   suites in `test/store`); they import the sources,
 *   and the worker threads they start run the compiled modules, which the setup builds first.
 * - `e2e`: the service on a real port; they run the compiled code, which the project's global
 *   setup builds first (never stale).
 * - `slow`: the end-to-end tests that wait on processes or on the clock ({@link SLOW_TESTS}): the
 *   commands as processes, crashes, WebSub deliveries, the sync worker, time limits, the token
 *   budgets at the import's limits, and the fuzz suite (`test/fuzz`) at its bounded number of runs
 *   (`npm run fuzz` runs the same files with FUZZ_RUNS). `npm test` leaves them to
 *   `npm run test:slow`, which CI runs.
 * - `system`: several service processes on one PostgreSQL database (a throwaway cluster, as for
 *   `postgres`), alone and behind nginx, as deployed; they need Debian's `nginx` and `postgresql`
 *   (`npm run test:system`, which CI runs).
 * - `browser`: the pages in Debian's Chromium, driven by playwright-core, with axe-core
 *   (`npm run test:browser`, which CI runs after installing `chromium`).
 * - `models`: the model checks (recorded scores, training determinism, mention evaluation); they
 *   need `../shared/data` and take minutes, so `npm test` leaves them to `npm run test:models`.
 * - `postgres`: the store contract (and the engine's own tests) against a real PostgreSQL server,
 *   a throwaway cluster that the project's global setup starts for the run (Debian's `postgresql`
 *   server binaries); `npm test` needs nothing outside the repository, so it leaves them to
 *   `npm run test:postgres`.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default leaves one core free, which on a 2-core machine is a single worker.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: LongRunningFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // The store's contract suites run against SQLite from `test/store` (PostgreSQL: below).
          include: ['src/**/*.test.ts', 'tools/**/*.test.ts', 'test/store/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...POSTGRES_TESTS],
          // Worker threads (the store's, the build worker) run the compiled modules.
          globalSetup: ['test/setup/build.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SLOW_TESTS],
          globalSetup: ['test/setup/build.ts'],
          // The files of a worker share its modules instead of loading the service's module graph
          // again for each (35 s of module imports in a 150 s run on 2 cores). They share no state
          // through them: each test starts its own service, store and port, and none mocks a
          // module or changes process.env (the two files that mock modules are unit tests, which
          // stay isolated).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: SLOW_TESTS,
          globalSetup: ['test/setup/build.ts'],
          // As `e2e`: the files of a worker share its modules, and none shares state through them.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'system',
          include: ['test/system/**/*.test.ts'],
          globalSetup: ['test/setup/postgres.ts', 'test/setup/build.ts'],
          // Each test drives several processes (instances, nginx, the CLI on both engines) while
          // the other files do the same: a step of 6 s alone took over 30 s on a busy 2-core machine.
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/setup/build.ts'],
          // A real Chromium drives the pages: starting it and loading pages takes seconds.
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'models',
          include: ['test/models/**/*.test.ts'],
          globalSetup: ['test/setup/shared-data.ts', 'test/setup/build.ts'],
          // Each recorded-scores check reruns a fold of a cross-validation: minutes of CPU, three of
          // them at once on two cores, and more when the machine is busy (an hour holds them).
          testTimeout: 3_600_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_TESTS,
          // The commands and the service run as processes from dist/ (test/postgres): a copy
          // between engines that takes 24 s alone took over 30 s on a busy 2-core machine.
          globalSetup: ['test/setup/postgres.ts', 'test/setup/build.ts'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
