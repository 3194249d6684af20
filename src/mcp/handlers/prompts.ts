import type { Snapshot } from '../../snapshot/types.js';
import { invalidParams } from '../internal/errors.js';
import { PROMPTS, type PromptDefinition } from '../prompts.js';
import { REVIEW_TEMPLATE } from '../resources.js';
import { answering, type HandlerFamily } from './family.js';

/**
 * The prompts family: `prompts/list`, `prompts/get`, and `completion/complete` (review ids of the
 * `review://{id}` template, and the values of a prompt's arguments).
 */

/** Completions listed at most. */
const MAX_COMPLETIONS = 100;

function promptNamed(name: string, path: string[]): PromptDefinition {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) {
    throw invalidParams('Unknown prompt', [
      { path, code: 'unknown_prompt', message: 'is not a prompt of this server' },
    ]);
  }
  return prompt;
}

type CompleteParams = {
  ref: { type: string; uri?: string; name?: string };
  argument: { name: string; value: string };
};

function complete({ ref, argument }: CompleteParams, snapshot: Snapshot) {
  if (ref.type === 'ref/resource' && ref.uri === REVIEW_TEMPLATE && argument.name === 'id') {
    const { values, total } = snapshot.index.idsWithPrefix(argument.value, MAX_COMPLETIONS);
    return { completion: { values, total, hasMore: total > values.length } };
  }
  let values: string[] = [];
  if (ref.type === 'ref/prompt') {
    const prompt = promptNamed(ref.name!, ['ref', 'name']);
    values = prompt.complete?.(argument.name, snapshot) ?? [];
  }
  const prefix = argument.value.toLowerCase();
  const matching = values.filter((v) => v.toLowerCase().startsWith(prefix));
  return {
    completion: {
      values: matching.slice(0, MAX_COMPLETIONS),
      total: matching.length,
      hasMore: matching.length > MAX_COMPLETIONS,
    },
  };
}

export function createPromptHandlers(): HandlerFamily {
  const listed = {
    prompts: PROMPTS.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments,
    })),
  };
  return (server, { snapshot }) => {
    server.setRequestHandler(
      'prompts/list',
      answering(() => listed),
    );
    server.setRequestHandler(
      'prompts/get',
      answering((request) =>
        promptNamed(request.params.name, ['name']).get(request.params.arguments ?? {}, snapshot),
      ),
    );
    server.setRequestHandler(
      'completion/complete',
      answering((request) => complete(request.params, snapshot)),
    );
  };
}
