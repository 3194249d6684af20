#!/usr/bin/env node
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { lowerProcessPriority } from './platform/priority.js';
import { own } from './platform/dict.js';

/** `dealer-reviews <command>`: the operator's commands, run from the compiled code. */
const COMMANDS: Record<
  string,
  {
    summary: string;
    load: () => Promise<{ main(argv: readonly string[]): Promise<number | null> }>;
    /**
     * Batch work beside a running service: its priority is lowered before its modules load
     * (about 150 ms of one core, which a service on a small machine feels; the command lowers
     * it again itself).
     */
    background?: boolean;
  }
> = {
  serve: { summary: 'start the service (as npm start)', load: () => import('./serve.js') },
  import: {
    summary: 'import a review export or business profile into the store',
    load: () => import('./import/cli.js'),
    background: true,
  },
  sync: {
    summary: 'run every configured review source once (Google Business Profile, export URLs)',
    load: () => import('./sources/cli.js'),
    background: true,
  },
  remove: {
    summary: 'take one review out of publication by id (--undo publishes it again)',
    load: () => import('./import/remove.js'),
  },
  hidden: {
    summary: 'list the hidden reviews with who hid them, when and why',
    load: () => import('./admin/hidden.js'),
  },
  reset: {
    summary: "remove the sample dealership's reviews (--sample-only), before going live",
    load: () => import('./import/reset.js'),
  },
  backup: {
    summary: 'copy the SQLite store to a file while the service runs',
    load: () => import('./admin/backup.js'),
  },
  'migrate-store': {
    summary: 'copy the whole store into an empty one (SQLite to PostgreSQL)',
    load: () => import('./admin/migrate-store.js'),
  },
  insights: {
    summary: 'print the insights of the stored reviews',
    load: () => import('./insights/cli.js'),
  },
  absa: {
    summary: 'run the shipped aspect-sentiment models on JSON lines',
    load: () => import('./insights/absa/cli.js'),
  },
};

const USAGE = `Usage: dealer-reviews <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(Math.max(10, name.length + 2))}${c.summary}`)
  .join('\n')}

Run \`dealer-reviews <command> --help\` for the options of each. Configuration comes from
environment variables (DATABASE_URL, PORT, ...), documented in the README.`;

/** Newest modification time under `dir` of the files ending in `.ts` (0 when none). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * In a checkout, warns (one line) when the sources are newer than the last build: the commands
 * run the compiled code and would not see the change until `npm run build`.
 */
function warnIfStale(): void {
  const dist = join(import.meta.dirname, '..');
  const sources = join(dist, '..', 'src');
  const buildInfo = join(dist, '.tsbuildinfo');
  if (!existsSync(sources) || !existsSync(buildInfo)) return;
  if (newestSource(sources) > statSync(buildInfo).mtimeMs) {
    process.stderr.write('dealer-reviews: src/ changed since the last build; run npm run build\n');
  }
}

const [name, ...rest] = process.argv.slice(2);
if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
  (name === undefined ? process.stderr : process.stdout).write(`${USAGE}\n`);
  process.exitCode = name === undefined ? 2 : 0;
} else if (own(COMMANDS, name) === undefined) {
  process.stderr.write(`dealer-reviews: unknown command "${name}"\n\n${USAGE}\n`);
  process.exitCode = 2;
} else {
  warnIfStale();
  const command = own(COMMANDS, name)!;
  if (command.background) lowerProcessPriority();
  const code = await (await command.load()).main(rest);
  // `serve` ends as `npm start` does when it cannot start: at once, even if something it began
  // (a store that never answered) still holds the event loop. The other commands let their
  // output drain.
  if (code !== null && name === 'serve') process.exit(code);
  if (code !== null) process.exitCode = code;
}
