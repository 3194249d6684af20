import type { StaffRole } from '../../src/domain/business.js';
import { dayNumber } from './local-time.js';

/** Where a staff member works, which decides the reviews that mention them. */
export type StaffSlot = 'adv' | 'tech' | 'sales' | 'fin' | 'parts' | 'body' | 'mgr' | 'driver';

/** A roster entry with what the generator needs beyond the public record. */
export interface RosterEntry {
  readonly id: string;
  readonly name: string;
  readonly role: StaffRole;
  readonly aliases: readonly string[];
  /** The story role the person plays in a review. */
  readonly slot: StaffSlot;
  /** Job title used when the person signs an owner response. */
  readonly title: string;
  readonly pronoun: 'he' | 'she';
  /** Plausible one-letter misspellings customers write (first letter kept). */
  readonly misspellings: readonly string[];
  /** How often customers name this person, relative to colleagues in the same slot. */
  readonly weight: number;
  /** Speaks Spanish with customers; Spanish-language reviews name them more often. */
  readonly spanish: boolean;
  /** First and last local day at the store (day numbers); absent means the whole window. */
  readonly from?: number;
  readonly until?: number;
}

const entry = (
  e: Omit<RosterEntry, 'aliases' | 'misspellings' | 'spanish' | 'weight'> &
    Partial<Pick<RosterEntry, 'aliases' | 'misspellings' | 'spanish' | 'weight'>>,
): RosterEntry => ({ aliases: [], misspellings: [], spanish: false, weight: 1, ...e });

/**
 * The staff of the fictional store. Deliberate quirks for the mention matcher: two people named
 * Chris (a service advisor and a salesman, so "Chris" alone is ambiguous); nicknames (Lupe, Alex,
 * Jeff, Bobby, Lenny); accented Hispanic names customers type without the accent (Ramírez,
 * Héctor); names of five letters or more with the misspellings customers really write (Jeffery,
 * Briana, Caitlyn, Kirsten, Markus); and two technicians who leave in the staffing change.
 */
export const ROSTER: readonly RosterEntry[] = [
  entry({
    id: 'dana-whitfield',
    name: 'Dana Whitfield',
    role: 'manager',
    slot: 'mgr',
    title: 'General Manager',
    pronoun: 'she',
    misspellings: ['Whitfeild'],
    weight: 0.4,
  }),
  entry({
    id: 'greg-ostrowski',
    name: 'Greg Ostrowski',
    role: 'manager',
    slot: 'mgr',
    title: 'Service Manager',
    pronoun: 'he',
    misspellings: ['Ostrowsky'],
    weight: 1,
  }),
  entry({
    id: 'tamika-rhodes',
    name: 'Tamika Rhodes',
    role: 'manager',
    slot: 'mgr',
    title: 'Customer Experience Manager',
    pronoun: 'she',
    misspellings: ['Tameka'],
    weight: 0.5,
    from: dayNumber('2024-09-03'),
  }),
  entry({
    id: 'leonard-pruitt',
    name: 'Leonard Pruitt',
    role: 'manager',
    slot: 'mgr',
    title: 'Used Car Manager',
    pronoun: 'he',
    aliases: ['Lenny'],
    misspellings: ['Lenard', 'Pruit'],
    weight: 0.4,
  }),
  entry({
    id: 'chris-wallace',
    name: 'Chris Wallace',
    role: 'service-advisor',
    slot: 'adv',
    title: 'Service Advisor',
    pronoun: 'he',
    weight: 1.2,
  }),
  entry({
    id: 'guadalupe-ortiz',
    name: 'Guadalupe Ortiz',
    role: 'service-advisor',
    slot: 'adv',
    title: 'Service Advisor',
    pronoun: 'she',
    aliases: ['Lupe'],
    misspellings: ['Guadelupe'],
    spanish: true,
    weight: 1,
  }),
  entry({
    id: 'brianna-kowalski',
    name: 'Brianna Kowalski',
    role: 'service-advisor',
    slot: 'adv',
    title: 'Service Advisor',
    pronoun: 'she',
    misspellings: ['Briana', 'Breanna', 'Kowalsky'],
    weight: 1.1,
  }),
  entry({
    id: 'jeffrey-lambert',
    name: 'Jeffrey Lambert',
    role: 'service-advisor',
    slot: 'adv',
    title: 'Service Advisor',
    pronoun: 'he',
    aliases: ['Jeff'],
    misspellings: ['Jeffery', 'Jeffry'],
    weight: 1,
  }),
  entry({
    id: 'ashley-nguyen',
    name: 'Ashley Nguyen',
    role: 'service-advisor',
    slot: 'adv',
    title: 'Service Advisor',
    pronoun: 'she',
    misspellings: ['Ashly', 'Ngyuen'],
    weight: 0.9,
    from: dayNumber('2026-08-17'),
  }),
  entry({
    id: 'mike-torres',
    name: 'Mike Torres',
    role: 'technician',
    slot: 'tech',
    title: 'Master Technician',
    pronoun: 'he',
    misspellings: ['Torrez'],
    weight: 1.6,
  }),
  entry({
    id: 'alejandro-ramirez',
    name: 'Alejandro Ramírez',
    role: 'technician',
    slot: 'tech',
    title: 'Technician',
    pronoun: 'he',
    aliases: ['Alex'],
    misspellings: ['Ramirez', 'Alejando'],
    spanish: true,
    weight: 1.1,
  }),
  entry({
    id: 'dwayne-gaskins',
    name: 'Dwayne Gaskins',
    role: 'technician',
    slot: 'tech',
    title: 'Technician',
    pronoun: 'he',
    misspellings: ['Dewayne', 'Gaskin'],
    weight: 1.2,
    until: dayNumber('2026-07-31'),
  }),
  entry({
    id: 'kevin-oneal',
    name: "Kevin O'Neal",
    role: 'technician',
    slot: 'tech',
    title: 'Technician',
    pronoun: 'he',
    weight: 0.7,
    until: dayNumber('2026-07-24'),
  }),
  entry({
    id: 'stephen-boyd',
    name: 'Stephen Boyd',
    role: 'technician',
    slot: 'tech',
    title: 'Technician',
    pronoun: 'he',
    misspellings: ['Stephan', 'Stepen'],
    weight: 0.8,
  }),
  entry({
    id: 'tyler-brandt',
    name: 'Tyler Brandt',
    role: 'technician',
    slot: 'tech',
    title: 'Technician',
    pronoun: 'he',
    misspellings: ['Tylor', 'Brant'],
    weight: 0.6,
  }),
  entry({
    id: 'marcus-bell',
    name: 'Marcus Bell',
    role: 'technician',
    slot: 'tech',
    title: 'Technician',
    pronoun: 'he',
    misspellings: ['Markus'],
    weight: 0.8,
  }),
  entry({
    id: 'jordan-pike',
    name: 'Jordan Pike',
    role: 'technician',
    slot: 'tech',
    title: 'Technician',
    pronoun: 'he',
    misspellings: ['Jordon'],
    weight: 0.6,
    from: dayNumber('2025-02-10'),
  }),
  entry({
    id: 'chris-patel',
    name: 'Chris Patel',
    role: 'sales',
    slot: 'sales',
    title: 'Sales Consultant',
    pronoun: 'he',
    weight: 1.2,
  }),
  entry({
    id: 'robert-hollins',
    name: 'Robert Hollins',
    role: 'sales',
    slot: 'sales',
    title: 'Sales Consultant',
    pronoun: 'he',
    aliases: ['Bobby'],
    misspellings: ['Hollens'],
    weight: 1.1,
  }),
  entry({
    id: 'jasmine-carter',
    name: 'Jasmine Carter',
    role: 'sales',
    slot: 'sales',
    title: 'Sales Consultant',
    pronoun: 'she',
    misspellings: ['Jazmine', 'Jasmin'],
    weight: 1.1,
    from: dayNumber('2024-03-04'),
  }),
  entry({
    id: 'travis-mccall',
    name: 'Travis McCall',
    role: 'sales',
    slot: 'sales',
    title: 'Sales Consultant',
    pronoun: 'he',
    misspellings: ['McCal'],
    weight: 0.9,
    from: dayNumber('2025-06-16'),
  }),
  entry({
    id: 'rosa-delgado',
    name: 'Rosa Delgado',
    role: 'sales',
    slot: 'sales',
    title: 'Sales Consultant',
    pronoun: 'she',
    misspellings: ['Delgato'],
    spanish: true,
    weight: 1,
  }),
  entry({
    id: 'nathan-greer',
    name: 'Nathan Greer',
    role: 'sales',
    slot: 'sales',
    title: 'Sales Consultant',
    pronoun: 'he',
    misspellings: ['Nathen'],
    weight: 0.9,
    until: dayNumber('2025-05-30'),
  }),
  entry({
    id: 'caitlin-moore',
    name: 'Caitlin Moore',
    role: 'finance',
    slot: 'fin',
    title: 'Finance Manager',
    pronoun: 'she',
    misspellings: ['Caitlyn', 'Catlin'],
    weight: 1,
  }),
  entry({
    id: 'hector-villanueva',
    name: 'Héctor Villanueva',
    role: 'finance',
    slot: 'fin',
    title: 'Finance Manager',
    pronoun: 'he',
    misspellings: ['Hector', 'Villaneuva'],
    spanish: true,
    weight: 0.8,
  }),
  entry({
    id: 'ray-dunbar',
    name: 'Ray Dunbar',
    role: 'parts',
    slot: 'parts',
    title: 'Parts Manager',
    pronoun: 'he',
    misspellings: ['Dunbarr'],
    weight: 1,
  }),
  entry({
    id: 'kristen-yates',
    name: 'Kristen Yates',
    role: 'other',
    slot: 'body',
    title: 'Body Shop Estimator',
    pronoun: 'she',
    misspellings: ['Kristin', 'Kirsten'],
    weight: 1,
  }),
  entry({
    id: 'earl-jenkins',
    name: 'Earl Jenkins',
    role: 'other',
    slot: 'driver',
    title: 'Shuttle Driver',
    pronoun: 'he',
    weight: 1,
  }),
];

/** True when the person works at the store on the given day. */
export function isOnStaff(e: RosterEntry, day: number): boolean {
  return (e.from === undefined || day >= e.from) && (e.until === undefined || day <= e.until);
}

/** The staff of one slot who are at the store on a given day. */
export function staffOn(slot: StaffSlot, day: number): RosterEntry[] {
  return ROSTER.filter((e) => e.slot === slot && isOnStaff(e, day));
}
