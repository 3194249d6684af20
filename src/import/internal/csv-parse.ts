import { FileError } from './text.js';

/** One CSV record: its fields and the 1-based line it starts on. */
export interface CsvRecord {
  fields: string[];
  line: number;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/**
 * Picks the field delimiter from the header line: a comma unless the header holds more
 * semicolons or tabs (spreadsheet exports in some locales, TSV).
 */
export function detectDelimiter(text: string): string {
  const end = text.search(/\r?\n/);
  const header = end === -1 ? text : text.slice(0, end);
  const unquoted = header.replace(/"[^"]*"/g, '');
  const count = (ch: string): number => unquoted.split(ch).length - 1;
  const candidates: [string, number][] = [
    [',', count(',')],
    [';', count(';')],
    ['\t', count('\t')],
  ];
  candidates.sort((a, b) => b[1] - a[1]);
  return candidates[0]![1] > 0 ? candidates[0]![0] : ',';
}

/**
 * Parses CSV text as RFC 4180 says: fields in double quotes may hold the delimiter, line breaks
 * and doubled quotes; records end with CRLF or LF. It is lenient where exports are sloppy (a
 * quote inside an unquoted field is kept as text) and strict where data would be lost: an
 * unterminated quoted field is a `FileError`. Blank lines are skipped.
 */
export function* parseCsv(text: string, delimiter = ','): Generator<CsvRecord> {
  const delim = delimiter.charCodeAt(0);
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const startLine = line;
    const fields: string[] = [];
    let blank = true;
    for (;;) {
      let value: string;
      if (text.charCodeAt(i) === QUOTE) {
        blank = false;
        let j = i + 1;
        let out = '';
        for (;;) {
          const q = text.indexOf('"', j);
          if (q === -1) {
            throw new FileError(`CSV: unterminated quoted field starting at line ${startLine}`);
          }
          out += text.slice(j, q);
          if (text.charCodeAt(q + 1) === QUOTE) {
            out += '"';
            j = q + 2;
            continue;
          }
          j = q + 1;
          break;
        }
        for (let k = i; k < j; k++) if (text.charCodeAt(k) === LF) line++;
        // Lenient: text between the closing quote and the delimiter is kept.
        let k = j;
        while (k < n) {
          const c = text.charCodeAt(k);
          if (c === delim || c === LF || c === CR) break;
          k++;
        }
        value = out + text.slice(j, k);
        i = k;
      } else {
        let k = i;
        while (k < n) {
          const c = text.charCodeAt(k);
          if (c === delim || c === LF || c === CR) break;
          k++;
        }
        value = text.slice(i, k);
        if (value !== '') blank = false;
        i = k;
      }
      fields.push(value);
      const c = text.charCodeAt(i);
      if (c === delim) {
        blank = false;
        i++;
        continue;
      }
      if (c === CR) i++;
      if (text.charCodeAt(i) === LF) i++;
      line++;
      break;
    }
    if (!blank) yield { fields, line: startLine };
  }
}
