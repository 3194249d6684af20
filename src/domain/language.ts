const SPANISH = new Set(
  'el la los las de del que y en un una por con para muy pero mi me su es fue servicio gracias excelente todo todos atención nos lo le al como más muy bien buen buena carro auto'.split(
    ' ',
  ),
);
const ENGLISH = new Set(
  'the and to a of was in for my is it they with on very we were this that service great car but had have you i are be me'.split(
    ' ',
  ),
);

/**
 * A small stop-word vote between English and Spanish, the two languages the dealership's reviews
 * come in. Returns `null` when the text is too short to tell.
 */
export function detectLanguage(text: string | null): 'en' | 'es' | null {
  if (!text) return null;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  let es = 0;
  let en = 0;
  for (const w of words) {
    if (SPANISH.has(w)) es++;
    if (ENGLISH.has(w)) en++;
  }
  if (es + en < 2) return null;
  return es > en ? 'es' : 'en';
}
