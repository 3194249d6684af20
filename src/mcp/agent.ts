import { z } from 'zod';
import type { Review } from '../domain/review.js';

/**
 * What an agent pays for: every byte of a tool result goes into its context, and common clients
 * cut a result at about 25,000 tokens. Results are sized here: reviews in a compact shape by
 * default, a plain-text copy instead of a second JSON, and pages that stop at a token budget.
 * Tokens are counted as bytes / 3.5, the rule the budgets are stated in.
 */
export const BYTES_PER_TOKEN = 3.5;

/** The token budget of one result: about 375 tokens per review asked for, within bounds. */
export function budgetFor(limit: number): number {
  return Math.min(MAX_RESULT_TOKENS, Math.max(DEFAULT_RESULT_TOKENS, limit * 375));
}

/** At a tool's defaults a result stays under this many tokens... */
export const DEFAULT_RESULT_TOKENS = 7_500;
/** ...and at its maxima under this many. */
export const MAX_RESULT_TOKENS = 24_000;

/** The cost of a value in a result, in bytes (as JSON, the way it travels). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

/**
 * The tokens an agent pays for one result: the bytes of the whole JSON-RPC result (structured
 * content, its text copy and the rest) divided by `BYTES_PER_TOKEN`. The budget test and the agent
 * task suite count with it.
 */
export function resultTokens(result: unknown): number {
  return jsonBytes(result) / BYTES_PER_TOKEN;
}

/** Review texts in the compact shape are cut at this many characters (detail: full has all). */
const TEXT_CAP = 1_500;

function cap(text: string): string {
  return text.length <= TEXT_CAP
    ? text
    : `${text.slice(0, TEXT_CAP)}… [cut: detail "full" has it all]`;
}

/** The compact review of agents: what they quote and cite, no empty field. */
export const AgentReview = z.object({
  id: z.string(),
  date: z.string().describe('Local date YYYY-MM-DD.'),
  rating: z.number().int().describe('Stars, 1-5.'),
  author: z.string(),
  title: z.string().optional(),
  text: z.string().optional().describe('The review text (absent for a rating without text).'),
  reply: z.string().optional().describe("The business owner's public reply."),
  staff: z.array(z.string()).optional().describe('Staff the review names.'),
  services: z.array(z.string()).optional().describe('Service ids the review mentions.'),
  link: z.string().describe('The review on this service (its page).'),
});
export type AgentReview = z.infer<typeof AgentReview>;

/** The compact shape of a review. */
export function toAgentReview(r: Review, baseUrl: string): AgentReview {
  const out: AgentReview = {
    id: r.id,
    date: r.date,
    rating: r.reviewRating.ratingValue,
    author: r.author.name,
    link: `${baseUrl}/reviews/${r.id}`,
  };
  if (r.name) out.title = r.name;
  if (r.reviewBody) out.text = cap(r.reviewBody);
  if (r.ownerResponse) out.reply = cap(r.ownerResponse.text);
  if (r.mentions.technicians.length > 0) out.staff = r.mentions.technicians.map((t) => t.name);
  if (r.mentions.services.length > 0) out.services = [...r.mentions.services];
  return out;
}

/**
 * One review as a line of text (with its reply and mentions on the next lines): the text copy of
 * review results. Everything the compact shape holds but the link, which the id gives.
 */
export function reviewLine(r: AgentReview | Review): string {
  const a = 'reviewRating' in r ? toAgentReview(r, '') : r;
  let line = `- [${a.id}] ${a.date} ${a.rating}★ ${a.author}`;
  if (a.title) line += ` "${a.title}"`;
  line += `: ${a.text ?? '(rating only, no text)'}`;
  if (a.reply) line += `\n  owner reply: ${a.reply}`;
  const named = [...(a.staff ?? []), ...(a.services ?? []).map((s) => `service:${s}`)];
  if (named.length > 0) line += `\n  mentions: ${named.join(', ')}`;
  return line;
}

function scalar(value: unknown): string {
  if (typeof value === 'string')
    return /[\n:#]|^\s|\s$|^$/.test(value) ? JSON.stringify(value) : value;
  return String(value);
}

/**
 * A compact plain-text rendering of a JSON value (YAML-like: `key: value`, `- ` items), the text
 * copy of results that are not review lists: the same data as the structured content in about
 * two thirds of the bytes, readable by a model.
 */
export function renderText(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}[]`;
    return value
      .map((item) => {
        if (item !== null && typeof item === 'object') {
          const inner = renderText(item, `${indent}  `);
          return `${indent}- ${inner.trimStart()}`;
        }
        return `${indent}- ${scalar(item)}`;
      })
      .join('\n');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, v]) => v !== undefined,
    );
    if (entries.length === 0) return `${indent}{}`;
    return entries
      .map(([k, v]) => {
        if (v !== null && typeof v === 'object') {
          const empty = Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;
          return empty
            ? `${indent}${k}: ${Array.isArray(v) ? '[]' : '{}'}`
            : `${indent}${k}:\n${renderText(v, `${indent}  `)}`;
        }
        return `${indent}${k}: ${scalar(v)}`;
      })
      .join('\n');
  }
  return `${indent}${scalar(value)}`;
}

/** A page of items cut to a token budget: how many fit, counting both copies of each. */
export function fitToBudget<T>(
  items: Iterable<T>,
  limit: number,
  budgetTokens: number,
  cost: (item: T) => number,
  overhead = 400,
): { taken: T[]; more: boolean } {
  const budget = budgetTokens * BYTES_PER_TOKEN - overhead;
  const taken: T[] = [];
  let used = 0;
  for (const item of items) {
    if (taken.length >= limit) return { taken, more: true };
    const c = cost(item);
    // The first item always goes in (a page is never empty while items are left).
    if (taken.length > 0 && used + c > budget) return { taken, more: true };
    taken.push(item);
    used += c;
  }
  return { taken, more: false };
}
