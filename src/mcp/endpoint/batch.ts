import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { invalidParams, refused, rpcErrorMessage } from '../internal/errors.js';
import type { ParamsProblem, RequestId } from '../internal/messages.js';
import { writeJsonParts, writeWebResponse } from './answer.js';
import { runMessage, type MessageRun } from './run-message.js';

/**
 * Messages in one JSON-RPC batch, at most (the SDK's own bound): a larger batch is refused whole
 * with -32600 before any of it runs.
 */
export const MAX_BATCH_MESSAGES = 100;

/**
 * Bytes of answers a batch gathers, at most: 100 tool results at their largest budget (25,000
 * tokens) fit; 100 reads of a 4 MiB document (400 MiB held at once) do not. The requests past it
 * get an error saying to send them again on their own.
 */
export const MAX_BATCH_ANSWER_BYTES = 16 * 1024 * 1024;

/** A message of a batch, as far as answering it needs. */
export interface BatchMessage {
  id?: RequestId;
  method?: string;
}

/** The -32000 in place of a request past the bytes a batch gathers. */
function tooLarge(id: RequestId): Record<string, unknown> {
  const mib = MAX_BATCH_ANSWER_BYTES / 1024 / 1024;
  const error = refused(
    'batch_too_large',
    200,
    `The answers of this batch passed ${mib} MiB before this request: send it again on its own`,
  );
  return rpcErrorMessage(id, error);
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * Answers a (legacy, before 2025-06-18) JSON-RPC batch one message at a time, each on its own
 * turn of the event loop, so that a batch of a hundred heavy tool calls never holds the loop for
 * more than one call: other requests are served between them. Each message goes the way a single
 * one does, through the result cache, so repeated calls in a batch are computed once. Every
 * request gets its own answer, in the order of the batch, also when ids repeat (the SDK, given a
 * whole batch, keys its answers by id and keeps one per id); a request with invalid params gets
 * its -32602 in its place. Notifications and responses get nothing; a batch of only those is
 * 202. Once the answers pass MAX_BATCH_ANSWER_BYTES, each request left gets a -32000 error
 * instead of running. A refusal of the whole request by the SDK (an HTTP status other than 200
 * or 202) is answered as it is. When the client goes away, the rest of the batch is not run.
 */
export async function answerBatch(
  res: ServerResponse,
  run: MessageRun,
  batch: { messages: readonly BatchMessage[]; problems: readonly (ParamsProblem | null)[] },
  extra: Record<string, string>,
): Promise<void> {
  let gone = false;
  res.once('close', () => {
    gone = true;
  });
  const answers: Buffer[] = [];
  let bytes = 0;
  for (const [i, message] of batch.messages.entries()) {
    await nextTurn();
    if (gone) return;
    const problem = batch.problems[i];
    if (bytes > MAX_BATCH_ANSWER_BYTES && message.id !== undefined && message.method) {
      answers.push(Buffer.from(JSON.stringify(tooLarge(message.id))));
      continue;
    }
    if (problem) {
      const error = invalidParams(problem.message, problem.issues);
      answers.push(Buffer.from(JSON.stringify(rpcErrorMessage(message.id!, error))));
      continue;
    }
    const answer = await runMessage(run, message);
    if ('cached' in answer) {
      answers.push(Buffer.concat(answer.cached));
      bytes += answers.at(-1)!.length;
      continue;
    }
    const { response } = answer;
    if (response.status === 202) continue;
    if (response.status !== 200) return writeWebResponse(res, response, extra);
    answers.push(Buffer.from(await response.arrayBuffer()));
    bytes += answers.at(-1)!.length;
  }
  if (answers.length === 0)
    return writeWebResponse(res, new Response(null, { status: 202 }), extra);
  const parts = [OPEN, ...answers.flatMap((a, i) => (i === 0 ? [a] : [COMMA, a])), CLOSE];
  writeJsonParts(res, parts, extra);
}
