import { describe, expect, it } from 'vitest';
import { nothingToImprove } from './survey-labels.js';

/** The texts `nothingToImprove` takes, in order. */
const taken = (texts: readonly string[]): string[] => texts.filter(nothingToImprove);

describe('nothingToImprove', () => {
  it('takes answers that say nothing needs improving', () => {
    const texts = [
      'no improvement require .',
      'no improvement requires because all are fine',
      'nothing to improve',
      'None.',
      'no comments',
      'everything is ok',
    ];
    expect(taken(texts)).toEqual(texts);
  });

  it("takes the interviewer's note that the respondent gave no answer", () => {
    // The interviewers' notes are paraphrased here, in the data's tokenised style.
    const texts = [
      'respondent not answered what to improve .',
      'respondent did not answer how it can improve',
      "respondent ca n't suggest what to improve .",
      'respondent was not able to suggest any improvement .',
      'respondent not able to answer on that one .',
    ];
    expect(taken(texts)).toEqual(texts);
  });

  it('keeps comments that ask for something, even when they mention the respondent', () => {
    const texts = [
      'nothing is explained to us about the work',
      'they should call back when the respondent gives a complaint .',
      'respondent not answered what to improve . the washing should be better .',
    ];
    expect(taken(texts)).toEqual([]);
  });
});
