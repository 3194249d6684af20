import { dayNumber } from './local-time.js';

/**
 * The sample's calendar: the window it covers and the dated events that change what customers
 * write about, so the insights have something true to find. Everything here is a fixed date; the
 * generator never reads the clock.
 */
export const WINDOW = {
  /** First local date of the sample. */
  start: dayNumber('2023-07-01'),
  /** Last local date of the sample (inclusive); nothing is dated after it, replies included. */
  end: dayNumber('2026-10-31'),
} as const;

/** Dated changes at the dealership and what they do to the reviews. */
export const EVENTS = {
  /** The customer lounge is renovated: facility and amenity comments turn positive. */
  loungeRenovated: dayNumber('2025-04-14'),
  /** A GM engine recall floods the service drive with recall work and parts waits. */
  recallWaveStart: dayNumber('2025-05-19'),
  recallWaveEnd: dayNumber('2025-09-30'),
  /** Two senior technicians leave; the shop is short-staffed and waits grow. */
  staffingChange: dayNumber('2026-08-01'),
  /** Online service scheduling with text reminders goes live: scheduling praise rises. */
  onlineBooking: dayNumber('2026-08-04'),
} as const;
