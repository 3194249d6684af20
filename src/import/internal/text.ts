import { isUtf8 } from 'node:buffer';
import { readFile, stat } from 'node:fs/promises';
import { isServiceError, ServiceError } from '../../platform/errors.js';

/** An import file: its UTF-8 bytes, and where they are not valid UTF-8. */
export interface TextDocument {
  /** The path as given on the command line (or a file inside a given directory). */
  path: string;
  /** The file's bytes, without a UTF-8 byte-order mark; decoded piece by piece as rows are read. */
  bytes: Buffer;
  /** 1-based line numbers holding invalid UTF-8 (decoded as U+FFFD); empty when valid. */
  invalidLines: readonly number[];
}

/** The code of an import problem that concerns the whole file. */
export const FILE_INVALID = 'import_file_invalid';

/** An import problem that concerns the whole file: reported as one line, exit code 1. */
export function fileError(message: string): ServiceError {
  return new ServiceError(FILE_INVALID, message);
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
 * Prepares file bytes for reading: drops a leading UTF-8 byte-order mark and records the lines
 * holding invalid UTF-8 (decoding turns those bytes into U+FFFD), so the rows that hold them can be
 * rejected while the rest of the file imports. The bytes are not decoded into one string: a
 * 40 MB export would take 80 MB as a JavaScript string.
 */
export function decodeText(path: string, buf: Buffer): TextDocument {
  const bytes = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;
  const invalidLines = isUtf8(bytes) ? [] : findInvalidLines(bytes);
  return { path, bytes, invalidLines };
}

/** True when the bytes hold nothing but whitespace. */
function isBlank(buf: Buffer): boolean {
  for (const c of buf) if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  return true;
}

/**
 * The largest file an import reads (512 MiB, about 400,000 reviews of JSON): the whole file is
 * held in memory while it is read, so a larger one is refused (split the export).
 */
export const MAX_IMPORT_FILE_BYTES = 512 * 1024 * 1024;

/**
 * Refuses what is not a regular file of at most `MAX_IMPORT_FILE_BYTES`: a device (`/dev/zero`
 * never ends), a named pipe or a socket (reading one blocks until a writer comes, and no signal
 * can end a read that waits) are never opened.
 */
export function checkImportFile(
  path: string,
  info: { isFile(): boolean; isDirectory(): boolean; size: number },
): void {
  if (info.isDirectory()) throw fileError(`cannot read ${path}: is a directory`);
  if (!info.isFile()) {
    throw fileError(
      `${path} is not a regular file (a device, a named pipe or a socket): save the export to a file first`,
    );
  }
  if (info.size > MAX_IMPORT_FILE_BYTES) {
    throw fileError(
      `${path} is ${Math.ceil(info.size / 1048576)} MiB, over the ${MAX_IMPORT_FILE_BYTES / 1048576} MiB an import reads: split the export`,
    );
  }
}

function unreadable(path: string, err: unknown): ServiceError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a directory'
          : (code ?? 'unreadable');
  return fileError(`cannot read ${path}: ${why}`);
}

/** Reads and decodes a file; an unreadable, irregular, oversized or empty file is a `FILE_INVALID` error. */
export async function readTextFile(path: string): Promise<TextDocument> {
  let buf: Buffer;
  try {
    checkImportFile(path, await stat(path));
  } catch (err) {
    if (isServiceError(err, FILE_INVALID)) throw err;
    throw unreadable(path, err);
  }
  try {
    buf = await readFile(path);
  } catch (err) {
    throw unreadable(path, err);
  }
  const doc = decodeText(path, buf);
  if (isBlank(doc.bytes)) throw fileError(`${path} is empty: nothing to import`);
  return doc;
}

/** True when the text holds U+FFFD, the mark of an invalid UTF-8 sequence once decoded. */
export function hasReplacementChar(text: string): boolean {
  return text.includes('\uFFFD');
}
