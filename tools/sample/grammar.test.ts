import { describe, expect, it } from 'vitest';
import { compileRules, compileTemplate, expand, type Template } from './grammar.js';
import { EN, ES } from './pools.js';
import { createRng } from './prng.js';
import { RESPONSE_EN, RESPONSE_ES, TITLES } from './text/response-pools.js';
import { RULES_EN } from './text/rules-en.js';

const rules = compileRules({ great: ['great'] });
const fill = (name: string, form: string): string => `<${name}${form ? `:${form}` : ''}>`;

describe('template language', () => {
  it('expands choices, rules and slots', () => {
    const t = compileTemplate('{a|b} @great $tech:he $adv');
    expect(t.slots).toEqual(['tech', 'adv']);
    const out = expand(t, createRng(1), rules, fill);
    expect(out).toMatch(/^[ab] great <tech:he> <adv>$/);
  });

  it('treats an @ inside a word and a $ before a digit as text', () => {
    const t = compileTemplate('mail care@stonebridge-gm.example.com about $20');
    expect(t.slots).toEqual([]);
    expect(expand(t, createRng(1), rules, fill)).toBe(
      'mail care@stonebridge-gm.example.com about $20',
    );
  });

  it('reports a possessive right after a slot', () => {
    let possessive = false;
    expand(compileTemplate("$tech's work"), createRng(1), rules, (_n, _f, p) => {
      possessive = p;
      return 'Mike';
    });
    expect(possessive).toBe(true);
  });

  it('rejects an unclosed brace and keeps a bare bar as text', () => {
    expect(() => compileTemplate('{a|b')).toThrow(/unclosed/);
    expect(expand(compileTemplate('a|b'), createRng(1), rules, fill)).toBe('a|b');
  });
});

const KNOWN_SLOTS = new Set([
  'make',
  'adv',
  'tech',
  'sales',
  'fin',
  'parts',
  'body',
  'mgr',
  'driver',
  'staff',
  'bilingual',
  'onlyService',
  'onlySale',
  'car',
  'model',
  'newmodel',
  'vehicle',
  'newcar',
  'trade',
  'svc',
  'svcb',
  'svc2',
  'svcdept',
  'hours',
  'days',
  'weeks',
  'appt',
  'outtime',
  'quote',
  'bill',
  'fee',
  'saved',
  'rate',
  'upsell',
  'dow',
  'city',
  'color',
  'carro',
  'nuevo',
  'horas',
  'dias',
  'ciudad',
]);

function allEnglish(): Template[] {
  const out: Template[] = [];
  for (const value of Object.values(EN)) {
    if (Array.isArray(value)) out.push(...(value as Template[]));
    else if (value instanceof Map) {
      for (const v of value.values()) out.push(...(v as Template[][]).flat());
    }
  }
  return out;
}

function shape(nodes: readonly unknown[]): string {
  return nodes
    .map((n) => {
      if (typeof n === 'string') return '';
      const node = n as { kind: string; options?: unknown[][]; name?: string; form?: string };
      if (node.kind === 'choice') return `{${node.options!.map((o) => shape(o)).join('|')}}`;
      // Pronoun forms draw nothing and are not translated, so they may differ between languages.
      if (node.kind === 'slot') return node.form ? '' : `$${node.name}`;
      return `@${node.name}`;
    })
    .join('');
}

describe('the sentence pools', () => {
  it('use only known slots and defined rules', () => {
    const templates = allEnglish();
    expect(templates.length).toBeGreaterThan(500);
    for (const t of templates) {
      for (const s of t.slots) expect(KNOWN_SLOTS, `${s} in ${t.source}`).toContain(s);
      for (const [, ref] of t.source.matchAll(/(?<![A-Za-z0-9])@([A-Za-z]+)/g)) {
        expect(Object.keys(RULES_EN), `@${ref} in ${t.source}`).toContain(ref);
      }
    }
  });

  it('pair every Spanish template with a translation of the same shape', () => {
    const pairs = [
      ...[...ES.opinions.values()].flat(),
      ...ES.contextService,
      ...ES.contextSales,
      ...[...ES.closers.values()].flat(),
      ...[...ES.tiny.values()].flat(),
      ...[...ES.updates.values()].flat(),
    ];
    expect(pairs.length).toBeGreaterThan(50);
    for (const [es, en] of pairs) {
      expect(shape(en.nodes), `${es.source} / ${en.source}`).toBe(shape(es.nodes));
    }
  });

  it('compile the reply and title pools', () => {
    for (const record of [RESPONSE_EN, RESPONSE_ES, TITLES]) {
      for (const list of Object.values(record) as readonly string[][]) {
        for (const s of list) expect(() => compileTemplate(s)).not.toThrow();
      }
    }
  });
});
