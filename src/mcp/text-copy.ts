import type { Review } from '../domain/review.js';
import { clip, TEXT_CUT, textBudget, toAgentReview, type AgentReview } from './agent.js';
import { prefixChars, stringBytes } from './internal/fit.js';
import type { Limits } from './internal/render.js';

/**
 * The text copy of a tool result: a compact plain-text rendering of the same data (reviews as
 * short rows), the richest that fits at most half the bytes of the structured content.
 */

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
