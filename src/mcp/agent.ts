import { z } from 'zod';
import type { Review } from '../domain/review.js';
import { fitStrings, prefixChars, type FitRules } from './internal/fit.js';

export { jsonBytes } from './internal/fit.js';

/**
 * What an agent pays for: every byte of a tool result goes into its context, and common clients
 * cut a result at about 25,000 tokens. Results are sized here: reviews in a compact shape by
 * default, a text copy at most half the size of the structured content (written by
 * text-copy.ts), and pages and long texts cut to a byte budget. Tokens are counted as bytes / 3.5, the rule the budgets are stated in.
 */
export const BYTES_PER_TOKEN = 3.5;

/** At a tool's defaults a whole result stays within this many tokens... */
export const DEFAULT_RESULT_TOKENS = 8_000;
/** ...and at its maxima within this many. */
export const MAX_RESULT_TOKENS = 25_000;

/** The text copy takes at most this share of the structured content's bytes... */
export const TEXT_SHARE = 0.5;
/** ...and never less than this (a tiny result still gets a readable line or two). */
export const MIN_TEXT_BYTES = 512;
/** The JSON-RPC envelope around both (`{"result":{"content":[{"type":"text",...`, the id). */
const ENVELOPE_BYTES = 128;
/** What the budgets keep in hand (3 %), for rounding. */
const MARGIN = 0.97;

/**
 * The bytes the text copy of a result may take (as a JSON string, escapes included): half the
 * structured content's, or `MIN_TEXT_BYTES` when that is more. So the whole result is at most
 * 1.5 times the structured content (a result under 1 KB: 512 bytes more) plus the JSON-RPC
 * envelope (about 100 bytes).
 */
export function textBudget(structuredBytes: number): number {
  return Math.max(Math.floor(structuredBytes * TEXT_SHARE), MIN_TEXT_BYTES);
}

/**
 * The bytes the structured content of a result may take for the whole result (structured
 * content, a text copy within `textBudget` and the envelope) to stay within `tokens`.
 */
export function structuredBudget(tokens: number): number {
  return Math.floor((tokens * BYTES_PER_TOKEN * MARGIN - ENVELOPE_BYTES) / (1 + TEXT_SHARE));
}

/** The token budget of a page of reviews: about 375 tokens per review asked for, within bounds. */
export function pageTokens(limit: number): number {
  return Math.min(MAX_RESULT_TOKENS, Math.max(DEFAULT_RESULT_TOKENS, limit * 375));
}

/** Review texts in the compact shape are cut at this many characters (and to the budget)... */
export const TEXT_CAP = 1_500;
/** ...and its title, author and staff names at this many. */
const NAME_CAP = 120;

/** The texts of a review (either shape): what a cut keeps most of. */
const REVIEW_TEXT = new Set(['reviewBody', 'reviewBodyTranslated', 'text', 'translation', 'reply']);
/** Its other free strings (title, author, staff names, source id and URL, language tag). */
const REVIEW_OTHER = new Set([
  'name',
  'title',
  'author',
  'sourceUrl',
  'sourceReviewId',
  'staff[]',
  'language',
  'inLanguage',
]);

/**
 * How a review is cut to fit: its texts keep 32 times more than its other strings and end with a
 * mark that says how much is shown and that `review://{id}` holds the whole; the other strings
 * (a 200-character name, a long URL) end with `…[cut]`. Ids, dates and enums are never cut.
 */
function reviewRules(id: string, compact: boolean): FitRules {
  return {
    weight: (key) => (REVIEW_TEXT.has(key) ? 32 : REVIEW_OTHER.has(key) ? 1 : 0),
    mark: (shown, total, key) =>
      REVIEW_TEXT.has(key)
        ? `… [cut at ${shown} of ${total} characters; the whole review: ${wholeReviewAt(id)}]`
        : TEXT_CUT,
    ...(compact
      ? {
          maxChars: (key: string) =>
            REVIEW_TEXT.has(key) ? TEXT_CAP : REVIEW_OTHER.has(key) ? NAME_CAP : undefined,
        }
      : {}),
  };
}

/** Where a review's whole record is, for the marks of what was cut. */
export function wholeReviewAt(id: string): string {
  return `review://${id}`;
}

/** The compact review of agents: what they quote and cite, no empty field. */
export const AgentReview = z.object({
  id: z.string(),
  date: z.string().describe('Local date YYYY-MM-DD.'),
  rating: z.number().int().describe('Stars, 1-5.'),
  author: z.string(),
  title: z.string().optional(),
  text: z.string().optional().describe('The review text (absent for a rating without text).'),
  language: z.string().optional().describe('BCP 47 language of the text, when not English.'),
  translation: z.string().optional().describe('English translation of the text, when given.'),
  reply: z.string().optional().describe("The business owner's public reply."),
  staff: z.array(z.string()).optional().describe('Staff the review names.'),
  services: z.array(z.string()).optional().describe('Service ids the review mentions.'),
  link: z.string().describe('The review on this service (its page).'),
});
export type AgentReview = z.infer<typeof AgentReview>;

/** The compact shape of a review, whole (`shapeReview` cuts it). */
export function toAgentReview(r: Review, baseUrl: string): AgentReview {
  const out: AgentReview = {
    id: r.id,
    date: r.date,
    rating: r.reviewRating.ratingValue,
    author: r.author.name,
    link: `${baseUrl}/reviews/${r.id}`,
  };
  if (r.name) out.title = r.name;
  if (r.reviewBody) out.text = r.reviewBody;
  if (r.inLanguage && !/^en\b/i.test(r.inLanguage)) out.language = r.inLanguage;
  if (r.reviewBodyTranslated) out.translation = r.reviewBodyTranslated;
  if (r.ownerResponse) out.reply = r.ownerResponse.text;
  if (r.mentions.technicians.length > 0) out.staff = r.mentions.technicians.map((t) => t.name);
  if (r.mentions.services.length > 0) out.services = [...r.mentions.services];
  return out;
}

/**
 * A review in the shape asked for, within `maxBytes` as JSON: the compact shape has its texts cut
 * at `TEXT_CAP` characters; either shape, when larger than `maxBytes`, has its longest strings cut
 * (see `reviewRules`).
 */
export function shapeReview(
  review: Review,
  detail: 'compact' | 'full',
  baseUrl: string,
  maxBytes = Number.POSITIVE_INFINITY,
): AgentReview | Review {
  const compact = detail === 'compact';
  const value = compact ? toAgentReview(review, baseUrl) : review;
  const long = [review.reviewBody, review.reviewBodyTranslated, review.ownerResponse?.text].some(
    (t) => t && t.length > TEXT_CAP,
  );
  if (maxBytes === Number.POSITIVE_INFINITY && !(compact && long)) return value;
  return fitStrings(value, maxBytes, reviewRules(review.id, compact));
}

/**
 * A page of items cut to a byte budget: items are taken while they fit (at most `limit`); the
 * first is cut to the budget when it alone is larger, so a page is never empty while items are
 * left and never over its budget.
 */
export function fitPage<T>(
  items: Iterable<T>,
  limit: number,
  budgetBytes: number,
  bytesOf: (item: T) => number,
  shrink: (item: T, maxBytes: number) => T,
): { taken: T[]; more: boolean } {
  const taken: T[] = [];
  let used = 0;
  for (const item of items) {
    if (taken.length >= limit) return { taken, more: true };
    // Each item and the comma before it.
    const cost = bytesOf(item) + 1;
    if (used + cost > budgetBytes) {
      if (taken.length > 0) return { taken, more: true };
      taken.push(shrink(item, budgetBytes - 1));
      used = budgetBytes;
      continue;
    }
    taken.push(item);
    used += cost;
  }
  return { taken, more: false };
}

/** The mark of a text shortened in the text copy. */
export const TEXT_CUT = '…[cut]';

/** A text cut to `cap` characters for the text copy, whitespace runs made single spaces. */
export function clip(text: string, cap: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= cap ? flat : `${prefixChars(flat, cap)}${TEXT_CUT}`;
}
