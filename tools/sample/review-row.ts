import type { ReviewSourceInput } from '../../src/domain/review.js';
import type { Author } from './authors.js';
import type { Written } from './compose-en.js';
import { WINDOW } from './events.js';
import {
  addSeconds,
  compareLocal,
  formatLocal,
  type LocalDateTime,
  type UsZone,
} from './local-time.js';
import type { Rng } from './prng.js';
import type { Reply } from './response.js';
import type { Opinion, Visit } from './visit-types.js';

/** US Eastern time, the store's zone (America/New_York). */
export const EASTERN: UsZone = { standardOffsetMinutes: -300 };

const LAST: LocalDateTime = { day: WINDOW.end, second: 86_399 };
const RECOMMENDS = [0, 0.03, 0.1, 0.45, 0.9, 0.97];
const clamp = (n: number): number => Math.max(1, Math.min(5, Math.round(n)));

/** The source-specific pieces of a row: ids, link and, for DealerRater, the title. */
export interface RowIdentity {
  sourceReviewId: string;
  sourceUrl: string;
  title: string | null;
}

function opinionOf(v: Visit, topic: Opinion['topic']): Opinion['polarity'] | null {
  return v.opinions.find((o) => o.topic === topic)?.polarity ?? null;
}

function scoreFor(rng: Rng, rating: number, polarity: Opinion['polarity'] | null): number {
  if (polarity === 'pos') return clamp(Math.max(rating, rng.chance(0.85) ? 5 : 4));
  if (polarity === 'neg') return clamp(Math.min(rating, rng.chance(0.6) ? 1 : 2));
  return clamp(rating + (rng.chance(0.25) ? rng.pick([-1, 1]) : 0));
}

function subRatings(rng: Rng, v: Visit): ReviewSourceInput['subRatings'] {
  const staff = opinionOf(v, 'staff');
  return {
    customerService: scoreFor(rng, v.rating, staff ?? opinionOf(v, 'follow-up')),
    quality: scoreFor(
      rng,
      v.rating,
      opinionOf(v, 'quality-of-work') ?? opinionOf(v, 'sales-experience'),
    ),
    friendliness: scoreFor(rng, v.rating, staff),
    pricing: rng.chance(0.12)
      ? null
      : scoreFor(rng, v.rating, opinionOf(v, 'price-value') ?? opinionOf(v, 'financing')),
    overallExperience: rng.chance(0.9) ? v.rating : clamp(v.rating + rng.pick([-1, 1])),
  };
}

function taggedStaff(
  rng: Rng,
  v: Visit,
  w: Written | null,
): NonNullable<ReviewSourceInput['taggedStaff']> {
  const staffOpinion = opinionOf(v, 'staff');
  const tags: NonNullable<ReviewSourceInput['taggedStaff']> = [];
  for (const e of Object.values(v.staff)) {
    if (!e || e.slot === 'driver' || !rng.chance(e.slot === 'mgr' ? 0.4 : 0.85)) continue;
    const named = w?.mentioned.includes(e) ?? false;
    tags.push({
      name: e.name,
      via: 'tagged',
      rating: scoreFor(rng, v.rating, named ? staffOpinion : null),
    });
  }
  const main = w?.mentioned[0];
  if (main && rng.chance(0.04)) {
    const first = main.name.split(' ')[0]!;
    tags.push({
      name: rng.chance(0.5) ? first : `${first} in ${main.slot === 'sales' ? 'sales' : 'service'}`,
      via: 'free-text',
      rating: null,
    });
  }
  return tags;
}

function department(rng: Rng, v: Visit): ReviewSourceInput['department'] {
  if (v.source === 'dealerrater') {
    if (v.salesKind === 'lease') return 'lease';
    if (v.salesKind) return v.salesKind === 'used' ? 'sales-used' : 'sales-new';
    return 'service';
  }
  if (!rng.chance(v.ratingOnly ? 0.15 : 0.4)) return null;
  if (v.dept === 'sales')
    return rng.chance(0.3) ? (v.salesKind === 'used' ? 'sales-used' : 'sales-new') : 'sales';
  return v.dept;
}

function verification(
  rng: Rng,
  v: Visit,
  author: Author,
  published: LocalDateTime,
): ReviewSourceInput['verification'] {
  const level = author.anonymous
    ? 'unverified'
    : rng.weighted<'transaction-matched' | 'source-confirmed' | 'unverified'>(
        v.source === 'dealerrater'
          ? [
              ['transaction-matched', 75],
              ['source-confirmed', 25],
            ]
          : [
              ['transaction-matched', 60],
              ['source-confirmed', 38],
              ['unverified', 2],
            ],
      );
  let checked = addSeconds(published, rng.int(2, 30) * 3600 + rng.int(0, 3599));
  if (compareLocal(checked, LAST) > 0) checked = LAST;
  return { level, checkedAt: formatLocal(EASTERN, checked) };
}

function editTime(rng: Rng, v: Visit, reply: Reply | null): LocalDateTime | null {
  if (!v.edit) return null;
  const from = reply && v.edit.kind === 'raised' ? reply.at : { day: v.day, second: v.second };
  const hours = Math.min(15 * 24, Math.max(6, rng.logNormal(96, 1)));
  const at = addSeconds(from, Math.round(hours * 3600));
  return compareLocal(at, LAST) > 0 ? LAST : at;
}

/**
 * Assembles one import row (`ReviewSourceInput`) in a fixed key order: Google rows carry text
 * (or none), an optional translation, and sometimes a department tag from the reputation tool;
 * DealerRater rows carry a title, a department, category ratings, "would recommend" and tagged
 * employees. Times are written in the store's local offset.
 */
export function buildRow(
  rng: Rng,
  v: Visit,
  id: RowIdentity,
  author: Author,
  written: Written | null,
  reply: Reply | null,
): ReviewSourceInput {
  const published: LocalDateTime = { day: v.day, second: v.second };
  const edited = editTime(rng, v, reply);
  const translated =
    v.source === 'google' && written?.translation && rng.chance(0.75) ? written.translation : null;
  const datePublished = formatLocal(EASTERN, published);
  const dateModified = edited ? formatLocal(EASTERN, edited) : null;
  const dept = department(rng, v);
  const ownerResponse = reply
    ? { text: reply.text, dateModified: formatLocal(EASTERN, reply.at) }
    : null;
  const reviewBody = written?.text ?? null;
  if (v.source === 'google') {
    const verified = verification(rng, v, author, published);
    if (translated) {
      return {
        source: 'google',
        sourceReviewId: id.sourceReviewId,
        sourceUrl: id.sourceUrl,
        reviewRating: { ratingValue: v.rating },
        reviewBody,
        reviewBodyTranslated: translated,
        inLanguage: 'es',
        author: { name: author.name },
        datePublished,
        dateModified,
        department: dept,
        ownerResponse,
        verification: verified,
      };
    }
    return {
      source: 'google',
      sourceReviewId: id.sourceReviewId,
      sourceUrl: id.sourceUrl,
      reviewRating: { ratingValue: v.rating },
      reviewBody,
      author: { name: author.name },
      datePublished,
      dateModified,
      department: dept,
      ownerResponse,
      verification: verified,
    };
  }
  return {
    source: 'dealerrater',
    sourceReviewId: id.sourceReviewId,
    sourceUrl: id.sourceUrl,
    reviewRating: { ratingValue: v.rating },
    name: id.title,
    reviewBody,
    author: { name: author.name },
    datePublished,
    dateModified,
    department: dept,
    subRatings: subRatings(rng, v),
    recommendsDealer: rng.chance(RECOMMENDS[v.rating]!),
    taggedStaff: taggedStaff(rng, v, written),
    ownerResponse,
    verification: verification(rng, v, author, published),
  };
}
