import fc from 'fast-check';
import { anyText, longText, OBJECT_KEYS } from './arbitraries.js';

/**
 * Mutations of JSON documents (request bodies, import files): a field replaced by a hostile
 * value, deleted, or added. Hostile values are raw JSON text, put in through placeholders, so
 * they can be what `JSON.stringify` cannot write: 1e400, 30-digit integers, nesting deeper than
 * its stack.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Hostile values put in place of a field (as JSON text, so numbers can exceed doubles). */
export const HOSTILE = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '1e400',
    '-1e400',
    '1e-400',
    '123456789012345678901234567890',
    '-0',
    '0.1',
    'null',
    'true',
    '[]',
    '{}',
    '""',
    '"\\u0000"',
    '"\\ud800"',
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
  ),
  anyText(30).map((s) => JSON.stringify(s)),
  fc.integer({ min: 1, max: 30_000 }).map((n) => `__DEEP${n}__`),
  longText(5_000, 60_000).map((s) => JSON.stringify(s)),
);

export interface Mutation {
  /** Which node (in a depth-first walk) to touch. */
  at: number;
  kind: 'replace' | 'delete' | 'add';
  /** The new value's JSON text (for replace and add) and the added key. */
  value: string;
  key: string;
}

/** One mutation of a document. */
export const MUTATIONS = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'replace', 'delete', 'add') as fc.Arbitrary<Mutation['kind']>,
  value: HOSTILE,
  key: fc.oneof(
    fc.constantFrom('params', 'arguments', 'id', 'method', 'jsonrpc', '_meta', 'extra'),
    fc.constantFrom(...OBJECT_KEYS),
    anyText(10),
  ),
});

function paths(value: Json, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else if (value && typeof value === 'object')
    for (const k of Object.keys(value)) paths(value[k]!, [...at, k], out);
  return out;
}

const PLACEHOLDER = '\u0001hostile\u0001';

/** Applies a mutation; the hostile value goes in as a placeholder replaced in the text later. */
export function applyMutation(root: Json, m: Mutation, values: string[]): Json {
  const all = paths(root);
  const path = all[m.at % all.length]!;
  const marker = `${PLACEHOLDER}${values.length}`;
  values.push(m.value);
  if (path.length === 0) {
    if (m.kind === 'replace') return marker;
    if (m.kind === 'add' && root && typeof root === 'object' && !Array.isArray(root))
      return { ...root, [m.key]: marker };
    return root;
  }
  const parentPath = path.slice(0, -1);
  let parent: Json = root;
  for (const p of parentPath) parent = (parent as Record<string, Json>)[p as string]!;
  const last = path.at(-1)!;
  if (Array.isArray(parent)) {
    if (m.kind === 'delete') parent.splice(last as number, 1);
    else if (m.kind === 'add') parent.push(marker);
    else parent[last as number] = marker;
  } else if (parent && typeof parent === 'object') {
    if (m.kind === 'delete') delete parent[last as string];
    // Defined, not assigned: an added `__proto__` is a key of the document, not its prototype.
    else if (m.kind === 'add')
      Object.defineProperty(parent, m.key, {
        value: marker,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else parent[last as string] = marker;
  }
  return root;
}

/** Serialises a mutated document: placeholders become their raw text, `__DEEPn__` n nested arrays. */
export function writeJson(value: Json, values: readonly string[]): string {
  return JSON.stringify(value)
    .replace(/"\\u0001hostile\\u0001(\d+)"/g, (_m, i: string) => values[Number(i)]!)
    .replace(
      /"?__DEEP(\d+)__"?/g,
      (_m, n: string) => '['.repeat(Number(n)) + ']'.repeat(Number(n)),
    );
}

/** A document with up to `max` mutations, as JSON text (most documents are left valid). */
export function mutatedJson(template: Json, max = 2): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 1, arbitrary: fc.constant([] as Mutation[]) },
      { weight: 3, arbitrary: fc.array(MUTATIONS, { minLength: 1, maxLength: max }) },
    )
    .map((mutations) => {
      const values: string[] = [];
      let root = structuredClone(template);
      for (const m of mutations) root = applyMutation(root, m, values);
      return writeJson(root, values);
    });
}
