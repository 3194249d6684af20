import { fileError } from './text.js';

/** One CSV record: its fields and the 1-based line it starts on. */
export interface CsvRecord {
  fields: string[];
  line: number;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** The first line of the bytes, decoded (for the header and detection). */
export function firstLine(buf: Buffer): string {
  const end = buf.indexOf(LF);
  return buf.toString('utf8', 0, end === -1 ? buf.length : end).replace(/\r$/, '');
}

/**
 * Picks the field delimiter from the header line: a comma unless the header holds more
 * semicolons or tabs (spreadsheet exports in some locales, TSV).
 */
export function detectDelimiter(buf: Buffer): string {
  const unquoted = firstLine(buf).replace(/"[^"]*"/g, '');
  const count = (ch: string): number => unquoted.split(ch).length - 1;
  const candidates: [string, number][] = [
    [',', count(',')],
    [';', count(';')],
    ['\t', count('\t')],
  ];
  candidates.sort((a, b) => b[1] - a[1]);
  return candidates[0]![1] > 0 ? candidates[0]![0] : ',';
}

/** Where an unquoted run of a field ends: the delimiter, CR, LF or the end. */
function fieldEnd(buf: Buffer, i: number, delim: number): number {
  let k = i;
  while (k < buf.length) {
    const c = buf[k];
    if (c === delim || c === LF || c === CR) break;
    k++;
  }
  return k;
}

/** Reads a quoted field starting at `i`; returns its value, its end and the line breaks in it. */
function quoted(buf: Buffer, i: number, delim: number, line: number): [string, number, number] {
  const parts: string[] = [];
  let j = i + 1;
  for (;;) {
    const q = buf.indexOf(QUOTE, j);
    if (q === -1) throw fileError(`CSV: unterminated quoted field starting at line ${line}`);
    parts.push(buf.toString('utf8', j, q));
    if (buf[q + 1] === QUOTE) {
      parts.push('"');
      j = q + 2;
      continue;
    }
    j = q + 1;
    break;
  }
  let breaks = 0;
  for (let k = buf.indexOf(LF, i); k !== -1 && k < j; k = buf.indexOf(LF, k + 1)) breaks++;
  // Text between the closing quote and the delimiter (`"Car"ol`): the field is not a quoted one
  // after all, and it is kept exactly as written, quotes included (never `Carol`).
  const k = fieldEnd(buf, j, delim);
  if (k > j) return [buf.toString('utf8', i, k), k, breaks];
  return [parts.join(''), k, breaks];
}

/**
 * Parses CSV (UTF-8 bytes) as RFC 4180 says: fields in double quotes may hold the delimiter,
 * line breaks and doubled quotes; records end with CRLF or LF. It is lenient where exports are
 * sloppy (a quote inside an unquoted field is kept as text, and so is a field that starts with a
 * quoted part but goes on after it: `"Car"ol` stays `"Car"ol`) and strict where data would be lost:
 * an unterminated quoted field is a `FILE_INVALID` error. Blank lines are skipped. Fields are decoded one
 * by one, so the file is never held as one string.
 */
export function* parseCsv(buf: Buffer, delimiter = ','): Generator<CsvRecord> {
  const delim = delimiter.charCodeAt(0);
  let i = 0;
  let line = 1;
  while (i < buf.length) {
    const startLine = line;
    const fields: string[] = [];
    let blank = true;
    for (;;) {
      if (buf[i] === QUOTE) {
        const [value, end, breaks] = quoted(buf, i, delim, startLine);
        fields.push(value);
        line += breaks;
        blank = false;
        i = end;
      } else {
        const end = fieldEnd(buf, i, delim);
        if (end > i) blank = false;
        fields.push(buf.toString('utf8', i, end));
        i = end;
      }
      if (buf[i] === delim) {
        blank = false;
        i++;
        continue;
      }
      if (buf[i] === CR) i++;
      if (buf[i] === LF) i++;
      line++;
      break;
    }
    if (!blank) yield { fields, line: startLine };
  }
}
