import { EVENTS, WINDOW } from './events.js';
import { isSpringForward, isoDay, type LocalDateTime, weekday } from './local-time.js';
import type { Rng } from './prng.js';

const MONTH_FACTOR = [0.8, 0.85, 1.05, 1.05, 1.1, 1.05, 1.0, 1.05, 0.95, 1.0, 0.95, 1.1];
const WEEKDAY_FACTOR = [0.75, 1.05, 1.1, 1.05, 1.05, 1.0, 1.0];
/** Relative share of reviews posted in each local hour (people write after pick-up and at night). */
const HOUR_WEIGHT = [
  0.4, 0.2, 0.1, 0.05, 0.05, 0.15, 0.5, 1.2, 2, 2.8, 3.2, 3.4, 3.8, 3.6, 3.8, 4.2, 4.8, 5.2, 5.3,
  5.4, 5, 4, 2.6, 1.3,
];
const QUIET_DAYS = new Set(['07-04', '11-28', '12-24', '12-25', '01-01']);

function cumulative(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => {
    sum += w;
    out[i] = sum;
  });
  return out;
}

/**
 * The relative number of reviews posted on a local day: the dealership asks more customers for
 * reviews as time goes on, spring and December are busy, Sundays and holidays are quiet, and the
 * recall wave brings extra service visits.
 */
export function dayWeight(day: number): number {
  const iso = isoDay(day);
  const progress = (day - WINDOW.start) / (WINDOW.end - WINDOW.start);
  const monthDay = iso.slice(5, 10);
  const month = Number(iso.slice(5, 7)) - 1;
  let w = (0.65 + 0.75 * progress) * MONTH_FACTOR[month]! * WEEKDAY_FACTOR[weekday(day)]!;
  if (QUIET_DAYS.has(monthDay)) w *= 0.35;
  if (day >= EVENTS.recallWaveStart && day <= EVENTS.recallWaveEnd) w *= 1.12;
  return w;
}

const DAY_CUM = cumulative(
  Array.from({ length: WINDOW.end - WINDOW.start + 1 }, (_, i) => dayWeight(WINDOW.start + i)),
);
const HOUR_CUM = cumulative(HOUR_WEIGHT);

/**
 * Streams `count` local timestamps in ascending order without holding them: the sorted order
 * statistics of `count` uniforms are drawn one at a time (each the previous times a power of a
 * fresh uniform) and mapped through the day weights and the hour-of-day profile. Memory stays
 * constant whatever the count, and more reviews simply means more per day.
 */
export function* postingTimes(rng: Rng, count: number): Generator<LocalDateTime> {
  const totalDays = DAY_CUM[DAY_CUM.length - 1]!;
  const totalHours = HOUR_CUM[HOUR_CUM.length - 1]!;
  let remainingMax = 1;
  let dayIndex = 0;
  for (let k = count; k >= 1; k--) {
    remainingMax *= Math.pow(1 - rng.next(), 1 / k);
    const x = (1 - remainingMax) * totalDays;
    while (dayIndex < DAY_CUM.length - 1 && DAY_CUM[dayIndex]! <= x) dayIndex++;
    const before = dayIndex === 0 ? 0 : DAY_CUM[dayIndex - 1]!;
    const within = Math.min(0.999999, (x - before) / (DAY_CUM[dayIndex]! - before));
    const h = within * totalHours;
    let hour = 0;
    while (hour < 23 && HOUR_CUM[hour]! <= h) hour++;
    const hourStart = hour === 0 ? 0 : HOUR_CUM[hour - 1]!;
    const inHour = (h - hourStart) / (HOUR_CUM[hour]! - hourStart);
    const day = WINDOW.start + dayIndex;
    let second = hour * 3600 + Math.min(3599, Math.floor(inHour * 3600));
    if (isSpringForward(day)) {
      // That day has 23 hours: squeeze the day onto them so times stay in order and all exist.
      second = Math.floor((second * 23) / 24);
      if (second >= 2 * 3600) second += 3600;
    }
    yield { day, second };
  }
}
