import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { detectFormat } from './detect.js';
import { readBusinessFile } from './formats/business.js';
import { readCsvReviews } from './formats/csv.js';
import { readDealerRaterReviews } from './formats/dealerrater.js';
import { readGoogleReviews } from './formats/gbp.js';
import { readPublishedReviews } from './formats/reviews-json.js';
import { checkImportFile, fileError, readTextFile, type TextDocument } from './internal/text.js';
import type { FormatId, FormatReader } from './types.js';

/** One file of an import: where it is and, once read, its text and reader. */
export interface InputFile {
  path: string;
  /** The name shown in rejections when a directory holds several files. */
  label: string;
  bytes: number;
}

const READERS: Record<FormatId, (doc: TextDocument) => FormatReader> = {
  gbp: readGoogleReviews,
  dealerrater: readDealerRaterReviews,
  csv: readCsvReviews,
  'reviews-json': readPublishedReviews,
  business: readBusinessFile,
};

/** Opens a decoded file with the reader of `format`, or of the detected format. */
export function openReader(doc: TextDocument, format?: FormatId): FormatReader {
  return READERS[format ?? detectFormat(doc)](doc);
}

/** Reads and opens one file. */
export async function openFile(path: string, format?: FormatId): Promise<FormatReader> {
  return openReader(await readTextFile(path), format);
}

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, e.name);
    if (e.isDirectory()) await walk(full, out);
    else if (e.isFile() && /^reviews.*\.json$/i.test(e.name)) out.push(full);
  }
}

/**
 * The files an import path names: the file itself, or, for a directory (a Google Takeout
 * export), every `reviews*.json` under it, in name order.
 */
export async function listInputs(path: string): Promise<InputFile[]> {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw fileError(`cannot read ${path}: no such file or directory`);
  }
  if (!info.isDirectory()) {
    checkImportFile(path, info);
    return [{ path, label: path, bytes: info.size }];
  }
  const found: string[] = [];
  await walk(path, found);
  if (found.length === 0) throw fileError(`${path}: directory holds no reviews*.json file`);
  const files: InputFile[] = [];
  for (const f of found)
    files.push({ path: f, label: relative(path, f), bytes: (await stat(f)).size });
  return files;
}
