import type { CatalogueEntry } from './catalogue.js';
import type { RosterEntry, StaffSlot } from './roster.js';
import type { VehicleModel } from './text/vehicles.js';

/** The aspects of the insights taxonomy (issue 6), as the generator names them. */
export const ASPECTS = [
  'staff',
  'wait-time',
  'price-value',
  'quality-of-work',
  'vehicle-cleanliness',
  'facility-amenities',
  'scheduling',
  'follow-up',
  'sales-experience',
  'financing',
  'honesty-trust',
] as const;
export type Aspect = (typeof ASPECTS)[number];

/** Recurring themes beyond the taxonomy. */
export const THEMES = ['loaner', 'shuttle', 'recall', 'waiting-room', 'trade-in'] as const;
export type Theme = (typeof THEMES)[number];

export type Polarity = 'pos' | 'neg' | 'neu';
export type DeptGroup = 'service' | 'sales' | 'finance' | 'parts' | 'body-shop';
export type LengthClass = 'tiny' | 'short' | 'medium' | 'long' | 'epic';
export type Voice = 'plain' | 'casual' | 'gushing' | 'formal' | 'terse' | 'angry' | 'lower';
/** The overall tone the text takes, from the stars (and the original stars of an edited review). */
export type Valence = 'pos' | 'mixed-pos' | 'mixed' | 'mixed-neg' | 'neg';

/** One thing the review talks about and how the customer felt about it. */
export interface Opinion {
  topic: Aspect | Theme;
  polarity: Polarity;
  /** A dated era whose sentences apply (`shortstaffed`, `online`, `renovated`, `old`). */
  era: string | null;
}

/** A vehicle in a story: its model and model year. */
export interface CarRef {
  model: VehicleModel;
  year: number;
}

/** A later edit of the review by its author. */
export interface Edit {
  kind: 'raised' | 'lowered' | 'thanks';
  /** The stars the text was first written with. */
  originalRating: number;
}

/** Everything decided about one review before a word of it is written. */
export interface Visit {
  index: number;
  day: number;
  second: number;
  source: 'google' | 'dealerrater';
  dept: DeptGroup;
  salesKind: 'new' | 'used' | 'lease' | null;
  rating: number;
  language: 'en' | 'es';
  ratingOnly: boolean;
  staff: Partial<Record<StaffSlot, RosterEntry>>;
  services: CatalogueEntry[];
  car: CarRef;
  trade: CarRef | null;
  valence: Valence;
  opinions: Opinion[];
  length: LengthClass;
  voice: Voice;
  edit: Edit | null;
  /** Service visit after the staffing change that ran into the long waits. */
  shortStaffed: boolean;
}
