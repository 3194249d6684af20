import { describe, expect, it } from 'vitest';
import { detectDelimiter, parseCsv } from './csv-parse.js';
import { FILE_INVALID } from './text.js';

/** A file-level import error (`FILE_INVALID`). */
const fileInvalid = expect.objectContaining({ name: 'ServiceError', code: FILE_INVALID });

const b = (text: string): Buffer => Buffer.from(text);
const rows = (text: string, delimiter?: string): string[][] =>
  [...parseCsv(b(text), delimiter)].map((r) => r.fields);

describe('parseCsv (RFC 4180)', () => {
  it('splits fields and records on CRLF and LF', () => {
    expect(rows('a,b\r\n1,2\n3,4')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('keeps commas, doubled quotes and line breaks inside quoted fields', () => {
    expect(rows('"x, y","say ""hi""","line\r\nbreak"\r\nz,,""\r\n')).toEqual([
      ['x, y', 'say "hi"', 'line\r\nbreak'],
      ['z', '', ''],
    ]);
  });

  it('decodes multi-byte UTF-8 in quoted and unquoted fields', () => {
    expect(rows('"José, ""Pepe""",Núñez ★\n')).toEqual([['José, "Pepe"', 'Núñez ★']]);
  });

  it('reports the line each record starts on, counting breaks inside quotes', () => {
    const lines = [...parseCsv(b('h\n"a\nb"\nc\n'))].map((r) => r.line);
    expect(lines).toEqual([1, 2, 4]);
  });

  it('skips blank lines and keeps a quote inside an unquoted field as text', () => {
    expect(rows('a,b\n\n5" tire,x\n')).toEqual([
      ['a', 'b'],
      ['5" tire', 'x'],
    ]);
  });

  it('keeps a field that goes on after its closing quote exactly as written (the audit: "Car"ol became Carol)', () => {
    expect(rows('name,x\n"Car"ol,1\n"a,b"c,2\n"ok",3\n')).toEqual([
      ['name', 'x'],
      ['"Car"ol', '1'],
      ['"a,b"c', '2'],
      ['ok', '3'],
    ]);
  });

  it('throws a file error for an unterminated quoted field', () => {
    expect(() => rows('a\n"never closed\n')).toThrow(fileInvalid);
    expect(() => rows('a\n"never closed\n')).toThrow(
      /unterminated quoted field starting at line 2/,
    );
  });

  it('detects semicolon and tab delimiters from the header', () => {
    expect(detectDelimiter(b('id;rating;"a,b"\n1;2;3'))).toBe(';');
    expect(detectDelimiter(b('id\trating\n'))).toBe('\t');
    expect(detectDelimiter(b('id,rating\n'))).toBe(',');
    expect(rows('a;b\n1;2', ';')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});
