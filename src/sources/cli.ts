import { hostname } from 'node:os';
import { pino } from 'pino';
import { commandFailed, parseCommandLine, printUsage, runCommandLine, usageError } from '../cli.js';
import { loadEnv, loadSyncConfig } from '../config.js';
import { formatSummary } from '../import/report.js';
import { lowerProcessPriority } from '../platform/priority.js';
import { openStoreWithin, type Store } from '../store/index.js';
import { configuredSources, sourceNames } from './configured.js';
import { holderName, runSource, type RunOutcome } from './run.js';
import type { ReviewSource } from './types.js';

const USAGE = `Usage: dealer-reviews sync [--full] [--dry-run] [--json]

Runs every configured review source once (Google Business Profile, watched export URLs; see
docs/sources.md), with the service's environment, and prints each one's import report.

Options:
  --full      read every review of each source (removals are only found by a full pass)
  --dry-run   read and validate everything, write nothing: the report says what would change
  --json      print the reports as JSON
  -h, --help  print this help

When a running service is syncing a source, the command waits for that run to end (at most
15 minutes) and then runs it. Exit codes: 0 every source synced, 1 a source failed (its
reason on stderr) or none is configured, 2 bad command line, 75 a source stayed busy.`;

/** How long the command waits for a run of another instance to end. */
export const SYNC_WAIT_MS = 15 * 60_000;

const CLI = { name: 'sync', usage: USAGE };

/** The exit code of a source that another instance kept running (`EX_TEMPFAIL`). */
const EXIT_BUSY = 75;

interface Options {
  full: boolean;
  dryRun: boolean;
  json: boolean;
}

function print(source: ReviewSource, outcome: RunOutcome, o: Options): void {
  if (o.json) return;
  if (outcome.status === 'ran')
    process.stdout.write(formatSummary(outcome.result.report, source.name));
  else if (outcome.status === 'failed')
    process.stderr.write(`sync: ${source.name}: ${outcome.error}\n`);
  else
    process.stderr.write(
      `sync: ${source.name}: another instance kept running it; try again later\n`,
    );
}

function asJson(source: ReviewSource, outcome: RunOutcome): Record<string, unknown> {
  if (outcome.status === 'ran') {
    const { report, full, restored } = outcome.result;
    return { name: source.name, status: 'ran', full, restored, report };
  }
  if (outcome.status === 'failed')
    return { name: source.name, status: 'failed', error: outcome.error };
  return { name: source.name, status: 'busy' };
}

async function syncAll(
  store: Store,
  sources: readonly ReviewSource[],
  o: Options,
): Promise<number> {
  const holder = holderName(hostname(), process.pid);
  const logger = pino({ level: 'silent' });
  const results: Record<string, unknown>[] = [];
  let code = 0;
  for (const source of sources) {
    const outcome = await runSource(source, {
      store,
      logger,
      holder,
      full: o.full,
      dryRun: o.dryRun,
      waitMs: SYNC_WAIT_MS,
    });
    print(source, outcome, o);
    results.push(asJson(source, outcome));
    if (outcome.status === 'failed') code = Math.max(code, 1);
    if (outcome.status === 'busy') code = EXIT_BUSY;
  }
  if (o.json) process.stdout.write(`${JSON.stringify({ sources: results }, null, 2)}\n`);
  return code;
}

/**
 * `dealer-reviews sync [--full] [--dry-run] [--json]`: runs every configured source once, each
 * under its lease (waiting, bounded, for a running service's run of it), as an import.
 */
export function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(CLI, async () => {
    const parsed = parseCommandLine(argv, {
      full: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
    });
    if (parsed === null) return printUsage(CLI);
    if (parsed.positionals.length > 0) throw usageError('sync takes no arguments');
    const { DATABASE_URL } = loadEnv(['DATABASE_URL']);
    const settings = loadSyncConfig();
    if (sourceNames(settings).length === 0) {
      throw commandFailed('no review source is configured (see docs/sources.md)');
    }
    lowerProcessPriority();
    const store = await openStoreWithin(DATABASE_URL);
    const configured = configuredSources(settings);
    try {
      const { full = false, 'dry-run': dryRun = false, json = false } = parsed.values;
      return await syncAll(store, configured.sources, { full, dryRun, json });
    } finally {
      await configured.close();
      await store.close();
    }
  });
}
