import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startService } from './service.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`dealer-reviews: ${err.message}`);
      process.exit(78);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const service = await startService(config, logger);
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
}

main().catch((err: unknown) => {
  console.error(
    `dealer-reviews: could not start: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exit(1);
});
