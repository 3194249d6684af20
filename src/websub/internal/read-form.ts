import type { IncomingMessage } from 'node:http';
import type { Issue } from '../../domain/issues.js';
import { dict, type Dict } from '../../platform/dict.js';
import { ServiceError } from '../../platform/errors.js';

/** Largest request body the hub reads: the longest valid form fits with room to spare. */
export const MAX_FORM_BYTES = 8 * 1024;

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The 400 of a form with invalid fields: one issue per field, under `issues`. */
export function invalidForm(issues: Issue[]): ServiceError {
  return new ServiceError('invalid_request', 'The form has invalid fields.', { issues });
}

/** The 415 of a body that is not a UTF-8 form. */
function unsupportedBody(message: string, headers: Record<string, string> = {}): ServiceError {
  return new ServiceError('unsupported_media_type', message, { status: 415, headers });
}

/** The 413 of a body past `max` bytes; the connection closes after it (the rest is not read). */
function tooLarge(max: number): ServiceError {
  return new ServiceError('payload_too_large', `The request body must be at most ${max} bytes.`, {
    status: 413,
    headers: { Connection: 'close' },
  });
}

/** The parameters the hub reads; every other one is ignored, as WebSub requires. */
const KNOWN = new Set(['hub.mode', 'hub.topic', 'hub.callback', 'hub.secret', 'hub.lease_seconds']);

function checkContentType(header: string | undefined): void {
  const [type = '', ...params] = (header ?? '').split(';').map((p) => p.trim().toLowerCase());
  if (type !== FORM_TYPE)
    throw unsupportedBody(`The request body must be ${FORM_TYPE} (UTF-8).`, { Accept: FORM_TYPE });
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length);
  if (charset !== undefined && charset.replace(/"/g, '') !== 'utf-8')
    throw unsupportedBody('The form must be encoded in UTF-8.', { Accept: FORM_TYPE });
}

async function readCapped(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) throw tooLarge(max);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw tooLarge(max);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads the hub's form body: 415 unless it is form-encoded UTF-8 without a content coding (a
 * compressed body would otherwise be read as a form of garbage), 413 past `MAX_FORM_BYTES`, 400
 * when it is not valid UTF-8, names a `hub.*` parameter twice (the first repeated, at once), or
 * has a `hub.*` parameter whose percent-encoded bytes are not UTF-8 (one issue each). Returns the `hub.*` parameters;
 * every other parameter is ignored.
 */
export async function readHubForm(req: IncomingMessage): Promise<Record<string, string>> {
  checkContentType(req.headers['content-type']);
  const coding = req.headers['content-encoding']?.trim().toLowerCase();
  if (coding !== undefined && coding !== '' && coding !== 'identity')
    throw unsupportedBody('The request body must not be compressed (no Content-Encoding).');
  const bytes = await readCapped(req, MAX_FORM_BYTES);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ServiceError('invalid_request', 'The request body is not valid UTF-8.');
  }
  return parseForm(text);
}

/**
 * One name or value of a form: `+` is a space, `%XX` a byte (a `%` not followed by two hex digits
 * stays as is, as URLSearchParams reads it), and the bytes must be valid UTF-8: null otherwise
 * (URLSearchParams would turn them into U+FFFD, and a secret would silently change).
 */
function decodeComponent(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' ').replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
  } catch {
    return null;
  }
}

/** The known `hub.*` parameters of a form (a null-prototype record); 400 for a bad one. */
function parseForm(text: string): Dict<string> {
  const form: Dict<string> = dict();
  const seen = new Set<string>();
  const issues: Issue[] = [];
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    if (key === null || !KNOWN.has(key)) continue;
    if (seen.has(key))
      throw invalidForm([{ path: [key], code: 'duplicate', message: 'is given more than once' }]);
    seen.add(key);
    const value = decodeComponent(eq === -1 ? '' : pair.slice(eq + 1));
    if (value === null)
      issues.push({
        path: [key],
        code: 'invalid_utf8',
        message: 'is not valid UTF-8 once its percent-encoded bytes are decoded',
      });
    else form[key] = value;
  }
  if (issues.length > 0) throw invalidForm(issues);
  return form;
}
