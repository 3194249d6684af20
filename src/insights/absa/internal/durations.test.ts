import { describe, expect, it } from 'vitest';
import { durationClasses } from './durations.js';
import { prepareSentence } from './prepare.js';

/** The duration classes of a sentence, read from its prepared tokens as the features read them. */
const classes = (text: string): string[] => durationClasses(prepareSentence(text, null));

describe('durationClasses', () => {
  it('classes a number and its unit by the minutes they make', () => {
    expect(classes('Done in 20 minutes.')).toEqual(['minutes']);
    expect(classes('It took an hour.')).toEqual(['hour']);
    expect(classes('They had it ready in three hours.')).toEqual(['hours']);
    expect(classes('The visit took seven hours.')).toEqual(['long']);
    expect(classes('They kept the car for two weeks.')).toEqual(['long']);
  });

  it('reads halves, ranges and the words between a number and its unit', () => {
    expect(classes('It took half an hour.')).toEqual(['minutes']);
    expect(classes('It took two and a half hours.')).toEqual(['hours']);
    expect(classes('We waited 4-5 hrs.')).toEqual(['long']);
    expect(classes('we had to wait 4 5 hour')).toEqual(['long']);
    expect(classes('A couple of hours.')).toEqual(['hours']);
    expect(classes('It turned into half my day.')).toEqual(['long']);
  });

  it('reads a whole day or part of one as long, and each class once', () => {
    expect(classes('It took all day.')).toEqual(['long']);
    expect(classes('They had it the whole afternoon.')).toEqual(['long']);
    expect(classes('In 30 minutes, then 40 minutes more, then three days.')).toEqual([
      'minutes',
      'long',
    ]);
  });

  it('finds nothing where no number or whole day goes with a unit', () => {
    expect(classes('Ready the same day.')).toEqual([]);
    expect(classes('Hours are posted on the door.')).toEqual([]);
    expect(classes('They told me a few things about the car.')).toEqual([]);
  });
});
