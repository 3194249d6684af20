import { describe, expect, it } from 'vitest';
import { prepareRepresentation } from '../representation/index.js';
import { createResponseCache } from './response-cache.js';

const rep = (text: string) =>
  prepareRepresentation(text, { contentType: 'application/json', lastModifiedMs: 0 });

describe('createResponseCache', () => {
  it('evicts the least recently used entry, a repeated hit on the newest included', () => {
    const cache = createResponseCache(3, 1_000_000);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(rep);
    cache.set('a', a!);
    cache.set('b', b!);
    cache.set('c', c!);
    expect(cache.get('a')).toBe(a);
    expect(cache.get('a')).toBe(a);
    cache.set('d', d!);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBe(c);
    cache.set('b', b!);
    // `a` was used before `c` and `d`: it goes first now.
    expect(cache.get('a')).toBeUndefined();
    expect([cache.get('c'), cache.get('d'), cache.get('b')]).toEqual([c, d, b]);
  });

  it('keeps the bytes under its bound', () => {
    const cache = createResponseCache(10, 5);
    cache.set('x', rep('xxx'));
    cache.set('y', rep('yyy'));
    expect(cache.get('x')).toBeUndefined();
    expect(cache.get('y')?.body.toString()).toBe('yyy');
    cache.set('z', rep('zzzzzz'));
    expect(cache.get('z')).toBeUndefined();
  });
});
