import type { Rng } from './prng.js';

/**
 * A tiny template language for review text. `{a|b|c}` picks one alternative (they nest, and an
 * empty one is allowed: `{really |}`), `@name` expands a shared rule (an `@` inside a word, as in
 * an e-mail address, is plain text), and `$slot` (optionally
 * `$slot:form`, for pronouns and endings) asks the caller for a value such as a staff name or a
 * vehicle. Templates are compiled once into trees, so expanding a million reviews stays fast.
 */

type Node = string | Choice | Slot | Ref;
interface Choice {
  kind: 'choice';
  options: Node[][];
}
interface Slot {
  kind: 'slot';
  name: string;
  form: string;
  /** The template writes a possessive right after the slot ("$tech's"). */
  possessive: boolean;
}
interface Ref {
  kind: 'ref';
  name: string;
}

/** A compiled template and the slots it needs. */
export interface Template {
  readonly nodes: readonly Node[];
  readonly slots: readonly string[];
  readonly source: string;
}

/** Supplies slot values while a template is expanded. */
export type SlotResolver = (name: string, form: string, possessive: boolean) => string;

/** A set of named shared rules (`@great`), each a list of alternatives. */
export type Rules = ReadonlyMap<string, readonly Template[]>;

function parseSeq(src: string, pos: { i: number }, slots: Set<string>, nested: boolean): Node[][] {
  const options: Node[][] = [[]];
  let lit = '';
  const flush = (): void => {
    if (lit) options[options.length - 1]!.push(lit);
    lit = '';
  };
  while (pos.i < src.length) {
    const ch = src[pos.i]!;
    if (ch === '{') {
      flush();
      pos.i++;
      options[options.length - 1]!.push({
        kind: 'choice',
        options: parseSeq(src, pos, slots, true),
      });
    } else if (ch === '}' && nested) {
      pos.i++;
      flush();
      return options;
    } else if (ch === '|' && nested) {
      pos.i++;
      flush();
      options.push([]);
    } else if (
      (ch === '$' || ch === '@') &&
      /[A-Za-z]/.test(src[pos.i + 1] ?? '') &&
      !(ch === '@' && /[A-Za-z0-9]/.test(src[pos.i - 1] ?? ''))
    ) {
      flush();
      const m = /^[$@]([A-Za-z][A-Za-z0-9]*)(?::([A-Za-z]+))?/.exec(src.slice(pos.i))!;
      pos.i += m[0].length;
      if (ch === '@') options[options.length - 1]!.push({ kind: 'ref', name: m[1]! });
      else {
        const possessive = /^['’]s\b/.test(src.slice(pos.i));
        options[options.length - 1]!.push({
          kind: 'slot',
          name: m[1]!,
          form: m[2] ?? '',
          possessive,
        });
        slots.add(m[1]!);
      }
    } else {
      lit += ch;
      pos.i++;
    }
  }
  if (nested) throw new Error(`unclosed "{" in template: ${src}`);
  flush();
  return options;
}

/**
 * Compiles one template; throws on an unclosed brace so a typo fails at start-up, not mid-run.
 * Outside braces, `|` is plain text.
 */
export function compileTemplate(source: string): Template {
  const slots = new Set<string>();
  const pos = { i: 0 };
  const [nodes] = parseSeq(source, pos, slots, false);
  return { nodes: nodes!, slots: [...slots], source };
}

/** Compiles a list of templates. */
export function compileAll(sources: readonly string[]): Template[] {
  return sources.map(compileTemplate);
}

/** Compiles a record of template lists (`{ 'staff.pos': [...] }`), keeping the keys. */
export function compileRecord(
  record: Readonly<Record<string, readonly string[]>>,
): ReadonlyMap<string, readonly Template[]> {
  return new Map(Object.entries(record).map(([k, v]) => [k, compileAll(v)]));
}

/** Compiles a record of shared rules (`{ great: ['great', 'awesome'] }`) for `@great`. */
export function compileRules(record: Readonly<Record<string, readonly string[]>>): Rules {
  return new Map(Object.entries(record).map(([k, v]) => [k, compileAll(v)]));
}

function expandNodes(nodes: readonly Node[], rng: Rng, rules: Rules, slot: SlotResolver): string {
  let out = '';
  for (const n of nodes) {
    if (typeof n === 'string') out += n;
    else if (n.kind === 'choice') out += expandNodes(rng.pick(n.options), rng, rules, slot);
    else if (n.kind === 'slot') out += slot(n.name, n.form, n.possessive);
    else {
      const rule = rules.get(n.name);
      if (!rule) throw new Error(`unknown rule @${n.name}`);
      out += expandNodes(rng.pick(rule).nodes, rng, rules, slot);
    }
  }
  return out;
}

/** Expands a compiled template with the given random stream, shared rules and slot values. */
export function expand(t: Template, rng: Rng, rules: Rules, slot: SlotResolver): string {
  return expandNodes(t.nodes, rng, rules, slot);
}

/**
 * Picks a template whose slots are all available (`has(slot)`), or `null` when none fits. A few
 * random probes come first, which is enough almost always and keeps the common case free of
 * allocation; then it picks uniformly among the templates that fit.
 */
export function pickTemplate(
  pool: readonly Template[],
  rng: Rng,
  has: (slot: string) => boolean,
): Template | null {
  const fits = (t: Template): boolean => {
    for (let i = 0; i < t.slots.length; i++) if (!has(t.slots[i]!)) return false;
    return true;
  };
  for (let i = 0; i < 6; i++) {
    const t = rng.pick(pool);
    if (fits(t)) return t;
  }
  const ok = pool.filter(fits);
  return ok.length === 0 ? null : rng.pick(ok);
}
