import { compileAll, compileRecord, compileRules, type Rules, type Template } from './grammar.js';
import {
  CLOSERS,
  CONTEXT_BY_SERVICE,
  CONTEXT_FINANCE,
  CONTEXT_LEASE,
  CONTEXT_SALES,
  CONTEXT_SERVICE,
  ASIDES,
  OPENERS,
  TINY,
  UPDATES,
} from './text/frame-pools.js';
import { PARTS_BODY_POOLS, SHARED_POOLS } from './text/other-pools.js';
import { RULES_EN } from './text/rules-en.js';
import { SALES_POOLS } from './text/sales-pools.js';
import { SERVICE_POOLS } from './text/service-pools.js';
import { STORIES } from './text/story-pools.js';
import {
  SPANISH_CLOSERS,
  SPANISH_CONTEXT_SALES,
  SPANISH_CONTEXT_SERVICE,
  SPANISH_POOLS,
  SPANISH_TINY,
  SPANISH_UPDATES,
} from './text/spanish-pools.js';
import type { DeptGroup, Opinion } from './visit-types.js';

type Pools = ReadonlyMap<string, readonly Template[]>;
/** A Spanish template and its English translation, compiled. */
export type TemplatePair = readonly [Template, Template];

function compilePairs(pairs: readonly (readonly [string, string])[]): TemplatePair[] {
  return pairs.map(([es, en]) => [compileAll([es])[0]!, compileAll([en])[0]!] as const);
}

function compilePairRecord(
  record: Readonly<Record<string, readonly (readonly [string, string])[]>>,
): ReadonlyMap<string, readonly TemplatePair[]> {
  return new Map(Object.entries(record).map(([k, v]) => [k, compilePairs(v)]));
}

/** Every sentence pool, compiled once when the module loads (a template typo fails here). */
export const EN = {
  rules: compileRules(RULES_EN) as Rules,
  service: compileRecord(SERVICE_POOLS),
  sales: compileRecord(SALES_POOLS),
  shared: compileRecord(SHARED_POOLS),
  partsBody: compileRecord(PARTS_BODY_POOLS),
  contextService: compileAll(CONTEXT_SERVICE),
  contextByService: compileRecord(CONTEXT_BY_SERVICE),
  contextSales: compileAll(CONTEXT_SALES),
  contextLease: compileAll(CONTEXT_LEASE),
  contextFinance: compileAll(CONTEXT_FINANCE),
  openers: compileRecord(OPENERS),
  closers: compileRecord(CLOSERS),
  asides: compileAll(ASIDES),
  tiny: compileRecord(TINY),
  updates: compileRecord(UPDATES),
  stories: new Map(
    Object.entries(STORIES).map(([k, beats]) => [k, beats.map((b) => compileAll(b))]),
  ),
};

/** The Spanish pools, each template paired with its English translation. */
export const ES = {
  opinions: compilePairRecord(SPANISH_POOLS),
  contextService: compilePairs(SPANISH_CONTEXT_SERVICE),
  contextSales: compilePairs(SPANISH_CONTEXT_SALES),
  closers: compilePairRecord(SPANISH_CLOSERS),
  tiny: compilePairRecord(SPANISH_TINY),
  updates: compilePairRecord(SPANISH_UPDATES),
};

function sourcesFor(dept: DeptGroup): [Pools, string][] {
  switch (dept) {
    case 'service':
      return [
        [EN.service, ''],
        [EN.shared, ''],
      ];
    case 'sales':
    case 'finance':
      return [
        [EN.sales, ''],
        [EN.shared, ''],
      ];
    case 'parts':
      return [
        [EN.partsBody, 'parts.'],
        [EN.shared, ''],
        [EN.service, ''],
      ];
    case 'body-shop':
      return [
        [EN.partsBody, 'body.'],
        [EN.shared, ''],
        [EN.service, ''],
      ];
  }
}

/**
 * The English pools that can voice an opinion in a department, most specific first: the era's
 * own sentences (short staffing, online booking...), then the department's, then shared ones.
 * A neutral opinion with no neutral sentences falls back to the positive ones.
 */
export function englishPoolsFor(dept: DeptGroup, op: Opinion): readonly (readonly Template[])[] {
  const key = `${dept}|${op.topic}|${op.polarity}|${op.era ?? ''}`;
  let pools = POOL_CACHE.get(key);
  if (!pools) {
    pools = findEnglishPools(dept, op);
    POOL_CACHE.set(key, pools);
  }
  return pools;
}

const POOL_CACHE = new Map<string, readonly (readonly Template[])[]>();

function findEnglishPools(dept: DeptGroup, op: Opinion): (readonly Template[])[] {
  const out: (readonly Template[])[] = [];
  const polarities = op.polarity === 'neu' ? ['neu', 'pos'] : [op.polarity];
  for (const pol of polarities) {
    const base = `${op.topic}.${pol}`;
    for (const [pools, prefix] of sourcesFor(dept)) {
      if (op.era) {
        const era = pools.get(`${prefix}${base}.${op.era}`);
        if (era) out.push(era);
      }
      const plain = pools.get(`${prefix}${base}`);
      if (plain) out.push(plain);
    }
  }
  return out;
}

/** The Spanish pairs for an opinion, era first; empty when Spanish has nothing for it. */
export function spanishPoolsFor(op: Opinion): (readonly TemplatePair[])[] {
  const out: (readonly TemplatePair[])[] = [];
  const base = `${op.topic}.${op.polarity}`;
  if (op.era) {
    const era = ES.opinions.get(`${base}.${op.era}`);
    if (era) out.push(era);
  }
  const plain = ES.opinions.get(base);
  if (plain) out.push(plain);
  return out;
}
