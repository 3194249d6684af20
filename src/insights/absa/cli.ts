import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { parseCommandLine, printUsage, runCommandLine, usageError } from '../../cli.js';
import { loadModel, MODEL_NAMES, type ModelName } from './model.js';
import { ensureEmbeddings, predict } from './predict.js';

const InputLine = z.object({
  id: z.union([z.string(), z.number()]),
  text: z.string(),
  categories: z.array(z.string()).optional(),
});

/** Lines scored together: a model with a sentence encoder encodes a batch at once. */
const BATCH = 64;

/**
 * Reads JSON lines `{id, text, categories?}` and writes one `{id, categories}` line per input line,
 * in input order and in batches of up to 64 lines. Blank lines are skipped. Stops at the first bad
 * line (invalid JSON, wrong shape or a category the model does not know), after writing the lines
 * before it, reports it on `errors` and returns exit code 1; otherwise returns 0.
 */
export async function runPredict(
  name: ModelName,
  input: Readable,
  output: Writable,
  errors: Writable,
): Promise<number> {
  const model = loadModel(name);
  const known = new Set(model.categories.map((c) => c.id));
  let batch: z.infer<typeof InputLine>[] = [];
  const flush = async (): Promise<void> => {
    await ensureEmbeddings(
      model,
      batch.map((l) => l.text),
    );
    const lines = batch.map((l) => {
      const categories = predict(model, l.text, l.categories);
      return `${JSON.stringify({ id: l.id, categories })}\n`;
    });
    if (lines.length > 0) output.write(lines.join(''));
    model.encoder?.clear();
    batch = [];
  };
  let lineNumber = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lineNumber++;
    if (!line.trim()) continue;
    let parsed: z.infer<typeof InputLine>;
    try {
      parsed = InputLine.parse(JSON.parse(line));
    } catch {
      await flush();
      errors.write(`line ${lineNumber}: expected a JSON object {"id", "text", "categories"?}\n`);
      return 1;
    }
    const unknown = parsed.categories?.find((c) => !known.has(c));
    if (unknown !== undefined) {
      await flush();
      errors.write(
        `line ${lineNumber}: unknown category for model ${name}: ${JSON.stringify(unknown)}\n`,
      );
      return 1;
    }
    batch.push(parsed);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return 0;
}

export const USAGE = `Usage: dealer-reviews absa predict --model <${MODEL_NAMES.join('|')}>
       npm run -s absa -- predict --model <name>

Reads JSON lines {"id", "text", "categories"?} on stdin and writes one line
{"id", "categories": [{"category", "polarity"}]} per input line on stdout, with the shipped
model (models/<name>.json). The service's insights use the dealership model.

Options:
  --model <name>  ${MODEL_NAMES.join(', ')}
  -h, --help      this text

Training and cross-validation are offline tools: npm run train, npm run -s absa -- cv.
See docs/absa-model.md.`;

const CLI = { name: 'absa', usage: USAGE };

/** `dealer-reviews absa predict --model <name>`: the shipped ABSA models on JSON lines. */
export function main(argv: readonly string[]): Promise<number> {
  return runCommandLine(CLI, async () => {
    const args = parseCommandLine(argv, { model: { type: 'string' } });
    if (args === null) return printUsage(CLI);
    const [command, ...rest] = args.positionals;
    if (command !== 'predict' || rest.length > 0) throw usageError('the command is: predict');
    const model = args.values.model;
    if (!model || !(MODEL_NAMES as readonly string[]).includes(model)) {
      throw usageError(`--model must be one of ${MODEL_NAMES.join(', ')}`);
    }
    return runPredict(model as ModelName, process.stdin, process.stdout, process.stderr);
  });
}
