import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError, USAGE, parseCliArgs, writeSample, writeSampleParallel } from './index.js';

async function main(argv: readonly string[]): Promise<number> {
  let options;
  try {
    options = parseCliArgs(argv);
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    console.error(`generate-sample: ${err.message}\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (options.out !== '-') mkdirSync(dirname(options.out), { recursive: true });
  const started = performance.now();
  const sample = { seed: options.seed, count: options.count };
  const result =
    options.jobs > 1
      ? await writeSampleParallel(sample, options.out, options.jobs)
      : writeSample(sample, options.out);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const mb = (result.bytes / 1_048_576).toFixed(1);
  console.error(
    `generate-sample: ${result.reviews} reviews, ${mb} MiB, seed ${options.seed}, ${options.jobs} thread(s) -> ${options.out} (${seconds} s)`,
  );
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
