import { describe, expect, it } from 'vitest';
import { splitGoogleTranslation } from './translation.js';

describe('splitGoogleTranslation', () => {
  it('keeps the original as the text and the translation apart, with the language', () => {
    const comment =
      '(Translated by Google) Very good service, thank you.\n\n(Original)\nMuy buen servicio, gracias a todos.';
    expect(splitGoogleTranslation(comment)).toEqual({
      original: 'Muy buen servicio, gracias a todos.',
      translated: 'Very good service, thank you.',
      language: 'es',
    });
  });

  it('splits the other order (original first, then the translation)', () => {
    const comment =
      'Muy buen servicio y muy rápido.\n\n(Translated by Google)\nVery good and fast service.';
    expect(splitGoogleTranslation(comment)).toMatchObject({
      original: 'Muy buen servicio y muy rápido.',
      translated: 'Very good and fast service.',
    });
  });

  it('leaves a plain comment alone and makes an empty one null', () => {
    expect(splitGoogleTranslation('  Great shop.  ')).toEqual({
      original: 'Great shop.',
      translated: null,
      language: null,
    });
    expect(splitGoogleTranslation(null).original).toBeNull();
    expect(splitGoogleTranslation('   ').original).toBeNull();
  });
});
