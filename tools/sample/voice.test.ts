import { describe, expect, it } from 'vitest';
import { contract, tidy } from './voice.js';

describe('contract', () => {
  it('contracts the way people write, keeping the capital', () => {
    expect(contract('You will not regret it')).toBe("You won't regret it");
    expect(contract('I am sure they are done and it is ready')).toBe(
      "I'm sure they're done and it's ready",
    );
    expect(contract('Did not call. We have been waiting')).toBe("Didn't call. We've been waiting");
  });

  it('leaves phrases alone that do not contract', () => {
    expect(contract('I have to say it is ok')).toBe('I have to say it is ok');
    expect(contract('the island is nice')).toBe('the island is nice');
  });
});

describe('tidy', () => {
  it('collapses the spaces empty alternatives leave', () => {
    expect(tidy(' the staff  was   great , thanks ')).toBe('the staff was great, thanks');
  });
});
