/**
 * The shape figures of issue 27, measured on a folder of runtime TypeScript (`src/`): file
 * lengths, function lengths (through the TypeScript compiler API, as the review measured them),
 * repeated-code pairs (the `duplicates` command) and Error classes. Tests (`*.test.ts`) and the
 * store's contract suites (`*contract.ts`) are not runtime files and are left out.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** A measured place: its length in lines and where it is (`path` or `path:line name`). */
export interface Length {
  lines: number;
  where: string;
}

/** The repeated-code pairs of the folder, or why they were not counted. */
export type Duplicates =
  | { counted: true; pairs: number; runtimePairs: number; note: string }
  | { counted: false; reason: string };

export interface Metrics {
  files: Length[];
  functions: Length[];
  errorClasses: string[];
  duplicates: Duplicates;
}

/** Built-in constructors a class may extend to be an Error class. */
const BUILTIN_ERRORS = ['Error', 'TypeError', 'RangeError', 'SyntaxError', 'AggregateError'];

/** A test or a contract suite: not a runtime file. */
export function isRuntimeFile(path: string): boolean {
  return path.endsWith('.ts') && !path.endsWith('.test.ts') && !/contract\.ts$/.test(path);
}

/** The runtime `.ts` files below `dir`, sorted. */
export function runtimeFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...runtimeFiles(path));
    else if (isRuntimeFile(path)) found.push(path);
  }
  return found.sort();
}

/** The name a function is known by: its own, or that of the variable or property holding it. */
function functionName(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText();
  }
  return '<anon>';
}

/** Every function with a body in `source`, with its length from its first to its last line. */
function functionLengths(source: ts.SourceFile, path: string): Length[] {
  const lengths: Length[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = lineOf(fn.getStart());
      lengths.push({
        lines: lineOf(fn.end) - first + 1,
        where: `${path}:${first + 1} ${functionName(fn)}`,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lengths;
}

/** `class X extends Y` of `source`, as [X, Y] (Y as written: `Error`, `errors.HttpError`...). */
function classBases(source: ts.SourceFile): [string, string][] {
  const bases: [string, string][] = [];
  const visit = (node: ts.Node) => {
    if (ts.isClassLike(node) && node.name) {
      const extended = node.heritageClauses
        ?.find((c) => c.token === ts.SyntaxKind.ExtendsKeyword)
        ?.types[0]?.expression.getText();
      if (extended) bases.push([node.name.text, extended.split('.').pop()!]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return bases;
}

/** The classes that extend Error, a built-in Error, or (transitively) one of them. */
function errorClasses(bases: [string, string][]): string[] {
  const errors = new Set<string>(BUILTIN_ERRORS);
  const found = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, base] of bases) {
      if (errors.has(base) && !found.has(name)) {
        found.add(name);
        errors.add(name);
        grew = true;
      }
    }
  }
  return [...found].sort();
}

/**
 * The repeated-code pairs below `dir` by `duplicates --repo dir` (six or more lines alike): all
 * pairs, as the review counted them, and those whose both sides are runtime files.
 */
export function countDuplicates(dir: string): Duplicates {
  const run = spawnSync('duplicates', ['--repo', dir, '--most', '200', '--seconds', '120'], {
    encoding: 'utf8',
  });
  if (run.error) {
    const missing = (run.error as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      counted: false,
      reason: missing ? 'the `duplicates` command is not on PATH' : run.error.message,
    };
  }
  const lines = run.stdout.split('\n');
  const head = lines[0] ?? '';
  const total = /^(\d+) pairs? /.exec(head);
  if (!total && !head.startsWith('no duplicates')) {
    return { counted: false, reason: `duplicates said: ${head || run.stderr.trim()}` };
  }
  const row = /^D\d+ (\S+):\d+-\d+ ~ (\S+):\d+-\d+/;
  const runtimePairs = lines
    .map((line) => row.exec(line))
    .filter((m) => m !== null && isRuntimeFile(m[1]!) && isRuntimeFile(m[2]!)).length;
  const notes = lines.filter((l) => /^(left out|incomplete|\(\+\d+ more pairs\))/.test(l));
  return {
    counted: true,
    pairs: total ? Number(total[1]) : 0,
    runtimePairs,
    note: notes.join('; '),
  };
}

/** Measures the runtime files below `dir` (paths in the result are relative to `base`). */
export function measure(dir: string, base: string): Metrics {
  const files: Length[] = [];
  const functions: Length[] = [];
  const bases: [string, string][] = [];
  for (const file of runtimeFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    const path = relative(base, file);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    files.push({ lines: text.split('\n').length, where: path });
    functions.push(...functionLengths(source, path));
    bases.push(...classBases(source));
  }
  const longestFirst = (a: Length, b: Length) => b.lines - a.lines;
  return {
    files: files.sort(longestFirst),
    functions: functions.sort(longestFirst),
    errorClasses: errorClasses(bases),
    duplicates: countDuplicates(dir),
  };
}
