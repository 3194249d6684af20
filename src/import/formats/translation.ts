import { detectLanguage } from '../../domain/language.js';

/** A review text with Google's machine translation taken apart. */
export interface SplitText {
  /** What the reviewer wrote. */
  original: string | null;
  /** Google's translation, when the text carried one. */
  translated: string | null;
  /** The language of the original, when it can be told. */
  language: string | null;
}

/** Markers Google writes around a translated review: `[translated, original]`. */
const MARKERS: readonly (readonly [string, string])[] = [
  ['(Translated by Google)', '(Original)'],
  ['(Traducido por Google)', '(Original)'],
];

function clean(s: string): string | null {
  const t = s.trim();
  return t === '' ? null : t;
}

function splitWith(
  comment: string,
  translatedMark: string,
  originalMark: string,
): SplitText | null {
  const t = comment.indexOf(translatedMark);
  if (t === -1) return null;
  const o = comment.indexOf(originalMark, t + translatedMark.length);
  if (o !== -1) {
    // "(Translated by Google) <translation>\n\n(Original)\n<original>"
    const original = clean(comment.slice(o + originalMark.length));
    const translated = clean(comment.slice(t + translatedMark.length, o));
    return { original, translated, language: detectLanguage(original) };
  }
  // "<original>\n\n(Translated by Google)\n<translation>"
  const original = clean(comment.slice(0, t));
  const translated = clean(comment.slice(t + translatedMark.length));
  return {
    original: original ?? translated,
    translated: original ? translated : null,
    language: detectLanguage(original),
  };
}

/**
 * Splits the "(Translated by Google) ... (Original) ..." envelope of a Google review comment
 * (either order): the original becomes the review text and the translation is kept apart. A
 * comment without the envelope is returned as is; an empty one is `null` (a rating-only review).
 */
export function splitGoogleTranslation(comment: string | null): SplitText {
  if (comment === null || comment.trim() === '') {
    return { original: null, translated: null, language: null };
  }
  for (const [translatedMark, originalMark] of MARKERS) {
    const split = splitWith(comment, translatedMark, originalMark);
    if (split) return split;
  }
  return { original: clean(comment), translated: null, language: null };
}
