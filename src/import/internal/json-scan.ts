import { FileError } from './text.js';

/** A slice of the document text holding one JSON value, with the line it starts on. */
export interface JsonSpan {
  start: number;
  end: number;
  line: number;
}

/** The top level of a JSON document: object members by key, or one array. */
export type JsonRoot =
  { kind: 'object'; members: Map<string, JsonSpan> } | { kind: 'array'; span: JsonSpan };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Counts lines as positions advance monotonically through the text. */
class LineCounter {
  private pos = 0;
  private line = 1;
  constructor(private readonly text: string) {}
  at(pos: number): number {
    if (pos < this.pos) {
      this.pos = 0;
      this.line = 1;
    }
    let i = this.text.indexOf('\n', this.pos);
    while (i !== -1 && i < pos) {
      this.line++;
      i = this.text.indexOf('\n', i + 1);
    }
    this.pos = pos;
    return this.line;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

function fail(text: string, pos: number, what: string): never {
  const line = new LineCounter(text).at(Math.min(pos, text.length));
  throw new FileError(`not valid JSON: ${what} at line ${line}`);
}

function skipString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q === -1) fail(text, i, 'unterminated string');
    let k = q - 1;
    let slashes = 0;
    while (text.charCodeAt(k) === BACKSLASH) {
      slashes++;
      k--;
    }
    if (slashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

function skipComposite(text: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) {
      j = skipString(text, j);
      continue;
    }
    if (c === OPEN_OBJ || c === OPEN_ARR) depth++;
    else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return fail(text, i, 'unexpected end of file (unbalanced brackets)');
}

/** Returns the end (exclusive) of the JSON value starting at `i`; does not validate it. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (c === OPEN_OBJ || c === OPEN_ARR) return skipComposite(text, i);
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === COMMA || d === CLOSE_OBJ || d === CLOSE_ARR || isSpace(d)) break;
    j++;
  }
  if (j === i) fail(text, i, 'expected a value');
  return j;
}

function expect(text: string, i: number, code: number, what: string): number {
  if (text.charCodeAt(i) !== code) fail(text, i, `expected ${what}`);
  return i + 1;
}

function scanObject(text: string, start: number, lines: LineCounter): Map<string, JsonSpan> {
  const members = new Map<string, JsonSpan>();
  let i = skipSpace(text, start + 1);
  if (text.charCodeAt(i) === CLOSE_OBJ) return members;
  for (;;) {
    i = skipSpace(text, i);
    if (text.charCodeAt(i) !== QUOTE) fail(text, i, 'expected a key');
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = expect(text, skipSpace(text, keyEnd), COLON, "':'");
    i = skipSpace(text, i);
    const end = skipValue(text, i);
    members.set(key, { start: i, end, line: lines.at(i) });
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === CLOSE_OBJ) return members;
    i = expect(text, i, COMMA, "',' or '}'");
  }
}

/**
 * Reads the top level of a JSON document without parsing the values, so a file of 100k reviews
 * is never held as one object graph: each review is parsed on its own when it is imported.
 */
export function scanJsonRoot(text: string): JsonRoot {
  const lines = new LineCounter(text);
  const start = skipSpace(text, 0);
  const c = text.charCodeAt(start);
  if (c !== OPEN_OBJ && c !== OPEN_ARR) fail(text, start, "expected '{' or '['");
  const end = skipValue(text, start);
  if (skipSpace(text, end) !== text.length) fail(text, end, 'unexpected text after the end');
  if (c === OPEN_ARR) return { kind: 'array', span: { start, end, line: lines.at(start) } };
  return { kind: 'object', members: scanObject(text, start, lines) };
}

/** The elements of the JSON array in `span`, each as its text, 1-based index and start line. */
export function* iterateArray(
  text: string,
  span: JsonSpan,
): Generator<{ index: number; line: number; text: string }> {
  const lines = new LineCounter(text);
  if (text.charCodeAt(span.start) !== OPEN_ARR) fail(text, span.start, 'expected an array');
  let i = skipSpace(text, span.start + 1);
  if (text.charCodeAt(i) === CLOSE_ARR) return;
  let index = 0;
  for (;;) {
    i = skipSpace(text, i);
    const end = skipValue(text, i);
    index++;
    yield { index, line: lines.at(i), text: text.slice(i, end) };
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === CLOSE_ARR) return;
    i = expect(text, i, COMMA, "',' or ']'");
  }
}

/** Parses one value's text; a syntax error is a `FileError` naming the line. */
export function parseJsonAt(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new FileError(
      `not valid JSON in the value starting at line ${line}: ${(err as Error).message}`,
    );
  }
}

/** Parses the value of one span of the document. */
export function parseSpan(text: string, span: JsonSpan): unknown {
  return parseJsonAt(text.slice(span.start, span.end), span.line);
}
