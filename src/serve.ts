import { parseCommandLine, printUsage, runCommandLine, usageError } from './cli.js';
import { CONFIG_INVALID, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { isServiceError } from './platform/errors.js';
import { LISTEN_FAILED, startService } from './service.js';
import { STORE_OPEN_FAILED } from './store/index.js';

export const USAGE = `Usage: dealer-reviews serve
       npm start

Serves the reviews, feeds, insights, MCP endpoint and WebSub hub on PORT (default 3000).
Configured only by environment variables (PORT, HOST, BASE_URL, DATABASE_URL, ...), each
documented in the README; a bad value, a store that cannot be opened or an address it cannot
listen on stops start-up with one line and exit code 78.

Options:
  -h, --help   this text`;

const CLI = { name: 'dealer-reviews', usage: USAGE };

/** Exit code of a configuration error (EX_CONFIG). */
const EX_CONFIG = 78;

/**
 * Starts the service and resolves once it answers requests (`null`: keep running), or with an
 * exit code when it cannot start. SIGTERM and SIGINT close it gracefully.
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
    let closing = false;
    const shutdown = (signal: string): void => {
      if (closing) return;
      closing = true;
      logger.info({ signal }, 'shutting down');
      service.close().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGINT', () => shutdown('SIGINT'));
    started = true;
    return 0;
  });
  return started ? null : code;
}
