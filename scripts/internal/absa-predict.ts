import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { loadModel, predict, type ModelName } from '../../src/insights/absa/index.js';

const InputLine = z.object({
  id: z.union([z.string(), z.number()]),
  text: z.string(),
  categories: z.array(z.string()).optional(),
});

/**
 * Reads JSON lines `{id, text, categories?}` and writes one `{id, categories}` line per input line.
 * Blank lines are skipped. Stops at the first bad line (invalid JSON, wrong shape or a category the
 * model does not know), reports it on `errors` and returns exit code 1; otherwise returns 0.
 */
export async function runPredict(
  name: ModelName,
  input: Readable,
  output: Writable,
  errors: Writable,
): Promise<number> {
  const model = loadModel(name);
  const known = new Set(model.categories.map((c) => c.id));
  let lineNumber = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lineNumber++;
    if (!line.trim()) continue;
    let parsed: z.infer<typeof InputLine>;
    try {
      parsed = InputLine.parse(JSON.parse(line));
    } catch {
      errors.write(`line ${lineNumber}: expected a JSON object {"id", "text", "categories"?}\n`);
      return 1;
    }
    const unknown = parsed.categories?.find((c) => !known.has(c));
    if (unknown !== undefined) {
      errors.write(
        `line ${lineNumber}: unknown category for model ${name}: ${JSON.stringify(unknown)}\n`,
      );
      return 1;
    }
    const categories = predict(model, parsed.text, parsed.categories);
    output.write(`${JSON.stringify({ id: parsed.id, categories })}\n`);
  }
  return 0;
}
