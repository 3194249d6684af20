import { describe, expect, it } from 'vitest';
import { nothingToImprove } from './survey-labels.js';

describe('nothingToImprove', () => {
  it('takes answers that say nothing needs improving', () => {
    for (const text of [
      'no improvement require .',
      'no improvement requires because all are fine',
      'nothing to improve',
      'None.',
      'no comments',
      'everything is ok',
    ]) {
      expect(nothingToImprove(text), text).toBe(true);
    }
  });

  it("takes the interviewer's note that the respondent gave no answer", () => {
    for (const text of [
      // The interviewers' notes are paraphrased here, in the data's tokenised style.
      'respondent not answered what to improve .',
      'respondent did not answer how it can improve',
      "respondent ca n't suggest what to improve .",
      'respondent was not able to suggest any improvement .',
      'respondent not able to answer on this question .',
    ]) {
      expect(nothingToImprove(text), text).toBe(true);
    }
  });

  it('keeps comments that ask for something, even when they mention the respondent', () => {
    for (const text of [
      'nothing is explained to us about the work',
      'they should call back when the respondent gives a complaint .',
      'respondent not answered what to improve . the washing should be better .',
    ]) {
      expect(nothingToImprove(text), text).toBe(false);
    }
  });
});
