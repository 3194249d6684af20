import { fileError } from './text.js';

/** A byte range of the document holding one JSON value, with the line it starts on. */
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

const NEWLINE = 0x0a;

/**
 * Counts lines as positions advance monotonically through the bytes. It remembers where the next
 * line break is, so each byte is searched once however the file is laid out: a file on one line
 * (no break left to find) once cost a scan to its end for every row, quadratic in its size.
 */
class LineCounter {
  private pos = 0;
  private line = 1;
  /** The position of the first line break at or after `pos`, or Infinity when none is left. */
  private next: number;
  constructor(private readonly buf: Buffer) {
    this.next = this.find(0);
  }
  private find(from: number): number {
    const i = this.buf.indexOf(NEWLINE, from);
    return i === -1 ? Infinity : i;
  }
  at(pos: number): number {
    if (pos < this.pos) {
      this.pos = 0;
      this.line = 1;
      this.next = this.find(0);
    }
    while (this.next < pos) {
      this.line++;
      this.next = this.find(this.next + 1);
    }
    this.pos = pos;
    return this.line;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(buf: Buffer, i: number): number {
  while (i < buf.length && isSpace(buf[i] ?? -1)) i++;
  return i;
}

function fail(buf: Buffer, pos: number, what: string): never {
  const line = new LineCounter(buf).at(Math.min(pos, buf.length));
  throw fileError(`not valid JSON: ${what} at line ${line}`);
}

function skipString(buf: Buffer, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = buf.indexOf(QUOTE, j);
    if (q === -1) fail(buf, i, 'unterminated string');
    let k = q - 1;
    let slashes = 0;
    while ((buf[k] ?? -1) === BACKSLASH) {
      slashes++;
      k--;
    }
    if (slashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

function skipComposite(buf: Buffer, i: number): number {
  let depth = 0;
  let j = i;
  while (j < buf.length) {
    const c = buf[j] ?? -1;
    if (c === QUOTE) {
      j = skipString(buf, j);
      continue;
    }
    if (c === OPEN_OBJ || c === OPEN_ARR) depth++;
    else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return fail(buf, i, 'unexpected end of file (unbalanced brackets)');
}

/** Returns the end (exclusive) of the JSON value starting at `i`; does not validate it. */
function skipValue(buf: Buffer, i: number): number {
  const c = buf[i] ?? -1;
  if (c === QUOTE) return skipString(buf, i);
  if (c === OPEN_OBJ || c === OPEN_ARR) return skipComposite(buf, i);
  let j = i;
  while (j < buf.length) {
    const d = buf[j] ?? -1;
    if (d === COMMA || d === CLOSE_OBJ || d === CLOSE_ARR || isSpace(d)) break;
    j++;
  }
  if (j === i) fail(buf, i, 'expected a value');
  return j;
}

function expect(buf: Buffer, i: number, code: number, what: string): number {
  if ((buf[i] ?? -1) !== code) fail(buf, i, `expected ${what}`);
  return i + 1;
}

function scanObject(buf: Buffer, start: number, lines: LineCounter): Map<string, JsonSpan> {
  const members = new Map<string, JsonSpan>();
  let i = skipSpace(buf, start + 1);
  if ((buf[i] ?? -1) === CLOSE_OBJ) return members;
  for (;;) {
    i = skipSpace(buf, i);
    if ((buf[i] ?? -1) !== QUOTE) fail(buf, i, 'expected a key');
    const keyEnd = skipString(buf, i);
    // A key with a raw control character is invalid JSON: a file error naming the line.
    const key = parseJsonAt(buf.toString('utf8', i, keyEnd), lines.at(i)) as string;
    i = expect(buf, skipSpace(buf, keyEnd), COLON, "':'");
    i = skipSpace(buf, i);
    const end = skipValue(buf, i);
    members.set(key, { start: i, end, line: lines.at(i) });
    i = skipSpace(buf, end);
    if ((buf[i] ?? -1) === CLOSE_OBJ) return members;
    i = expect(buf, i, COMMA, "',' or '}'");
  }
}

/**
 * Reads the top level of a JSON document (UTF-8 bytes) without parsing the values, so a file of
 * 100k reviews is never held as one object graph, nor decoded into one string: each review is
 * decoded and parsed on its own when it is imported. JSON's structural characters are ASCII, so
 * scanning the bytes is safe in UTF-8.
 */
export function scanJsonRoot(buf: Buffer): JsonRoot {
  const lines = new LineCounter(buf);
  const start = skipSpace(buf, 0);
  const c = buf[start] ?? -1;
  if (c !== OPEN_OBJ && c !== OPEN_ARR) fail(buf, start, "expected '{' or '['");
  const end = skipValue(buf, start);
  if (skipSpace(buf, end) !== buf.length) fail(buf, end, 'unexpected text after the end');
  if (c === OPEN_ARR) return { kind: 'array', span: { start, end, line: lines.at(start) } };
  return { kind: 'object', members: scanObject(buf, start, lines) };
}

/**
 * The elements of the JSON array in `span`, each decoded to text, with 1-based index and line,
 * and the byte offset just past it (`end`, for progress).
 */
export function* iterateArray(
  buf: Buffer,
  span: JsonSpan,
): Generator<{ index: number; line: number; text: string; end: number }> {
  const lines = new LineCounter(buf);
  if ((buf[span.start] ?? -1) !== OPEN_ARR) fail(buf, span.start, 'expected an array');
  let i = skipSpace(buf, span.start + 1);
  if ((buf[i] ?? -1) === CLOSE_ARR) return;
  let index = 0;
  for (;;) {
    i = skipSpace(buf, i);
    const end = skipValue(buf, i);
    index++;
    yield { index, line: lines.at(i), text: buf.toString('utf8', i, end), end };
    i = skipSpace(buf, end);
    if ((buf[i] ?? -1) === CLOSE_ARR) return;
    i = expect(buf, i, COMMA, "',' or ']'");
  }
}

/** Parses one value's text; a syntax error is a `FILE_INVALID` error naming the line. */
export function parseJsonAt(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw fileError(
      `not valid JSON in the value starting at line ${line}: ${(err as Error).message}`,
    );
  }
}

/** Parses the value of one span of the document. */
export function parseSpan(buf: Buffer, span: JsonSpan): unknown {
  return parseJsonAt(buf.toString('utf8', span.start, span.end), span.line);
}
