import { STORE } from './dealership.js';
import { weekday } from './local-time.js';
import type { Rng } from './prng.js';
import type { RosterEntry, StaffSlot } from './roster.js';
import { chooseNameStyle, pronounFor, type NameStyle } from './staff-names.js';
import { COLORS } from './text/vehicles.js';
import type { CarRef, Visit } from './visit-types.js';

/** The state of one review being written: names chosen so far, fixed numbers, the translation. */
export interface SlotContext {
  readonly visit: Visit;
  readonly rng: Rng;
  readonly lang: 'en' | 'es';
  readonly names: Map<string, { style: NameStyle; used: boolean }>;
  readonly memo: Map<string, string>;
  /** Staff named in the text so far, in order (owner responses thank them). */
  readonly mentioned: RosterEntry[];
  /** For Spanish: the English values of the slots, in order, for the translation. */
  readonly translation: Map<string, string[]>;
  /** `hasSlot` and `resolveSlot` bound to this context, made once per review. */
  readonly has: (slot: string) => boolean;
  readonly fill: (slot: string, form: string) => string;
}

/** Creates the writing state of one review. */
export function createSlotContext(visit: Visit, rng: Rng, lang: 'en' | 'es'): SlotContext {
  const ctx: SlotContext = {
    visit,
    rng,
    lang,
    names: new Map(),
    memo: new Map(),
    mentioned: [],
    translation: new Map(),
    has: (slot) => hasSlot(ctx, slot),
    fill: (slot, form) => resolveSlot(ctx, slot, form),
  };
  return ctx;
}

/** Slots that write nothing and only restrict a template to service visits or to sales. */
const GUARDS = new Set(['onlyService', 'onlySale']);
const STAFF_SLOTS = new Set([
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
]);
const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
];
const PALABRAS = [
  'cero',
  'una',
  'dos',
  'tres',
  'cuatro',
  'cinco',
  'seis',
  'siete',
  'ocho',
  'nueve',
  'diez',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const UPSELLS = [
  'a fuel system cleaning',
  'an engine flush',
  'a throttle body service',
  'a power steering flush',
  'an induction service',
  'a $249 fuel injection cleaning',
  'nitrogen in my tires',
  'a $189 "engine decarbonization"',
];

/**
 * The person a staff slot refers to in this visit, if any: `staff` is the main contact and
 * `bilingual` the Spanish speaker who helped.
 */
export function staffFor(v: Visit, slot: string): RosterEntry | undefined {
  if (slot === 'bilingual') return Object.values(v.staff).find((e) => e?.spanish);
  if (slot !== 'staff') return v.staff[slot as StaffSlot];
  const order: Record<Visit['dept'], StaffSlot[]> = {
    service: ['adv', 'tech'],
    sales: ['sales', 'fin', 'mgr'],
    finance: ['fin', 'sales'],
    parts: ['parts'],
    'body-shop': ['body'],
  };
  for (const s of order[v.dept]) if (v.staff[s]) return v.staff[s];
  return undefined;
}

/** Formats dollars with thousands separators, without the locale (`$1,150`). */
export function money(n: number): string {
  const s = String(Math.round(n));
  return `$${s.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

function withArticle(phrase: string): string {
  return /^[AEIOaeio8]/.test(phrase) || /^11/.test(phrase) ? `an ${phrase}` : `a ${phrase}`;
}

const isSale = (v: Visit): boolean => v.salesKind !== null;

/** True when the review can fill the slot (a `$tech` needs a technician in the story). */
export function hasSlot(ctx: SlotContext, name: string): boolean {
  const v = ctx.visit;
  if (name === 'onlyService') return v.dept === 'service';
  if (name === 'onlySale') return isSale(v);
  if (STAFF_SLOTS.has(name)) return staffFor(v, name) !== undefined;
  switch (name) {
    case 'svc':
    case 'svcb':
      return v.services.length > 0 && (ctx.lang === 'en' || v.services[0]!.es.length > 0);
    case 'svc2':
      return v.services.length > 1;
    case 'quote':
    case 'bill':
      return v.services.length > 0 && v.services[0]!.price[1] > 0;
    case 'svcdept':
      return v.dept === 'service';
    case 'newcar':
    case 'newmodel':
    case 'nuevo':
      return isSale(v);
    case 'trade':
      return v.trade !== null;
    default:
      return true;
  }
}

function memo(ctx: SlotContext, key: string, make: () => string): string {
  let value = ctx.memo.get(key);
  if (value === undefined) {
    value = make();
    ctx.memo.set(key, value);
  }
  return value;
}

function staffName(ctx: SlotContext, e: RosterEntry): string {
  let state = ctx.names.get(e.id);
  if (!state) {
    state = { style: chooseNameStyle(ctx.rng, e), used: false };
    ctx.names.set(e.id, state);
    ctx.mentioned.push(e);
  }
  const text = state.used ? state.style.later : state.style.first;
  state.used = true;
  return text;
}

function carPhrase(rng: Rng, car: CarRef): string {
  const { model, year } = car;
  const kind = model.kind;
  return rng.weighted<string>([
    [`my ${model.model}`, 30],
    [`my ${kind}`, 20],
    [`my ${year} ${model.model}`, 12],
    [`our ${model.model}`, 8],
    [`my wife's ${model.model}`, 5],
    [`my husband's ${kind}`, 4],
    [`my daughter's ${model.model}`, 3],
    [`the ${model.model}`, 8],
    [`my ${model.make} ${model.model}`, 6],
  ]);
}

function newCarPhrase(rng: Rng, v: Visit): string {
  const { model, year } = v.car;
  const name =
    model.make === 'Chevrolet' || model.make === 'GMC' || model.make === 'Buick'
      ? model.model
      : `${model.make} ${model.model}`;
  if (v.salesKind === 'used') {
    return rng.pick([
      withArticle(`used ${name}`),
      withArticle(`${year} ${name}`),
      withArticle(`certified pre-owned ${name}`),
      `a pre-owned ${name}`,
    ]);
  }
  return rng.pick([
    withArticle(`${year} ${name}`),
    `a new ${name}`,
    withArticle(`${year} ${model.make} ${model.model}`),
    `a brand new ${name}`,
  ]);
}

function waitHours(rng: Rng): string {
  return rng.pick([
    'three hours',
    'almost 4 hours',
    '2.5 hours',
    'over two hours',
    '3+ hours',
    'four and a half hours',
    '5 hours',
    'three and a half hours',
  ]);
}

function english(ctx: SlotContext, name: string): string {
  const { visit: v, rng } = ctx;
  switch (name) {
    case 'car':
      return carPhrase(rng, v.car);
    case 'model':
    case 'newmodel':
      return v.car.model.model;
    case 'make':
      return v.car.model.make === 'Chevrolet' && rng.chance(0.5) ? 'Chevy' : v.car.model.make;
    case 'vehicle':
      return rng.chance(0.8) ? v.car.model.kind : v.car.model.model;
    case 'newcar':
      return memo(ctx, 'newcar', () => newCarPhrase(rng, v));
    case 'trade':
      return rng.pick([
        `my old ${v.trade!.model.model}`,
        `our ${v.trade!.year} ${v.trade!.model.model}`,
        `my ${v.trade!.model.model}`,
        `my ${v.trade!.model.make}`,
      ]);
    case 'svc':
      return memo(ctx, 'svc', () => rng.pick(v.services[0]!.np));
    case 'svcb':
      return memo(ctx, 'svcb', () => rng.pick(v.services[0]!.bare));
    case 'svc2':
      return rng.pick(v.services[1]!.np);
    case 'svcdept':
      return rng.pick([
        'service department',
        'service department',
        'service dept',
        'service center',
      ]);
    case 'hours':
      return memo(ctx, 'hours', () => waitHours(rng));
    case 'days':
      return memo(ctx, 'days', () =>
        rng.pick(['three days', 'a week', 'almost two weeks', '10 days', 'five days', 'four days']),
      );
    case 'weeks':
      return memo(ctx, 'weeks', () =>
        rng.pick(['three weeks', 'a month', 'six weeks', 'over a month', 'two months']),
      );
    case 'appt':
      return memo(ctx, 'appt', () => rng.pick(['7:30', '8am', '9:00', '10:15', '8:30 am', '7am']));
    case 'outtime':
      return rng.pick(['after 1', '2:30', 'noon', 'almost 3', 'after lunch', '1:45']);
    case 'quote':
      return memo(ctx, 'quote', () => {
        const [lo, hi] = v.services[0]!.price;
        return money(Math.round((lo + rng.next() * (hi - lo)) / 5) * 5);
      });
    case 'bill':
      return memo(ctx, 'bill', () => {
        const quote = Number(english(ctx, 'quote').replace(/[$,]/g, ''));
        return money(Math.round((quote * (1.35 + rng.next() * 0.9)) / 5) * 5);
      });
    case 'fee':
      return memo(ctx, 'fee', () => rng.pick(['$149', '$165', '$189', '$199', '$225']));
    case 'saved':
      return rng.pick(['$20', '$40', '$75', 'about $50', '$30']);
    case 'rate':
      return memo(ctx, 'rate', () =>
        v.rating >= 4
          ? rng.pick(['3.9%', '4.9%', '2.9%', '5.4%'])
          : rng.pick(['9.9%', '12.9%', '14.5%', '8.4%']),
      );
    case 'upsell':
      return rng.pick(UPSELLS);
    case 'dow':
      // The store is closed on Sundays (and North Carolina bans Sunday car sales).
      return memo(ctx, 'dow', () => {
        const wd = weekday(v.day - rng.int(0, 6));
        return DAYS[wd === 0 ? 6 : wd]!;
      });
    case 'city':
      return rng.pick(STORE.nearby);
    case 'color':
      return rng.pick(COLORS);
    default:
      throw new Error(`unknown slot $${name}`);
  }
}

function spanish(ctx: SlotContext, name: string): [string, string] {
  const { visit: v, rng } = ctx;
  const model = v.car.model.model;
  const kind = v.car.model.kind;
  switch (name) {
    case 'carro':
      return rng.pick<[string, string]>([
        kind === 'truck'
          ? ['mi troca', 'my truck']
          : kind === 'car'
            ? ['mi carro', 'my car']
            : ['mi camioneta', 'my SUV'],
        [`mi ${model}`, `my ${model}`],
        ['el carro de mi esposa', "my wife's car"],
        [`mi ${model} ${v.car.year}`, `my ${v.car.year} ${model}`],
      ]);
    case 'nuevo': {
      const art = kind === 'car' ? 'un' : 'una';
      const fresh = kind === 'car' ? `un ${model} nuevo` : `una ${model} nueva`;
      return rng.pick<[string, string]>([
        [`${art} ${model} ${v.car.year}`, `a ${v.car.year} ${model}`],
        [fresh, `a new ${model}`],
      ]);
    }
    case 'svc':
      return rng.pick(v.services[0]!.es) as [string, string];
    case 'horas': {
      const h = rng.int(2, 5);
      return rng.pick<[string, string]>([
        [`${PALABRAS[h]} horas`, `${WORDS[h]} hours`],
        [`casi ${PALABRAS[h]} horas`, `almost ${WORDS[h]} hours`],
        [`más de ${PALABRAS[h]} horas`, `more than ${WORDS[h]} hours`],
      ]);
    }
    case 'dias':
      return rng.pick<[string, string]>([
        ['tres días', 'three days'],
        ['una semana', 'a week'],
        ['casi dos semanas', 'almost two weeks'],
      ]);
    case 'ciudad': {
      const c = rng.pick(STORE.nearby);
      return [c, c];
    }
    case 'bill': {
      const b = english(ctx, 'bill');
      return [b, b];
    }
    default:
      throw new Error(`unknown Spanish slot $${name}`);
  }
}

/**
 * Fills a slot of an English or Spanish template. Staff slots write the person's name in the
 * style chosen for this review (or a pronoun, for `:he`-style forms); the rest draw vehicles,
 * services, durations and prices that stay consistent within the review. In Spanish, the English
 * value of every slot is queued for the translation.
 */
export function resolveSlot(ctx: SlotContext, name: string, form: string): string {
  if (GUARDS.has(name)) return '';
  if (STAFF_SLOTS.has(name)) {
    const e = staffFor(ctx.visit, name)!;
    if (form) return pronounFor(e, form);
    const text = staffName(ctx, e);
    if (ctx.lang === 'es') queue(ctx, name, text);
    return text;
  }
  if (ctx.lang === 'en') return english(ctx, name);
  const [es, en] = spanish(ctx, name);
  queue(ctx, name, en);
  return es;
}

function queue(ctx: SlotContext, name: string, en: string): void {
  const list = ctx.translation.get(name) ?? [];
  list.push(en);
  ctx.translation.set(name, list);
}

/** Replays, for the English translation, the value the Spanish text gave a slot. */
export function translatedSlot(ctx: SlotContext, name: string, form: string): string {
  if (GUARDS.has(name)) return '';
  if (STAFF_SLOTS.has(name) && form)
    return pronounFor(staffFor(ctx.visit, name)!, form === 'o' ? 'he' : form);
  const list = ctx.translation.get(name);
  const value = list?.shift();
  if (value === undefined) throw new Error(`translation lost slot $${name}`);
  return value;
}
