import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';

/** A decoded import file: its text, and where the bytes were not valid UTF-8. */
export interface TextDocument {
  /** The path as given on the command line (or a file inside a given directory). */
  path: string;
  text: string;
  /** Byte length of the file, for progress. */
  bytes: number;
  /** 1-based line numbers holding invalid UTF-8 (replaced by U+FFFD in `text`); empty when valid. */
  invalidLines: readonly number[];
}

/** An import problem that concerns the whole file: reported as one line, exit code 1. */
export class FileError extends Error {
  override name = 'FileError';
}

const NEWLINE = 0x0a;

function findInvalidLines(buf: Buffer): number[] {
  const lines: number[] = [];
  let start = 0;
  let line = 1;
  while (start <= buf.length) {
    let end = buf.indexOf(NEWLINE, start);
    if (end === -1) end = buf.length;
    if (!isUtf8(buf.subarray(start, end))) lines.push(line);
    start = end + 1;
    line++;
  }
  return lines;
}

/**
 * Decodes file bytes as UTF-8, dropping a leading byte-order mark. Invalid byte sequences become
 * U+FFFD and their line numbers are recorded, so the rows that hold them can be rejected while
 * the rest of the file imports.
 */
export function decodeText(path: string, buf: Buffer): TextDocument {
  const invalidLines = isUtf8(buf) ? [] : findInvalidLines(buf);
  // TextDecoder strips the BOM (ignoreBOM: false) and replaces invalid sequences.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(buf);
  return { path, text, bytes: buf.length, invalidLines };
}

/** Reads and decodes a file; an unreadable or empty file is a `FileError`. */
export async function readTextFile(path: string): Promise<TextDocument> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'is a directory'
            : (code ?? 'unreadable');
    throw new FileError(`cannot read ${path}: ${why}`);
  }
  const doc = decodeText(path, buf);
  if (doc.text.trim() === '') throw new FileError(`${path} is empty: nothing to import`);
  return doc;
}

/** True when the text holds U+FFFD, the mark of an invalid UTF-8 sequence once decoded. */
export function hasReplacementChar(text: string): boolean {
  return text.includes('\uFFFD');
}
