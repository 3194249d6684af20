import { compileAll, expand, pickTemplate, type Template } from './grammar.js';
import { EN, englishPoolsFor } from './pools.js';
import type { Rng } from './prng.js';
import type { RosterEntry } from './roster.js';
import { createSlotContext, type SlotContext } from './slot-values.js';
import { finishText, type Sentence } from './voice.js';
import type { Opinion, Polarity, Visit } from './visit-types.js';

/** A written review body and the staff it names. */
export interface Written {
  text: string;
  /** Staff named in the text, in order of first mention. */
  mentioned: RosterEntry[];
  /** The English a translation would show, for Spanish reviews. */
  translation: string | null;
}

function render(
  ctx: SlotContext,
  pool: readonly Template[] | undefined,
  used: Set<Template>,
): string | null {
  if (!pool || pool.length === 0) return null;
  let t = pickTemplate(pool, ctx.rng, ctx.has);
  for (let i = 0; i < 3 && t && used.has(t); i++) t = pickTemplate(pool, ctx.rng, ctx.has);
  if (!t || used.has(t)) return null;
  used.add(t);
  return expand(t, ctx.rng, EN.rules, ctx.fill);
}

const TECH_ONLY = new WeakMap<readonly Template[], readonly Template[]>();

/** The templates of a pool that name the technician (customers who met the tech say so). */
function techTemplates(pool: readonly Template[]): readonly Template[] {
  let list = TECH_ONLY.get(pool);
  if (!list) {
    list = pool.filter((t) => t.slots.includes('tech'));
    TECH_ONLY.set(pool, list);
  }
  return list;
}

function renderOpinion(ctx: SlotContext, op: Opinion, used: Set<Template>): string | null {
  const v = ctx.visit;
  if (
    v.staff.tech &&
    (op.topic === 'staff' || op.topic === 'quality-of-work') &&
    ctx.rng.chance(0.4)
  ) {
    for (const pool of englishPoolsFor(v.dept, op)) {
      const text = render(ctx, techTemplates(pool), used);
      if (text) return text;
    }
  }
  for (const pool of englishPoolsFor(v.dept, op)) {
    const text = render(ctx, pool, used);
    if (text) return text;
  }
  return null;
}

function contextPool(v: Visit, rng: Rng): readonly Template[] {
  if (v.dept === 'service' || v.dept === 'parts' || v.dept === 'body-shop') {
    const specific = EN.contextByService.get(v.services[0]!.id);
    if (specific && (v.dept !== 'service' || rng.chance(0.45))) return specific;
    return EN.contextService;
  }
  if (v.dept === 'finance' && rng.chance(0.6)) return EN.contextFinance;
  if (v.salesKind === 'lease' && rng.chance(0.7)) return EN.contextLease;
  return EN.contextSales;
}

function tone(v: Visit): 'pos' | 'neg' | 'mid' {
  if (v.valence === 'pos' || v.valence === 'mixed-pos') return 'pos';
  return v.valence === 'neg' || v.valence === 'mixed-neg' ? 'neg' : 'mid';
}

const PLAN = {
  short: { opener: 0, context: 0.15, story: 0, aside: 0, overall: 0, closer: 0.3, repeat: 0 },
  medium: {
    opener: 0.15,
    context: 0.6,
    story: 0,
    aside: 0.05,
    overall: 0.1,
    closer: 0.5,
    repeat: 0,
  },
  long: {
    opener: 0.35,
    context: 0.9,
    story: 0.35,
    aside: 0.3,
    overall: 0.2,
    closer: 0.7,
    repeat: 0.25,
  },
  epic: {
    opener: 0.5,
    context: 1,
    story: 0.85,
    aside: 0.6,
    overall: 0.35,
    closer: 0.85,
    repeat: 0.6,
  },
} as const;

function storySentences(ctx: SlotContext, used: Set<Template>): Sentence[] {
  const v = ctx.visit;
  const group = v.dept === 'service' ? 'service' : v.salesKind ? 'sales' : null;
  if (!group) return [];
  const negative =
    v.valence === 'neg' ||
    v.valence === 'mixed-neg' ||
    (v.valence === 'mixed' && ctx.rng.chance(0.5));
  const beats = EN.stories.get(`${group}.${negative ? 'neg' : 'pos'}`) ?? [];
  const out: Sentence[] = [];
  beats.forEach((beat, i) => {
    if (i > 0 && !ctx.rng.chance(v.length === 'epic' ? 0.9 : 0.6)) return;
    const text = render(ctx, beat, used);
    if (text) out.push({ text, pol: null, kind: 'story' });
  });
  return out;
}

const OVERALL: Readonly<Record<'pos' | 'neg' | 'mid', readonly Template[]>> = {
  pos: compileAll([
    '{overall|all in all|bottom line}, {a great|a really good|a smooth} {experience|visit}',
    '{overall|honestly} {could not have asked for more|zero complaints}',
    '{very|really} {happy|pleased} with {the whole thing|everything}',
    '{I|we} {left happy|drove off happy}',
  ]),
  mid: compileAll([
    '{overall|all in all} {it was ok|decent|fine I guess}',
    '{mixed bag|mixed feelings} {overall|honestly}',
    '{good|fine} but {could be better|not great}',
  ]),
  neg: compileAll([
    '{overall|all in all} {a terrible|a frustrating|an awful} {experience|day}',
    '{very|extremely} disappointed {overall|with the whole thing}',
    '{what a waste of a day|waste of a Saturday}',
  ]),
};

function tinyReview(ctx: SlotContext, used: Set<Template>): Sentence[] {
  const t = tone(ctx.visit);
  const text = render(ctx, EN.tiny.get(t), used) ?? 'ok';
  return [{ text, pol: null, kind: 'frame' }];
}

function opinionSentences(ctx: SlotContext, used: Set<Template>, repeat: number): Sentence[] {
  const v = ctx.visit;
  const ops = [...v.opinions];
  // Happy reviews save their one complaint for last; unhappy ones their one praise.
  if (v.valence === 'mixed-pos' || v.valence === 'mixed-neg') {
    const odd = v.valence === 'mixed-pos' ? 'pos' : 'neg';
    ops.sort((a, b) => Number(a.polarity !== odd) - Number(b.polarity !== odd));
  }
  const out: Sentence[] = [];
  for (const op of ops) {
    // The long waits of the short-staffed months are what those reviews are about.
    const stress = op.era === 'shortstaffed' ? 0.6 : 0;
    const times = ctx.rng.chance(Math.max(repeat, stress)) ? 2 : 1;
    for (let k = 0; k < times; k++) {
      const text = renderOpinion(ctx, op, used);
      if (text) out.push({ text, pol: op.polarity as Polarity, kind: 'op' });
    }
  }
  return out;
}

/**
 * Writes an English review body for a planned visit: a one-liner for tiny reviews, otherwise an
 * opener, the reason for the visit, the opinions (complaint last in a happy review), an aside,
 * an overall verdict and a closer as the length allows, then the edit paragraph if the author
 * came back to it. The surface (contractions, punctuation, typos, capitals) is the voice's job.
 */
export function composeEnglish(v: Visit, rng: Rng): Written {
  const ctx = createSlotContext(v, rng, 'en');
  const used = new Set<Template>();
  let sentences: Sentence[];
  if (v.length === 'tiny') sentences = tinyReview(ctx, used);
  else {
    const plan = PLAN[v.length];
    const t = tone(v);
    sentences = [];
    const frame = (pool: readonly Template[] | undefined, p: number): void => {
      if (!rng.chance(p)) return;
      const text = render(ctx, pool, used);
      if (text) sentences.push({ text, pol: null, kind: 'frame' });
    };
    frame(t === 'mid' || rng.chance(0.25) ? EN.openers.get('any') : EN.openers.get(t), plan.opener);
    const story = rng.chance(plan.story) ? storySentences(ctx, used) : [];
    frame(contextPool(v, rng), story.length > 0 ? 0 : plan.context);
    sentences.push(...story);
    sentences.push(...opinionSentences(ctx, used, plan.repeat));
    frame(EN.asides, plan.aside);
    frame(OVERALL[t], plan.overall);
    frame(EN.closers.get(t), plan.closer);
    if (sentences.length === 0) sentences = tinyReview(ctx, used);
  }
  const update = v.edit ? render(ctx, EN.updates.get(v.edit.kind), used) : null;
  const text = finishText(sentences, v, rng, update);
  return { text, mentioned: ctx.mentioned, translation: null };
}
