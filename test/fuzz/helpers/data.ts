import type { ReviewSourceInput } from '../../../src/domain/review.js';
import { testReviews } from '../../helpers/fixtures.js';

/**
 * Texts that break naive case folding, word splitting and byte handling: Greek final sigma,
 * Turkish dotted I, sharp s, ligatures, the Kelvin sign, combining marks, emoji, right-to-left
 * text, CJK without spaces.
 */
const UNICODE_TEXTS: readonly [title: string | null, body: string][] = [
  ['ΟΔΟΣ ΣΟΦΙΑΣ', 'Η ΕΞΥΠΗΡΕΤΗΣΗ ΗΤΑΝ ΑΨΟΓΗ, ΣΑΣ ΕΥΧΑΡΙΣΤΩ. Ο Mike Torres άλλαξε τα λάδια.'],
  [null, 'İstanbul şubesinden daha iyi! Fren balatası (brake pads) değişti.'],
  ['STRASSE', 'Die Straße war gesperrt, aber der Service (ẞ) war großartig.'],
  ['ﬁne ﬂow', 'The ﬁnal bill was ﬁne; oil and filter done in 20 minutes.'],
  [null, 'Temperature 300 K after the brake job? No, just kidding: brakes fixed.'],
  ['Café', 'Cafe\u0301 in the waiting room, re\u0301sume\u0301 of the work was clear.'],
  ['😀🚗', 'Great 👍🏽 service, car 🚙 like new! Sarah Lopez 💯'],
  [null, 'خدمة ممتازة وسريعة، شكرا لكم \u202eright-to-left\u202c mark'],
  ['很好', '服务很好，换机油很快。技师很专业。'],
  ['Tab\there', 'Line one\nline two\r\nline three with trailing spaces   '],
  [null, 'Quote "double" and \'single\' and back\\slash and <b>tags</b> & amps'],
  ['a'.repeat(60), `${'Long review. '.repeat(120)}The end.`],
  [null, 'ǅemal and ǆ, titlecase digraphs; Ωmega and ω; µ and μ'],
  ['NaN', 'null undefined true false 0 -0 1e3 0x10 __proto__ constructor'],
  [null, 'Zero\u200bwidth\u200bspaces and non\u00a0breaking and soft\u00adhyphen'],
  ['MIKE', 'mike chen and MIKE TORRES and Mike  Torres (two spaces)'],
];

/** The fuzz services' data: 40 ordinary reviews and the Unicode ones, spread over 2023-2025. */
export function fuzzReviews(): ReviewSourceInput[] {
  const unicode = UNICODE_TEXTS.map(([name, reviewBody], i): ReviewSourceInput => ({
    source: i % 2 === 0 ? 'google' : 'yelp',
    sourceReviewId: `fuzz-unicode-${i}`,
    reviewRating: { ratingValue: (i % 5) + 1 },
    name,
    reviewBody,
    author: { name: `Unicode ${i} ✓` },
    datePublished: new Date(Date.parse('2023-03-01T12:00:00Z') + i * 41 * 86_400_000).toISOString(),
  }));
  return [...testReviews(40), ...unicode];
}
