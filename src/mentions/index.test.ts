import { describe, expect, it } from 'vitest';
import type { StaffMember } from '../domain/business.js';
import { compileMentionMatcher } from './index.js';

const member = (id: string, name: string, aliases: string[] = []): StaffMember => ({
  id,
  name,
  role: 'technician',
  active: true,
  aliases,
});

const matcher = compileMentionMatcher({
  staff: [
    member('mike', 'Mike Torres'),
    member('mike-b', 'Mike Brown'),
    member('tristian', 'Tristian Olivares'),
    member('will', 'Will Carter'),
    member('frank', 'Frank Ortiz'),
    member('adrian', 'Adrian "AJ" Cortes'),
    member('sam', 'Samantha Reyes', ['Sam']),
    member('dana', 'Dana Whitfield'),
  ],
  services: [
    { id: 'oil-change', name: 'Oil change', synonyms: ['oil and filter', 'lube'] },
    { id: 'tires', name: 'Tires', synonyms: ['tire rotation'] },
  ],
});

const names = (text: string): string[] =>
  matcher.match({ name: null, reviewBody: text }).technicians.map((t) => t.name);

describe('staff mentions', () => {
  it('finds full names, unique first names, possessives and any case', () => {
    expect(names('Mike Torres did it.')).toEqual(['Mike Torres']);
    expect(names("tristian's team was quick")).toEqual(['Tristian Olivares']);
    expect(names('Thanks to TRISTIAN and Frank')).toEqual(['Tristian Olivares', 'Frank Ortiz']);
  });

  it('does not guess between two people with the same first name', () => {
    expect(names('Mike was great')).toEqual([]);
    expect(names('Mike Brown was great')).toEqual(['Mike Brown']);
  });

  it('accepts one-letter misspellings of capitalised names of five letters or more', () => {
    expect(names('Tristan was great')).toEqual(['Tristian Olivares']);
    expect(names('Adrian Cortez sold me a truck')).toEqual(['Adrian "AJ" Cortes']);
    expect(names('tristan was great')).toEqual([]); // lower case: no fuzzy match
    expect(names('Frnk was great')).toEqual(['Frank Ortiz']); // five letters
    expect(names('Dna was great')).toEqual([]); // four letters: exact only
    expect(names('Dana was great')).toEqual(['Dana Whitfield']);
  });

  it('needs a capital for names that are also words, and skips "Will" opening a sentence', () => {
    expect(names('to be frank, it was slow')).toEqual([]);
    expect(names('Will be back. Will definitely recommend.')).toEqual([]);
    expect(names('We will be back, Will was great.')).toEqual(['Will Carter']);
    expect(names('Will Carter was great.')).toEqual(['Will Carter']);
  });

  it('finds quoted nicknames and aliases', () => {
    expect(names('Ask for AJ!')).toEqual(['Adrian "AJ" Cortes']);
    expect(names('Sam sold me the car')).toEqual(['Samantha Reyes']);
  });

  it('puts tagged staff first, then free-text names, once per person, resolved to the roster', () => {
    const result = matcher.match(
      { name: 'Tristan rocks', reviewBody: 'Frank and Adrian helped.' },
      [
        { name: 'Frank', via: 'free-text', rating: null },
        { name: 'Adrian Cortes', via: 'tagged', rating: 5 },
        { name: 'Tristan', via: 'free-text', rating: null },
        { name: 'Someone Else', via: 'tagged', rating: 4 },
      ],
    );
    expect(result.technicians).toEqual([
      { name: 'Adrian "AJ" Cortes', role: 'technician', via: 'tagged', rating: 5 },
      { name: 'Someone Else', role: null, via: 'tagged', rating: 4 },
      { name: 'Frank Ortiz', role: 'technician', via: 'free-text', rating: null },
      { name: 'Tristian Olivares', role: 'technician', via: 'free-text', rating: null },
    ]);
  });
});

describe('service mentions', () => {
  it('finds services by name and synonyms, plurals included, in catalogue order', () => {
    const s = (text: string): string[] => matcher.match({ name: null, reviewBody: text }).services;
    expect(s('Tire rotations and an oil and filter')).toEqual(['oil-change', 'tires']);
    expect(s('new tires; quick lube')).toEqual(['oil-change', 'tires']);
    expect(s('the oil light came on')).toEqual([]);
  });
});

describe('an empty roster and catalogue', () => {
  it('finds nothing but keeps the tagged staff', () => {
    const empty = compileMentionMatcher(null);
    expect(
      empty.match({ name: null, reviewBody: 'Mike did an oil change' }, [
        { name: 'Mike', via: 'tagged', rating: null },
      ]),
    ).toEqual({
      technicians: [{ name: 'Mike', role: null, via: 'tagged', rating: null }],
      services: [],
    });
  });
});
