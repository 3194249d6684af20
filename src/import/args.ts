import { parseCommandLine, usageError } from '../cli.js';
import { Source } from '../domain/review.js';
import { FORMATS, type FormatId } from './types.js';

/** The command line of `npm run import`, parsed. */
export interface CliArgs {
  path: string;
  format?: FormatId;
  strict: boolean;
  prune: boolean;
  json: boolean;
  dryRun: boolean;
  progress: boolean;
  source: Source | null;
}

/** The usage text. */
export const USAGE = `Usage: dealer-reviews import <file|directory> [options]
       npm run import -- <file|directory> [options]

Imports a review export into the store named by DATABASE_URL (default sqlite:./data/reviews.db).

Options:
  --format <f>    gbp | dealerrater | csv | reviews-json | business (default: detected)
  --strict        any rejected row fails the import; nothing is written
  --prune         remove stored reviews of the file's sources that the file does not hold
  --json          print only a JSON summary on stdout
  --dry-run       validate and count what the import would do, then roll back: write nothing
  --source <s>    source of CSV rows without a source column (google, dealerrater, yelp, ...)
  --progress      progress lines on stderr even when it is not a terminal
  -h, --help      this text

See docs/importing.md.`;

/** Parses the arguments after `npm run import --`; `null` means `--help`. */
export function parseCliArgs(argv: readonly string[]): CliArgs | null {
  const parsed = parseCommandLine(argv, {
    format: { type: 'string' },
    strict: { type: 'boolean', default: false },
    prune: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    progress: { type: 'boolean', default: false },
    source: { type: 'string' },
  });
  if (parsed === null) return null;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw usageError('give exactly one file or directory to import');
  const format = values.format;
  if (format !== undefined && !(FORMATS as readonly string[]).includes(format)) {
    throw usageError(`--format must be one of ${FORMATS.join(', ')}`);
  }
  const source = values.source === undefined ? null : Source.safeParse(values.source);
  if (source && !source.success) {
    throw usageError(`--source must be one of ${Source.options.join(', ')}`);
  }
  return {
    path: positionals[0]!,
    format: format as FormatId | undefined,
    strict: values.strict,
    prune: values.prune,
    json: values.json,
    dryRun: values['dry-run'],
    progress: values.progress,
    source: source ? source.data! : null,
  };
}
