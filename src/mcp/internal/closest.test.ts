import { describe, expect, it } from 'vitest';
import { closestNames } from './closest.js';

const STAFF = ['Mike Torres', 'Mike Chen', 'Sarah Lopez', 'Dave Kim'];

describe('closestNames', () => {
  it('finds misspelt names, whole or by one word', () => {
    expect(closestNames('Mike Torez', STAFF)[0]).toBe('Mike Torres');
    expect(closestNames('Torrez', STAFF)[0]).toBe('Mike Torres');
    expect(closestNames('sara lopez', STAFF)[0]).toBe('Sarah Lopez');
  });

  it('finds names a word starts like the wanted one, and service ids', () => {
    expect(closestNames('Dav', STAFF)).toEqual(['Dave Kim']);
    expect(closestNames('brake', ['brakes', 'oil-change', 'tire-rotation'])).toEqual(['brakes']);
    expect(closestNames('oil', ['brakes', 'oil-change', 'tire-rotation'])).toEqual(['oil-change']);
  });

  it('offers nothing for a name unlike any', () => {
    expect(closestNames('Zebulon Quartermaine', STAFF)).toEqual([]);
    expect(closestNames('', STAFF)).toEqual([]);
  });

  it('shortlists a long list by shared letters before measuring distances', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => `Person Number${i} Longname`);
    const known = [...many, 'Mike Torres'];
    expect(closestNames('Mike Torez', known)[0]).toBe('Mike Torres');
    expect(closestNames('Number4999', known)[0]).toBe('Person Number4999 Longname');
  });
});
