import { parseCommandLine, printUsage, runCommandLine, usageError } from './cli.js';
import { CONFIG_INVALID, loadConfig } from './config.js';
import { isServiceError } from './platform/errors.js';
import { STORE_OPEN_FAILED } from './store/index.js';

export const USAGE = `Usage: dealer-reviews serve
       npm start

Serves the reviews, feeds, insights, MCP endpoint and WebSub hub on PORT (default 3000).
Configured only by environment variables (PORT, HOST, BASE_URL, DATABASE_URL, ...), each
documented in the README; a bad value, a store that cannot be opened or an address it cannot
listen on stops start-up with one line and exit code 78. SIGTERM or SIGINT stops it gracefully
(the requests under way finish, then it exits 0 within 10 s); a second signal exits at once.

Options:
  -h, --help   this text`;

const CLI = { name: 'dealer-reviews', usage: USAGE };

/** Exit code of a configuration error (EX_CONFIG). */
const EX_CONFIG = 78;

/**
 * Starts the service and resolves once it answers requests (`null`: keep running), or with an
 * exit code when it cannot start. SIGTERM and SIGINT close it gracefully (`src/shutdown.ts`).
 */
export async function main(argv: readonly string[]): Promise<number | null> {
  let started = false;
  const code = await runCommandLine(CLI, async () => {
    const args = parseCommandLine(argv, {});
    if (args === null) return printUsage(CLI);
    if (args.positionals.length > 0) throw usageError('takes no arguments');
    let config;
    try {
      config = loadConfig();
    } catch (err) {
      if (!isServiceError(err, CONFIG_INVALID)) throw err;
      process.stderr.write(`dealer-reviews: ${err.message}\n`);
      return EX_CONFIG;
    }
    // The service's modules load once its configuration holds: a bad setting is refused, and
    // `--help` answered, without them (about 1 s of CPU of a start-up that does not happen).
    const [{ createLogger }, { LISTEN_FAILED, startService }, { stopOnSignals }] =
      await Promise.all([import('./logger.js'), import('./service.js'), import('./shutdown.js')]);
    const logger = createLogger(config.logLevel);
    let service;
    try {
      service = await startService(config, logger);
    } catch (err) {
      if (!isServiceError(err, STORE_OPEN_FAILED) && !isServiceError(err, LISTEN_FAILED)) throw err;
      process.stderr.write(`dealer-reviews: ${err.message}\n`);
      return EX_CONFIG;
    }
    logger.info(
      {
        listen: `${config.host}:${config.port}`,
        baseUrl: config.baseUrl,
        store: service.store.location,
      },
      'ready',
    );
    stopOnSignals(() => service.close(), logger, { watchParent: config.startedByNpm });
    started = true;
    return 0;
  });
  return started ? null : code;
}
