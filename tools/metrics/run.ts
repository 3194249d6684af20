/**
 * `npm run metrics [-- --src DIR]`: prints the shape figures of the runtime code (issue 27): file
 * and function lengths, repeated-code pairs and Error classes, as Markdown anyone can paste.
 */
import { join, resolve } from 'node:path';
import { parseCommandLine, printUsage, runCommandLine, usageError } from '../../src/cli.js';
import { repoRoot } from '../paths.js';
import type { Length, Metrics } from './measure.js';

const USAGE = `Usage: npm run metrics [-- --src DIR] [--top N]

Prints the shape figures of the runtime TypeScript below DIR (default src/; tests and contract
suites left out): files over 300 and over 400 lines and the largest, functions over 80 and over
120 lines and the longest (measured with the TypeScript compiler API, first line to last), the
repeated-code pairs (the \`duplicates\` command on PATH: all pairs below DIR, and those between
runtime files; skipped, with a line saying so, when it is not there) and the Error classes
(classes extending Error or one of its subclasses). Figures of record: docs/benchmarks.md.

Options:
  --src DIR   the folder to measure (default: src of the repository)
  --top N     how many of the largest files and longest functions to list (default 10)
  -h, --help  this text`;

const CLI = { name: 'metrics', usage: USAGE };

function over(lengths: Length[], limit: number): number {
  return lengths.filter((l) => l.lines > limit).length;
}

function largest(lengths: Length[], top: number): string[] {
  return lengths.slice(0, top).map((l) => `| ${l.lines} | ${l.where} |`);
}

/** The figures as Markdown. */
function report(m: Metrics, top: number): string {
  const runtimeLines = m.files.reduce((sum, f) => sum + f.lines, 0);
  const dup = m.duplicates;
  const duplicates = dup.counted
    ? `- repeated-code pairs (six or more lines alike): ${dup.pairs} (between runtime files: ${dup.runtimePairs})${dup.note ? `; ${dup.note}` : ''}`
    : `- repeated-code pairs: not counted (${dup.reason})`;
  return [
    `- runtime files: ${m.files.length}, ${runtimeLines} lines`,
    `- files over 300 lines: ${over(m.files, 300)}; over 400: ${over(m.files, 400)}`,
    `- functions over 80 lines: ${over(m.functions, 80)}; over 120: ${over(m.functions, 120)}`,
    duplicates,
    `- Error classes: ${m.errorClasses.length} (${m.errorClasses.join(', ')})`,
    '',
    `| lines | largest files |`,
    '| ---: | --- |',
    ...largest(m.files, top),
    '',
    `| lines | longest functions |`,
    '| ---: | --- |',
    ...largest(m.functions, top),
  ].join('\n');
}

const code = await runCommandLine(CLI, async () => {
  const args = parseCommandLine(process.argv.slice(2), {
    src: { type: 'string' },
    top: { type: 'string' },
  });
  if (args === null) return printUsage(CLI);
  const root = repoRoot();
  const dir = resolve(args.values.src ?? join(root, 'src'));
  const top = Number(args.values.top ?? 10);
  if (!Number.isInteger(top) || top < 0) throw usageError('--top takes a whole number');
  if (args.positionals.length > 0) throw usageError(`unexpected: ${args.positionals.join(' ')}`);
  // The measuring code (the TypeScript compiler) loads only now: `--help` and a refused argument
  // answer without it.
  const { measure } = await import('./measure.js');
  console.log(report(measure(dir, root), top));
  return 0;
});
process.exitCode = code;
