import type { Written } from './compose-en.js';
import { compileRecord, expand } from './grammar.js';
import { EN } from './pools.js';
import type { Rng } from './prng.js';
import { TITLES } from './text/response-pools.js';
import type { Visit } from './visit-types.js';

const T = compileRecord(TITLES);

/**
 * A DealerRater review title in the customer's words: short, about the department and the
 * mood ("Quick oil change", "Ask for Bobby", "Poor communication"), in Spanish for Spanish
 * reviews, naming the staff member the review talks about.
 */
export function writeTitle(rng: Rng, v: Visit, w: Written | null): string {
  const staff = w?.mentioned.find((e) => e.slot !== 'mgr');
  const key =
    v.language === 'es'
      ? v.rating >= 4
        ? 'esPos'
        : 'esNeg'
      : v.rating <= 2
        ? 'neg'
        : v.rating === 3
          ? 'mid'
          : v.salesKind
            ? 'salesPos'
            : 'servicePos';
  const has = (slot: string): boolean =>
    slot === 'staff' ? staff !== undefined : slot === 'svcb' ? v.services.length > 0 : true;
  const pool = T.get(key)!.filter((t) => t.slots.every(has));
  const text = expand(rng.pick(pool), rng, EN.rules, (slot) => {
    if (slot === 'staff') return staff!.name.split(' ')[0]!;
    if (slot === 'svcb') return rng.pick(v.services[0]!.bare);
    return v.car.model.model;
  });
  const title = text.charAt(0).toUpperCase() + text.slice(1);
  return v.voice === 'lower' ? title.toLowerCase() : title;
}
