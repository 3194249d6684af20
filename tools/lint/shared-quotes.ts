/**
 * Finds text of the shared evaluation data (`../shared/data`) quoted in the repository. That data
 * is for evaluation and training only: it is read in place and never copied, shipped or quoted, so
 * no tracked file may repeat a run of `RUN` words of any of its sentences. The sentences are the
 * review and comment texts (the XML's `<text>`, the JSON lines' `title` and `text`, the survey's
 * lines); words are compared lower-cased, without punctuation. Nine words keep idioms that any
 * review may use ("can't say enough good things about this", eight) apart from quotations.
 *
 * Run by `test/models/shared-quotes.test.ts` (`npm run test:models`, which has the data).
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The shortest run of words that counts as a quotation. */
export const RUN = 9;

/** A run of the shared data's words in a tracked file, by the line it starts on. */
export interface Quote {
  file: string;
  line: number;
  words: string;
  source: string;
}

/** The files whose contents are not prose: models (weights and vocabularies) and binaries. */
const SKIPPED = /^models\/|\.(png|jpe?g|gif|ico|woff2?|gz|bin)$/;

/** The words of `text` (lower case, letters and digits) with where each starts. */
function words(text: string): { word: string; at: number }[] {
  const clean = text.toLowerCase().replace(/&[a-z]+;/g, (entity) => ' '.repeat(entity.length));
  return [...clean.matchAll(/[a-z0-9]+/g)].map((m) => ({ word: m[0], at: m.index }));
}

/** Each run of `RUN` words in `text`, with where its first word starts. */
function* runsOf(text: string): Generator<{ run: string; at: number }> {
  const w = words(text);
  for (let i = 0; i + RUN <= w.length; i++) {
    yield {
      run: w
        .slice(i, i + RUN)
        .map((x) => x.word)
        .join(' '),
      at: w[i]!.at,
    };
  }
}

/** The sentences of one shared data file. */
function sentences(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  if (/\.xml(\.A)?$/.test(path))
    return [...text.matchAll(/<text>([^<]*)<\/text>/g)].map((m) => m[1] ?? '');
  if (path.endsWith('.jsonl')) {
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        const record = JSON.parse(line) as { title?: unknown; text?: unknown };
        return [record.title, record.text].filter((t): t is string => typeof t === 'string');
      });
  }
  return text.split('\n');
}

function dataFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return dataFiles(path);
    return name === 'SOURCES.md' ? [] : [path];
  });
}

/** Every run of `RUN` words in the shared data, with the file it comes from. */
function sharedRuns(dataDir: string): Map<string, string> {
  const runs = new Map<string, string>();
  for (const path of dataFiles(dataDir)) {
    const source = path.slice(dataDir.length + 1);
    for (const sentence of sentences(path)) {
      for (const { run } of runsOf(sentence)) if (!runs.has(run)) runs.set(run, source);
    }
  }
  return runs;
}

/** The lines of the repository's tracked text files that quote the shared data in `dataDir`. */
export function findSharedQuotes(repo: string, dataDir: string): Quote[] {
  const runs = sharedRuns(dataDir);
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && !SKIPPED.test(file));
  const quotes: Quote[] = [];
  for (const file of tracked) {
    // A tracked symbolic link (to a folder, say) has no text of its own.
    if (!lstatSync(join(repo, file)).isFile()) continue;
    const text = readFileSync(join(repo, file), 'utf8');
    if (text.includes('\0')) continue;
    // The whole file as one stream of words: a quotation wrapped over two lines is still one.
    let reported = 0;
    for (const { run, at } of runsOf(text)) {
      const source = runs.get(run);
      if (source === undefined) continue;
      const line = text.slice(0, at).split('\n').length;
      if (line === reported) continue;
      reported = line;
      quotes.push({ file, line, words: run, source });
    }
  }
  return quotes;
}
