import type { Author } from './authors.js';
import type { Written } from './compose-en.js';
import { STORE } from './dealership.js';
import { WINDOW } from './events.js';
import { compileRecord, expand, type Template } from './grammar.js';

type Pools = ReadonlyMap<string, readonly Template[]>;
import { addSeconds, compareLocal, type LocalDateTime } from './local-time.js';
import type { Rng } from './prng.js';
import { ROSTER, isOnStaff, type RosterEntry } from './roster.js';
import { RESPONSE_EN, RESPONSE_ES } from './text/response-pools.js';
import { EN } from './pools.js';
import { contract } from './voice.js';
import type { Visit } from './visit-types.js';

const R_EN = compileRecord(RESPONSE_EN);
const R_ES = compileRecord(RESPONSE_ES);
const byId = (id: string): RosterEntry => ROSTER.find((e) => e.id === id)!;

/** A drafted owner response and when it was posted. */
export interface Reply {
  text: string;
  at: LocalDateTime;
}

const BASE_RATE = [0, 0.92, 0.88, 0.78, 0.55, 0.52];
const FITTING = new Map<string, readonly Template[]>();

/** The reply templates of a part whose slots can be filled, cached by which slots can. */
function fitting(pools: Pools, key: string, has: (slot: string) => boolean): readonly Template[] {
  const cacheKey = `${pools === R_ES ? 'es' : 'en'}|${key}|${has('first')}|${has('staff')}`;
  let list = FITTING.get(cacheKey);
  if (!list) {
    list = (pools.get(key) ?? []).filter((t) => t.slots.every(has));
    FITTING.set(cacheKey, list);
  }
  return list;
}

function signer(rng: Rng, v: Visit, stars: number): RosterEntry {
  const negative = stars <= 2;
  const tamika = isOnStaff(byId('tamika-rhodes'), v.day);
  if (v.dept === 'parts')
    return byId(negative || rng.chance(0.5) ? 'greg-ostrowski' : 'ray-dunbar');
  if (v.dept === 'service' || v.dept === 'body-shop') {
    if (negative) return byId(rng.chance(0.8) ? 'greg-ostrowski' : 'dana-whitfield');
    if (tamika && rng.chance(0.6)) return byId('tamika-rhodes');
    return byId(rng.chance(0.7) ? 'greg-ostrowski' : 'dana-whitfield');
  }
  if (negative)
    return byId(v.salesKind === 'used' && rng.chance(0.4) ? 'leonard-pruitt' : 'dana-whitfield');
  if (tamika && rng.chance(0.6)) return byId('tamika-rhodes');
  return byId(v.salesKind === 'used' && rng.chance(0.3) ? 'leonard-pruitt' : 'dana-whitfield');
}

const TITLES_ES: Readonly<Record<string, string>> = {
  'General Manager': 'Gerente General',
  'Service Manager': 'Gerente de Servicio',
  'Customer Experience Manager': 'Gerente de Experiencia al Cliente',
  'Used Car Manager': 'Gerente de Autos Usados',
  'Parts Manager': 'Gerente de Refacciones',
};

function signature(rng: Rng, e: RosterEntry, spanish: boolean): string {
  const [first, ...rest] = e.name.split(' ');
  const last = rest.join(' ');
  if (spanish) {
    const title = TITLES_ES[e.title] ?? e.title;
    return rng.pick([
      `— ${e.name}, ${title}`,
      `Atentamente,\n${e.name}\n${title}`,
      `Saludos,\n${first}`,
      `${e.name} | ${title}`,
    ]);
  }
  return rng.pick([
    `— ${e.name}, ${e.title}`,
    `${e.name}\n${e.title}`,
    `Sincerely,\n${e.name}\n${e.title}`,
    `- ${first} ${last[0]}., ${e.title}`,
    `Thanks,\n${first}`,
    `${e.name} | ${e.title} | ${STORE.name}`,
    `${first} ${last}, ${e.title}, ${STORE.shortName}`,
  ]);
}

function phoneFor(v: Visit): string {
  if (v.dept === 'service') return STORE.phone.service;
  if (v.dept === 'parts') return STORE.phone.parts;
  if (v.dept === 'body-shop') return STORE.phone.body;
  return STORE.phone.sales;
}

function replyTime(rng: Rng, v: Visit, hurry: boolean): LocalDateTime | null {
  let hours = Math.max(0.5, rng.logNormal(hurry ? 5 : 20, 1.05));
  if (hours > 24 * 12) hours = 24 * 11 + rng.next() * 24;
  let at = addSeconds({ day: v.day, second: v.second }, Math.round(hours * 3600));
  const hour = Math.floor(at.second / 3600);
  if (hour < 8 || hour > 20) {
    const day = hour < 8 ? at.day : at.day + 1;
    at = { day, second: 8 * 3600 + rng.int(0, 150 * 60) };
  }
  return compareLocal(at, { day: WINDOW.end, second: 86_399 }) > 0 ? null : at;
}

/**
 * Decides whether the store answered a review and writes the answer: most negative reviews get
 * a fast apology with a direct phone number (mentioning the short staffing when that was the
 * cause), about half the happy ones a thank-you naming the staff the customer praised, and
 * rating-only ones a line. Replies are signed by a named manager (the customer-experience
 * manager once she joins), posted in business hours, never after the sample's last day; the
 * reply rate rises after she joins. Spanish reviews get Spanish replies.
 */
export function writeReply(rng: Rng, v: Visit, w: Written | null, author: Author): Reply | null {
  // An edited review was answered as it first stood.
  const stars = v.edit && v.edit.kind !== 'thanks' ? v.edit.originalRating : v.rating;
  let p = BASE_RATE[stars]! * (isOnStaff(byId('tamika-rhodes'), v.day) ? 1.1 : 0.85);
  if (v.ratingOnly) p *= 0.6;
  if (v.edit?.kind === 'raised') p = 1;
  if (!rng.chance(Math.min(0.97, p))) return null;
  const at = replyTime(rng, v, stars <= 2);
  if (!at) return null;
  const staff = w?.mentioned.find((e) => e.slot !== 'mgr');
  const has = (slot: string): boolean =>
    slot === 'staff' ? staff !== undefined : slot === 'first' ? author.first !== null : true;
  const resolve = (slot: string): string => {
    if (slot === 'first') return author.first!;
    if (slot === 'staff') return staff!.name.split(' ')[0]!;
    if (slot === 'model') return v.car.model.model;
    if (slot === 'phone') return phoneFor(v);
    if (slot === 'stars')
      return rng.pick([
        `${stars}-star`,
        `${['', 'one', 'two', 'three', 'four', 'five'][stars]}-star`,
      ]);
    throw new Error(`unknown reply slot $${slot}`);
  };
  const pools = v.language === 'es' && !v.ratingOnly ? R_ES : R_EN;
  const part = (key: string): string => {
    const pool = fitting(pools, key, has);
    return pool.length === 0 ? '' : expand(rng.pick(pool), rng, EN.rules, resolve).trim();
  };
  const keys = replyParts(rng, v, stars, author, staff !== undefined);
  const blocks = keys.map(part).filter((s) => s.length > 0);
  const sep = rng.chance(0.3) ? '\n\n' : ' ';
  const spanish = v.language === 'es' && !v.ratingOnly;
  const sig = v.ratingOnly && rng.chance(0.5) ? '' : signature(rng, signer(rng, v, stars), spanish);
  let body = blocks.join(sep);
  if (!spanish && rng.chance(0.5)) body = contract(body);
  const text = [body, sig].filter(Boolean).join(rng.chance(0.6) ? '\n\n' : '\n');
  return text.trim() === '' ? null : { text, at };
}

function replyParts(
  rng: Rng,
  v: Visit,
  stars: number,
  author: Author,
  namedStaff: boolean,
): string[] {
  const greet = author.first ? 'greet' : 'greetAnon';
  if (v.ratingOnly) return [stars >= 4 ? 'ratingOnlyPos' : 'ratingOnlyNeg'];
  if (v.language === 'es')
    return stars >= 4
      ? ['greet', 'thanks', 'specificPos', 'invite']
      : ['greet', 'apology', 'contact'];
  if (stars >= 4) {
    const keys = [greet, 'thanks'];
    if (namedStaff && rng.chance(0.7)) keys.push('specificPos');
    if (v.salesKind && rng.chance(0.6)) keys.push('specificSales');
    if (v.opinions.some((o) => o.era === 'online')) keys.push('onlineBooking');
    keys.push('invite');
    return keys;
  }
  if (stars === 3)
    return [greet, 'thanksMid', ...(rng.chance(0.5) ? ['apology'] : []), 'inviteMid'];
  return [greet, 'apology', ...(v.shortStaffed ? ['shortStaffed'] : []), 'contact'];
}
