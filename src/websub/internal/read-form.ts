import type { IncomingMessage } from 'node:http';
import type { Issue } from '../../domain/issues.js';
import { HubError, invalidForm } from './hub-error.js';
import { dict, type Dict } from '../../platform/dict.js';

/** Largest request body the hub reads: the longest valid form fits with room to spare. */
export const MAX_FORM_BYTES = 8 * 1024;

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The parameters the hub reads; every other one is ignored, as WebSub requires. */
const KNOWN = new Set(['hub.mode', 'hub.topic', 'hub.callback', 'hub.secret', 'hub.lease_seconds']);

function checkContentType(header: string | undefined): void {
  const [type = '', ...params] = (header ?? '').split(';').map((p) => p.trim().toLowerCase());
  if (type !== FORM_TYPE)
    throw new HubError(415, `The request body must be ${FORM_TYPE} (UTF-8).`, {
      Accept: FORM_TYPE,
    });
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length);
  if (charset !== undefined && charset.replace(/"/g, '') !== 'utf-8')
    throw new HubError(415, 'The form must be encoded in UTF-8.', { Accept: FORM_TYPE });
}

async function readCapped(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) throw new HubError(413, `The request body must be at most ${max} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new HubError(413, `The request body must be at most ${max} bytes.`);
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
    throw new HubError(415, 'The request body must not be compressed (no Content-Encoding).');
  const bytes = await readCapped(req, MAX_FORM_BYTES);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HubError(400, 'The request body is not valid UTF-8.');
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
