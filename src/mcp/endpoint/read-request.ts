import type { IncomingMessage } from 'node:http';
import { invalidRequest, parseError, refused } from '../internal/errors.js';
import {
  hasValidEnvelope,
  ignoreExperimentalCapabilities,
  ignoreTaskAugmentation,
  isJsonRpcMessage,
  readableId,
  type RequestId,
} from '../internal/messages.js';
import { ANSWERED_REQUESTS } from '../server.js';
import { MAX_BATCH_MESSAGES } from './batch.js';

/**
 * Reading a `POST /mcp`: the checks of its headers (Accept 406, Content-Type and
 * Content-Encoding 415), its body within the size limit (413), JSON (-32700) and the JSON-RPC 2.0
 * shape of each message (-32600). The request's id is noted in `reply` as soon as it can be read,
 * so that an error answers that request.
 */

/** A message as dispatch reads it (its JSON-RPC shape is checked). */
export type Message = { id?: RequestId; method?: string; params?: Record<string, unknown> };

/** What an error answers: the id of the request when it could be read. */
export interface Reply {
  id: RequestId | null;
}

/** A POST's body, read and checked. */
export interface ReadBody {
  /** The parsed JSON: one message, or an array (a batch). */
  body: unknown;
  messages: Message[];
  /** Per message: the message schema refuses it (its params may still be the reason). */
  malformedParams: boolean[];
}

function tooLarge(limit: number) {
  return refused(
    'payload_too_large',
    413,
    `Payload Too Large: the body must be at most ${limit} bytes`,
  );
}

/** The body, at most `limit` bytes (413 beyond, by Content-Length or as it arrives). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge(limit));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** No content coding, or `identity`: the endpoint reads bodies as they are. */
function isIdentityCoding(value: string | undefined): boolean {
  return value === undefined || value.trim().toLowerCase() === 'identity' || value.trim() === '';
}

function isJsonContentType(value: string | undefined): boolean {
  return value?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The refusal of a POST by its headers (406, 415), before its body is read; else null. */
function refusalByHeaders(req: IncomingMessage) {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return refused(
      'not_acceptable',
      406,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
    );
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    return refused(
      'unsupported_media_type',
      415,
      'Unsupported Media Type: Content-Type must be application/json',
    );
  }
  if (!isIdentityCoding(req.headers['content-encoding'])) {
    return refused(
      'unsupported_media_type',
      415,
      'Unsupported Media Type: the body must not be compressed (no Content-Encoding)',
    );
  }
  return null;
}

/**
 * The id of a request refused before its body was read (406, 415), read from the body when it
 * can be (within the size limit, JSON): the error then answers that request.
 */
async function idOfUnread(req: IncomingMessage, limit: number): Promise<RequestId | null> {
  try {
    if (req.headers['content-encoding'] !== undefined) return null;
    return readableId(JSON.parse((await readBody(req, limit)).toString('utf8')));
  } catch {
    return null;
  }
}

/** The messages of a parsed body, each a JSON-RPC 2.0 message (-32600 otherwise). */
function checkMessages(body: unknown): Omit<ReadBody, 'body'> {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) throw invalidRequest('Invalid Request: empty batch');
  if (messages.length > MAX_BATCH_MESSAGES) {
    throw invalidRequest(`Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages`);
  }
  for (const m of messages) {
    ignoreTaskAugmentation(m);
    ignoreExperimentalCapabilities(m);
  }
  const malformedParams = messages.map((m) => !isJsonRpcMessage(m));
  if (!messages.every((m, i) => !malformedParams[i] || hasValidEnvelope(m, ANSWERED_REQUESTS))) {
    throw invalidRequest('Invalid Request: not a JSON-RPC 2.0 message');
  }
  return { messages: messages as Message[], malformedParams };
}

/** Reads a POST's body: the parsed messages, each a JSON-RPC 2.0 message. */
export async function readMessages(
  req: IncomingMessage,
  reply: Reply,
  maxBodyBytes: number,
): Promise<ReadBody> {
  const refusal = refusalByHeaders(req);
  if (refusal) {
    reply.id = await idOfUnread(req, maxBodyBytes);
    throw refusal;
  }
  const raw = await readBody(req, maxBodyBytes);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw parseError();
  }
  reply.id = readableId(body);
  return { body, ...checkMessages(body) };
}
