import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import type { Published, Snapshot } from '../../snapshot/types.js';
import { invalidParams, invalidRequest } from '../internal/errors.js';
import { checkParams, type ParamsProblem } from '../internal/messages.js';
import type { McpObserver } from '../observer.js';
import type { McpResultCache } from '../result-cache.js';
import { revisionOf, type RequestInfo } from '../revisions.js';
import { ANSWERED_REQUESTS } from '../server.js';
import type { SessionManager } from '../sessions.js';
import { writeJsonParts, writeWebResponse } from './answer.js';
import { answerBatch } from './batch.js';
import { corsHeaders } from './cors.js';
import { eraOf } from './era.js';
import { readMessages, type Message, type ReadBody, type Reply } from './read-request.js';
import { runMessage, type MessageRun } from './run-message.js';
import type { SessionGate } from './session-gate.js';
import type { Stateless } from './stateless.js';

/**
 * Dispatching a `POST /mcp`: after its body is read (read-request.ts), its era (era.ts): a
 * 2026-07-28 request goes to the stateless step (stateless.ts); a 2025 one to the params of the methods
 * the server answers (-32602, short messages), the session and protocol version (session-gate.ts),
 * the batching rules of that version (-32600), then one message to a fresh SDK server and
 * transport (run-message.ts), or a batch one message at a time (batch.ts), all over one snapshot.
 */
export interface Dispatch {
  gate: SessionGate;
  /** The 2026-07-28 era (stateless.ts). */
  stateless: Stateless;
  /** The client's rate-limit key (its address). */
  addressOf(req: IncomingMessage): string;
  sessions: SessionManager;
  published: Published;
  createServer: (snapshot: Snapshot, request: RequestInfo) => Server;
  resultCache: McpResultCache | undefined;
  maxBodyBytes: number;
  observer: McpObserver | undefined;
}

/** The batching rules of the request's protocol version (-32600). */
function checkBatch(read: ReadBody, info: RequestInfo, init: Message | undefined): void {
  if (!Array.isArray(read.body)) return;
  if (!revisionOf(info.protocolVersion).batches) {
    throw invalidRequest(
      `Invalid Request: JSON-RPC batches are not supported in protocol version ${info.protocolVersion}`,
    );
  }
  if (init)
    throw invalidRequest('Invalid Request: initialize must not be part of a JSON-RPC batch');
}

/** `POST /mcp`: one JSON-RPC message, or a (legacy) batch. */
export async function dispatchPost(
  d: Dispatch,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string | undefined,
  reply: Reply,
): Promise<void> {
  const read = await readMessages(req, reply, d.maxBodyBytes);
  const { body, messages, malformedParams } = read;
  if ((await eraOf(req, body)) === 'modern') {
    return d.stateless.serve(req, res, body, corsHeaders(origin), d.addressOf(req));
  }
  const problems: (ParamsProblem | null)[] = messages.map((m) => checkParams(m, ANSWERED_REQUESTS));
  // Params the method's schema accepts but the message schema does not: nothing says why.
  if (malformedParams.some((bad, i) => bad && !problems[i])) {
    throw invalidRequest('Invalid Request: not a JSON-RPC 2.0 message');
  }
  const init = messages.find((m) => m.method === 'initialize');
  const info = await d.gate.infoOf(req, init);
  let extra: Record<string, string> = corsHeaders(origin);
  checkBatch(read, info, init);
  if (!Array.isArray(body)) {
    const problem = problems[0];
    if (problem) throw invalidParams(problem.message, problem.issues);
    if (init) {
      await d.gate.limitInitialize(req);
      extra = { ...extra, 'Mcp-Session-Id': d.sessions.issue(info.protocolVersion).id };
      d.observer?.sessionStarted();
    }
  }
  // One snapshot for the whole request: the results are computed from it and cached under it.
  const run: MessageRun = {
    req,
    snapshot: d.published.current(),
    info,
    createServer: d.createServer,
    resultCache: d.resultCache,
    observer: d.observer,
  };
  if (Array.isArray(body)) return answerBatch(res, run, { messages, problems }, extra);
  const answer = await runMessage(run, body);
  if ('response' in answer) return writeWebResponse(res, answer.response, extra);
  writeJsonParts(res, answer.cached, extra);
}
