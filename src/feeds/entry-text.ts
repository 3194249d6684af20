import type { Review } from '../domain/review.js';

/** The title of a review in feeds: its own title, or "★★★★☆ 4/5 by {author}". */
export function entryTitle(r: Review): string {
  const v = r.reviewRating.ratingValue;
  return r.name ?? `${'★'.repeat(v)}${'☆'.repeat(5 - v)} ${v}/5 by ${r.author.name}`;
}

/** The plain-text body of a review in feeds; rating-only reviews get a sentence. */
export function entryText(r: Review): string {
  return r.reviewBody ?? `Rated ${r.reviewRating.ratingValue} out of 5 (no written review).`;
}

/** Tags of a review in feeds: source, department, rating, staff names and service ids. */
export function entryTags(r: Review): string[] {
  const tags = [r.source, `rating-${r.reviewRating.ratingValue}`];
  if (r.department) tags.push(r.department);
  for (const t of r.mentions.technicians) tags.push(t.name);
  tags.push(...r.mentions.services);
  return tags;
}
