import { CATALOGUE, serviceById, type CatalogueEntry } from './catalogue.js';
import { EVENTS, WINDOW } from './events.js';
import { isoDay, yearOf, type LocalDateTime } from './local-time.js';
import type { Rng } from './prng.js';
import { ROSTER, staffOn, type RosterEntry, type StaffSlot } from './roster.js';
import { planOpinions } from './opinions.js';
import { FRANCHISE_MODELS, OTHER_MODELS } from './text/vehicles.js';
import type { CarRef, DeptGroup, Edit, LengthClass, Valence, Visit, Voice } from './visit-types.js';

type Dist<T> = readonly (readonly [T, number])[];

const STARS: Readonly<Record<DeptGroup | 'short-staffed', Dist<number>>> = {
  service: [
    [5, 57],
    [4, 15.5],
    [3, 6.5],
    [2, 5.5],
    [1, 15.5],
  ],
  sales: [
    [5, 73],
    [4, 13.5],
    [3, 4],
    [2, 3],
    [1, 6.5],
  ],
  finance: [
    [5, 55],
    [4, 13],
    [3, 8],
    [2, 7],
    [1, 17],
  ],
  parts: [
    [5, 50],
    [4, 15],
    [3, 10],
    [2, 8],
    [1, 17],
  ],
  'body-shop': [
    [5, 60],
    [4, 14],
    [3, 7],
    [2, 6],
    [1, 13],
  ],
  'short-staffed': [
    [5, 30],
    [4, 20],
    [3, 14],
    [2, 13],
    [1, 23],
  ],
};

const DR_SHARE: Readonly<Record<DeptGroup, number>> = {
  service: 0.27,
  sales: 0.5,
  finance: 0.35,
  parts: 0.15,
  'body-shop': 0.2,
};

const RATING_ONLY: readonly number[] = [0, 0.12, 0.1, 0.12, 0.2, 0.2];

const LENGTHS: Readonly<Record<number, Dist<LengthClass>>> = {
  5: [
    ['tiny', 30],
    ['short', 32],
    ['medium', 25],
    ['long', 10],
    ['epic', 3],
  ],
  4: [
    ['tiny', 15],
    ['short', 30],
    ['medium', 33],
    ['long', 16],
    ['epic', 6],
  ],
  3: [
    ['tiny', 8],
    ['short', 25],
    ['medium', 35],
    ['long', 22],
    ['epic', 10],
  ],
  2: [
    ['tiny', 5],
    ['short', 15],
    ['medium', 35],
    ['long', 30],
    ['epic', 15],
  ],
  1: [
    ['tiny', 7],
    ['short', 15],
    ['medium', 30],
    ['long', 30],
    ['epic', 18],
  ],
};

const VALENCE: Readonly<Record<number, Dist<Valence>>> = {
  5: [
    ['pos', 88],
    ['mixed-pos', 12],
  ],
  4: [
    ['pos', 40],
    ['mixed-pos', 60],
  ],
  3: [
    ['mixed', 70],
    ['mixed-pos', 15],
    ['mixed-neg', 15],
  ],
  2: [
    ['mixed-neg', 60],
    ['neg', 40],
  ],
  1: [
    ['neg', 80],
    ['mixed-neg', 20],
  ],
};

const deptTable = (salesPush: number): Dist<DeptGroup> => [
  ['service', 58],
  ['sales', 30 * salesPush],
  ['finance', 5],
  ['parts', 3],
  ['body-shop', 4],
];
const DEPTS = { usual: deptTable(1), push: deptTable(1.35) };

/** Sales reviews cluster at the end of the month and in December. */
function pickDept(rng: Rng, t: LocalDateTime): DeptGroup {
  const iso = isoDay(t.day);
  const dayOfMonth = (iso.charCodeAt(8) - 48) * 10 + iso.charCodeAt(9) - 48;
  const push = dayOfMonth >= 27 || iso.slice(5, 7) === '12';
  return rng.weighted(push ? DEPTS.push : DEPTS.usual);
}

const STAFF_TABLES = new Map<string, Dist<RosterEntry>>();

function pickStaff(
  rng: Rng,
  slot: StaffSlot,
  day: number,
  spanish: boolean,
): RosterEntry | undefined {
  const key = `${slot}${spanish ? '+' : '-'}${day}`;
  let table = STAFF_TABLES.get(key);
  if (!table) {
    table = staffOn(slot, day).map((e) => [e, e.weight * (spanish && e.spanish ? 6 : 1)] as const);
    STAFF_TABLES.set(key, table);
  }
  return table.length === 0 ? undefined : rng.weighted(table);
}

const MODEL_TABLES = {
  franchise: FRANCHISE_MODELS.map((m) => [m, m.weight] as const),
  other: OTHER_MODELS.map((m) => [m, m.weight] as const),
};
const SERVICE_TABLE = CATALOGUE.filter((s) => s.weight > 0).map((s) => [s, s.weight] as const);

function pickCar(rng: Rng, day: number, franchise: boolean, newest: boolean): CarRef {
  const year = yearOf(day);
  const table = franchise ? MODEL_TABLES.franchise : MODEL_TABLES.other;
  for (;;) {
    const model = rng.weighted(table);
    if (newest) {
      const first = Math.max(model.years[0], year);
      const last = Math.min(model.years[1], year + 1);
      if (first <= last) return { model, year: rng.int(first, last) };
      continue;
    }
    const last = Math.min(model.years[1], year);
    const age = Math.floor(rng.logNormal(5, 0.6));
    if (model.years[0] <= last - 1)
      return { model, year: Math.max(model.years[0], last - 1 - age) };
  }
}

function pickServices(rng: Rng, dept: DeptGroup, day: number): CatalogueEntry[] {
  if (dept === 'body-shop') return [serviceById('body-repair')];
  if (dept === 'parts') return [serviceById('parts-counter')];
  if (dept !== 'service') return [];
  const inWave = day >= EVENTS.recallWaveStart && day <= EVENTS.recallWaveEnd;
  const main = inWave && rng.chance(0.18) ? serviceById('recall') : rng.weighted(SERVICE_TABLE);
  if (!rng.chance(0.25)) return [main];
  const second = rng.weighted(
    (main.id === 'oil-change'
      ? [
          ['tire-rotation', 6],
          ['filters-wipers', 2],
          ['state-inspection', 2],
          ['battery', 1],
        ]
      : [
          ['oil-change', 5],
          ['alignment', 1],
          ['tire-rotation', 1],
          ['state-inspection', 1],
        ]) as Dist<string>,
  );
  return second === main.id ? [main] : [main, serviceById(second)];
}

const voiceTable = (rating: number, spanish: boolean): Dist<Voice> => [
  ['plain', 45],
  ['casual', spanish ? 30 : 24],
  ['gushing', rating >= 4 ? 14 : 0],
  ['formal', 10],
  ['terse', 8],
  ['angry', rating === 1 ? 40 : rating === 2 ? 10 : 0],
  ['lower', 5],
];
const VOICES = [false, true].map((es) => [0, 1, 2, 3, 4, 5].map((r) => voiceTable(r, es)));

function pickVoice(rng: Rng, rating: number, spanish: boolean): Voice {
  return rng.weighted(VOICES[spanish ? 1 : 0]![rating]!);
}

function pickEdit(rng: Rng, rating: number, textual: boolean, day: number): Edit | null {
  // Replies come within 12 days and edits within 15 days after that: recent reviews are unedited.
  if (!textual || day > WINDOW.end - 30) return null;
  if (rating >= 3 && rng.chance(0.014))
    return { kind: 'raised', originalRating: rng.pick([1, 1, 2]) };
  if (rating >= 4 && rng.chance(0.018)) return { kind: 'thanks', originalRating: rating };
  if (rating <= 2 && rng.chance(0.08))
    return { kind: 'lowered', originalRating: rng.pick([3, 4, 4, 5]) };
  return null;
}

function assignStaff(
  rng: Rng,
  v: Pick<Visit, 'dept' | 'day' | 'language' | 'salesKind'>,
): Visit['staff'] {
  const es = v.language === 'es';
  const staff: Visit['staff'] = {};
  const put = (slot: StaffSlot, p: number): void => {
    if (rng.chance(p)) staff[slot] = pickStaff(rng, slot, v.day, es);
  };
  if (v.dept === 'service') {
    put('adv', 0.8);
    put('tech', 0.5);
    put('driver', 0.06);
    if (rng.chance(0.15))
      staff.mgr = rng.chance(0.85) ? mgr('greg-ostrowski') : mgr('dana-whitfield');
  } else if (v.dept === 'sales' || v.dept === 'finance') {
    put('sales', v.dept === 'sales' ? 0.88 : 0.5);
    put('fin', v.dept === 'finance' ? 0.85 : 0.3);
    if (rng.chance(0.15))
      staff.mgr = v.salesKind === 'used' ? mgr('leonard-pruitt') : mgr('dana-whitfield');
  } else if (v.dept === 'parts') {
    put('parts', 0.7);
  } else {
    put('body', 0.75);
  }
  return staff;
}

function mgr(id: string): RosterEntry | undefined {
  return ROSTER.find((e) => e.id === id);
}

/**
 * Decides everything about one review before it is written: where and when the customer went,
 * who helped them, what was done to which car, the stars, the tone, the opinions the text will
 * carry, its length and voice, and whether it was edited later. The dated events of the story
 * (short staffing, online booking, the lounge remodel, the recall wave) act here.
 */
export function sampleVisit(rng: Rng, index: number, t: LocalDateTime): Visit {
  const dept = pickDept(rng, t);
  const shortStaffed = dept === 'service' && t.day >= EVENTS.staffingChange && rng.chance(0.55);
  const rating = rng.weighted(STARS[shortStaffed ? 'short-staffed' : dept]);
  const source = rng.chance(DR_SHARE[dept]) ? 'dealerrater' : 'google';
  const ratingOnly = source === 'google' && rng.chance(RATING_ONLY[rating]!);
  const language = rng.chance(dept === 'sales' || dept === 'finance' ? 0.07 : 0.05) ? 'es' : 'en';
  const salesKind =
    dept === 'sales' || dept === 'finance'
      ? rng.weighted<'new' | 'used' | 'lease'>([
          ['new', 55],
          ['used', 37],
          ['lease', 8],
        ])
      : null;
  const isSale = salesKind !== null;
  const car = pickCar(
    rng,
    t.day,
    !isSale || salesKind !== 'used' || rng.chance(0.45),
    isSale && salesKind !== 'used',
  );
  const trade = isSale && rng.chance(0.45) ? pickCar(rng, t.day, rng.chance(0.4), false) : null;
  let length = rng.weighted(LENGTHS[rating]!);
  if (source === 'dealerrater' && length === 'tiny') length = 'short';
  const edit = pickEdit(rng, rating, !ratingOnly, t.day);
  const toneRating = edit ? edit.originalRating : rating;
  const base = { dept, day: t.day, language, salesKind } as const;
  const visit: Visit = {
    index,
    day: t.day,
    second: t.second,
    source,
    dept,
    salesKind,
    rating,
    language,
    ratingOnly,
    staff: assignStaff(rng, base),
    services: pickServices(rng, dept, t.day),
    car,
    trade,
    valence: rng.weighted(VALENCE[toneRating]!),
    opinions: [],
    length,
    voice: pickVoice(rng, toneRating, language === 'es'),
    edit,
    shortStaffed,
  };
  visit.opinions = ratingOnly ? [] : planOpinions(rng, visit);
  return visit;
}
