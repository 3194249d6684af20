import { EVENTS } from './events.js';
import type { Rng } from './prng.js';
import type {
  Aspect,
  DeptGroup,
  LengthClass,
  Opinion,
  Polarity,
  Theme,
  Visit,
} from './visit-types.js';

type Topic = Aspect | Theme;

/** How likely each topic is to come up in a review of a department (before the length cap). */
const INCLUSION: Readonly<Record<DeptGroup, Partial<Record<Topic, number>>>> = {
  service: {
    staff: 0.55,
    'wait-time': 0.33,
    'price-value': 0.22,
    'quality-of-work': 0.3,
    'vehicle-cleanliness': 0.07,
    'facility-amenities': 0.1,
    scheduling: 0.12,
    'follow-up': 0.1,
    'honesty-trust': 0.14,
    loaner: 0.07,
    shuttle: 0.05,
    'waiting-room': 0.09,
  },
  sales: {
    staff: 0.7,
    'sales-experience': 0.55,
    'price-value': 0.3,
    financing: 0.25,
    'honesty-trust': 0.14,
    'wait-time': 0.16,
    'follow-up': 0.12,
    'facility-amenities': 0.04,
  },
  finance: {
    financing: 0.9,
    staff: 0.55,
    'honesty-trust': 0.22,
    'wait-time': 0.22,
    'price-value': 0.18,
    'sales-experience': 0.18,
  },
  parts: { staff: 0.6, 'wait-time': 0.45, 'price-value': 0.35, 'honesty-trust': 0.1 },
  'body-shop': {
    staff: 0.5,
    'quality-of-work': 0.6,
    'wait-time': 0.4,
    'price-value': 0.3,
    'vehicle-cleanliness': 0.12,
  },
};

/** Which topics attract the one complaint of a happy review, and the one praise of an unhappy one. */
const COMPLAINT: Partial<Record<Topic, number>> = {
  'wait-time': 3,
  'price-value': 2.5,
  scheduling: 2,
  'follow-up': 2,
  financing: 2,
  'trade-in': 2,
  'facility-amenities': 1.5,
  'vehicle-cleanliness': 1.5,
  loaner: 1.5,
  'waiting-room': 1.2,
};
const PRAISE: Partial<Record<Topic, number>> = {
  staff: 4,
  'quality-of-work': 1.5,
  'waiting-room': 1,
  'facility-amenities': 1,
};
const NEUTRAL_OK = new Set<Topic>([
  'wait-time',
  'price-value',
  'facility-amenities',
  'scheduling',
  'financing',
  'sales-experience',
  'quality-of-work',
  'vehicle-cleanliness',
]);

const RANGE: Readonly<Record<LengthClass, readonly [number, number]>> = {
  tiny: [0, 1],
  short: [1, 2],
  medium: [2, 3],
  long: [3, 5],
  epic: [5, 8],
};

const INCLUSION_LISTS = new Map(
  Object.entries(INCLUSION).map(([dept, table]) => [
    dept,
    Object.entries(table) as [Topic, number][],
  ]),
);

function inclusionFor(v: Visit): [Topic, number][] {
  const list = [...INCLUSION_LISTS.get(v.dept)!];
  const set = (topic: Topic, p: number): void => {
    const i = list.findIndex(([t]) => t === topic);
    if (i >= 0) list[i] = [topic, p];
    else list.push([topic, p]);
  };
  if (v.dept === 'service') {
    if (v.shortStaffed) set('wait-time', 1);
    if (v.day >= EVENTS.onlineBooking) set('scheduling', 0.3);
    if (v.services.some((s) => s.id === 'recall')) set('recall', 0.55);
    if (v.staff.driver) set('shuttle', 0.8);
  }
  if (v.trade) set('trade-in', 0.35);
  return list;
}

function chooseTopics(rng: Rng, v: Visit): Topic[] {
  const table = inclusionFor(v);
  const [min, max] = RANGE[v.length];
  const topics: Topic[] = [];
  for (const [k, p] of table) if (rng.chance(p)) topics.push(k);
  while (topics.length < min) {
    const rest = table.filter(([k]) => !topics.includes(k));
    if (rest.length === 0) break;
    topics.push(rng.weighted(rest));
  }
  while (topics.length > max) {
    const keep = v.shortStaffed ? topics.indexOf('wait-time') : -1;
    let drop = rng.int(0, topics.length - 1);
    if (drop === keep) drop = (drop + 1) % topics.length;
    topics.splice(drop, 1);
  }
  return topics;
}

function pickBy(
  rng: Rng,
  topics: readonly Topic[],
  weights: Partial<Record<Topic, number>>,
): number {
  return topics.indexOf(rng.weighted(topics.map((t) => [t, weights[t] ?? 0.6] as const)));
}

function polarities(rng: Rng, v: Visit, topics: readonly Topic[]): Polarity[] {
  const n = topics.length;
  const out: Polarity[] = new Array<Polarity>(n).fill('pos');
  const soften = (i: number): Polarity =>
    NEUTRAL_OK.has(topics[i]!) && rng.chance(0.3) ? 'neu' : 'neg';
  switch (v.valence) {
    case 'pos':
      for (let i = 0; i < n; i++)
        if (NEUTRAL_OK.has(topics[i]!) && rng.chance(0.06)) out[i] = 'neu';
      break;
    case 'mixed-pos':
      if (n > 0) {
        const i = pickBy(rng, topics, COMPLAINT);
        out[i] = soften(i);
      }
      break;
    case 'mixed': {
      out.fill('neg');
      const goods = Math.max(n > 1 ? 1 : 0, Math.floor(n / 2));
      for (let k = 0; k < goods; k++) out[pickBy(rng, topics, PRAISE)] = 'pos';
      if (n === 1) out[0] = rng.pick<Polarity>(['pos', 'neg', 'neu']);
      break;
    }
    case 'mixed-neg':
      out.fill('neg');
      if (n > 1) out[pickBy(rng, topics, PRAISE)] = 'pos';
      break;
    case 'neg':
      out.fill('neg');
  }
  return out;
}

function eraOf(v: Visit, topic: Topic, polarity: Polarity, rng: Rng): string | null {
  if (topic === 'wait-time' && polarity === 'neg' && v.shortStaffed && rng.chance(0.75))
    return 'shortstaffed';
  if (
    topic === 'scheduling' &&
    polarity === 'pos' &&
    v.day >= EVENTS.onlineBooking &&
    rng.chance(0.8)
  )
    return 'online';
  if (
    topic === 'facility-amenities' &&
    polarity === 'pos' &&
    v.day >= EVENTS.loungeRenovated &&
    rng.chance(0.7)
  )
    return 'renovated';
  if (
    topic === 'facility-amenities' &&
    polarity === 'neg' &&
    v.day < EVENTS.loungeRenovated &&
    rng.chance(0.7)
  )
    return 'old';
  return null;
}

/**
 * Chooses what a review talks about and how the customer felt about each thing. The number of
 * topics follows the length; the valence spreads praise and complaints (a 4-star review praises
 * the advisor and grumbles about the wait; a 1-star one may still thank one person). The story's
 * eras force their effects: after the staffing change, slow visits complain about the wait; after
 * online booking, scheduling is mostly praised; the remodelled lounge turns facility comments.
 */
export function planOpinions(rng: Rng, v: Visit): Opinion[] {
  const topics = chooseTopics(rng, v);
  const pols = polarities(rng, v, topics);
  return topics.map((topic, i) => {
    let polarity = pols[i]!;
    if (topic === 'wait-time' && v.shortStaffed) polarity = 'neg';
    if (
      topic === 'scheduling' &&
      v.day >= EVENTS.onlineBooking &&
      polarity !== 'pos' &&
      rng.chance(0.75)
    )
      polarity = 'pos';
    if (
      topic === 'scheduling' &&
      v.day < EVENTS.onlineBooking &&
      polarity === 'pos' &&
      v.valence !== 'pos' &&
      rng.chance(0.5)
    )
      polarity = 'neg';
    if (
      topic === 'facility-amenities' &&
      v.day >= EVENTS.loungeRenovated &&
      polarity === 'neg' &&
      rng.chance(0.6)
    )
      polarity = 'pos';
    return { topic, polarity, era: eraOf(v, topic, polarity, rng) };
  });
}
