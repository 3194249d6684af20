import { z } from 'zod';
import type { Review } from '../domain/review.js';
import { fitStrings, prefixChars, stringBytes, type FitRules } from './internal/fit.js';
import type { Limits } from './internal/render.js';

export { jsonBytes } from './internal/fit.js';

/**
 * What an agent pays for: every byte of a tool result goes into its context, and common clients
 * cut a result at about 25,000 tokens. Results are sized here: reviews in a compact shape by
 * default, a text copy at most half the size of the structured content, and pages and long texts
 * cut to a byte budget. Tokens are counted as bytes / 3.5, the rule the budgets are stated in.
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

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/** The text copy names at most this many staff and services of a review (all are in the JSON). */
const MENTIONS_SHOWN = 12;

/**
 * One review as text (the text copy of review results): a line with its id, date, stars, author,
 * title and text, then its translation, the owner's reply, the mentions and, for the full record,
 * the other facts, each on an indented line. `cap` is the characters each text may keep (the
 * review text `cap`, its translation and reply half as many), so that the text copy fits its
 * budget; the structured content has more.
 */
export function reviewText(r: AgentReview | Review, cap: number): string {
  const full = 'reviewRating' in r;
  const a: AgentReview = full ? toAgentReview(r, '') : r;
  const half = Math.ceil(cap / 2);
  const short = Math.min(cap, 60);
  let out = `[${a.id}] ${a.date} ${a.rating}★ ${clip(a.author, short)}`;
  if (a.title) out += ` "${clip(a.title, Math.min(cap, 120))}"`;
  out += `: ${a.text ? clip(full ? r.reviewBody! : a.text, cap) : '(no text)'}`;
  if (a.translation) {
    const lang = a.language ?? (full ? r.inLanguage : null);
    out += `\n translation${lang ? ` from ${lang}` : ''}: ${clip(full ? r.reviewBodyTranslated! : a.translation, half)}`;
  }
  if (a.reply) out += `\n reply: ${clip(full ? r.ownerResponse!.text : a.reply, half)}`;
  const named = [
    ...(a.staff ?? []).map((s) => clip(s, short)),
    ...(a.services ?? []).map((s) => `service:${s}`),
  ];
  if (named.length > MENTIONS_SHOWN)
    named.splice(MENTIONS_SHOWN, named.length, `${named.length - MENTIONS_SHOWN} more`);
  if (named.length > 0) out += `\n mentions: ${named.join(', ')}`;
  if (full) {
    const facts: string[] = [`source ${r.source}`];
    // The source's URL when it fits whole (a cut URL is no link).
    if (r.sourceUrl && r.sourceUrl.length <= cap) facts.push(r.sourceUrl);
    if (r.department) facts.push(`department ${r.department}`);
    if (r.subRatings) {
      const subs = Object.entries(r.subRatings).filter(([, v]) => v !== null);
      if (subs.length > 0)
        facts.push(`sub-ratings ${subs.map(([k, v]) => `${k} ${v}`).join(', ')}`);
    }
    if (r.recommendsDealer !== null) facts.push(`recommends ${yesNo(r.recommendsDealer)}`);
    facts.push(`verification ${r.verification.level}`);
    facts.push(`published ${r.datePublished}`);
    if (r.dateModified !== r.datePublished) facts.push(`modified ${r.dateModified}`);
    if (r.ownerResponse?.dateModified) facts.push(`replied ${r.ownerResponse.dateModified}`);
    out += `\n ${facts.join('; ')}`;
  }
  return out;
}

/**
 * The text copy of a page of reviews at a cap: a head line, one entry per review and, when a text
 * was shortened, a line saying where the whole is.
 */
export function reviewsText(head: string, reviews: readonly (AgentReview | Review)[]): TextBuilder {
  return ({ cap }) => {
    const body = reviews.map((r) => reviewText(r, cap));
    const cut = body.some((line) => line.includes(TEXT_CUT));
    return [
      head,
      ...body,
      ...(cut ? [`${TEXT_CUT}: shortened here; each whole review: resource review://{id}`] : []),
    ].join('\n');
  };
}

/** A text copy builder: the text within limits on its free texts. */
export type TextBuilder = (limits: Limits) => string;

/** The longest cap worth trying (a review text or reply holds at most 20,000 characters). */
const CAP_CEILING = 20_000;
const ALL_ROWS = Number.MAX_SAFE_INTEGER;
/** The rows a list of quotes may keep, most first. */
const ROW_STEPS = [ALL_ROWS, 3, 2, 1, 0];
/** A quote shorter than this says little: fewer quotes, longer, are better. */
const USEFUL_CAP = 40;

/**
 * The text copy of a result: the richest `build(limits)` within `textBudget(structuredBytes)`.
 * For each number of quote rows (all, then fewer) the largest cap that fits is found by binary
 * search; the first with quotes of a useful length wins, else the one with the longest. If even
 * the shortest does not fit, it is cut to the budget, saying so.
 */
export function fitText(build: TextBuilder, structuredBytes: number): string {
  const budget = textBudget(structuredBytes);
  const whole = build({ cap: CAP_CEILING, rows: ALL_ROWS });
  if (stringBytes(whole) <= budget) return whole;
  const fits = (limits: Limits) => stringBytes(build(limits)) <= budget;
  // Builders without lists of quotes render the same whatever the rows.
  const rowsMatter = build({ cap: 0, rows: 0 }) !== build({ cap: 0, rows: ALL_ROWS });
  let best: Limits | null = null;
  for (const rows of rowsMatter ? ROW_STEPS : [ALL_ROWS]) {
    if (!fits({ cap: 0, rows })) continue;
    let lo = 0;
    let hi = CAP_CEILING;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits({ cap: mid, rows })) lo = mid;
      else hi = mid - 1;
    }
    if (!best || lo > best.cap) best = { cap: lo, rows };
    if (lo >= USEFUL_CAP) break;
  }
  if (best) return build(best);
  const note = `\n${TEXT_CUT} the text copy ends here; structuredContent holds the rest.`;
  const shortest = build({ cap: 0, rows: 0 });
  let end = shortest.length;
  while (end > 0 && stringBytes(shortest.slice(0, end)) + stringBytes(note) > budget) {
    end = Math.floor(end * 0.9);
  }
  return `${prefixChars(shortest, end)}${note}`;
}
