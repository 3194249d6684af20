import { describe, expect, it } from 'vitest';
import { assignClauses, clauseText, prepareSentence } from './prepare.js';

/** The clauses of an invented sentence as `a | b`, read with or without the run-on rule. */
function clauses(text: string, runOn: boolean): string {
  const p = prepareSentence(text, null);
  const { clause, count } = assignClauses(p.words, runOn);
  return Array.from({ length: count }, (_, c) => clauseText(p, c, clause)).join(' | ');
}

describe('clauses of a run-on sentence', () => {
  it('starts a clause at a subject pronoun with a finite verb after a content word', () => {
    const text = 'they should make the booking easy it has to be quick';
    expect(clauses(text, false)).toBe(text);
    expect(clauses(text, true)).toBe('they should make the booking easy | it has to be quick');
    expect(clauses('the lounge was nice we were done in an hour', true)).toBe(
      'the lounge was nice | we were done in an hour',
    );
  });

  it('does not break a clause that a verb, a conjunction or a pronoun takes after it', () => {
    for (const text of [
      'they told me it was ready',
      'I emailed to confirm it was available',
      'the car was washed and it was clean',
      'I asked them they said it was fine',
      'the advisor who called said we should wait',
    ]) {
      expect(clauses(text, true), text).toBe(text);
    }
  });

  it('keeps the punctuation clauses that the polarity features read', () => {
    const p = prepareSentence(
      'they should make the booking easy it has to be quick, but fine',
      null,
    );
    expect(p.clauseCount).toBe(2);
  });
});
