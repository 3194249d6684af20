import type { Business } from '../../domain/business.js';
import type { ReviewFacts } from '../../domain/review.js';
import { compileMentionMatcher } from '../../mentions/index.js';
import type { Analyzer, Polarity } from '../analyzer.js';
import { sentenceFlags, statedMinutes, textArea, THEME_PATTERNS } from './themes.js';

export interface PreparedSentence {
  /** Verbatim text of the sentence (a substring of the review text). */
  text: string;
  aspects: { category: string; polarity: Polarity; confidence: number }[];
  /** Bit i set when the sentence names theme i of THEMES. */
  themes: number;
  /** Catalogue service ids the sentence names. */
  services: string[];
  /** Full names of the staff the sentence names (roster matching, as for `mentions`). */
  staff: string[];
  /** FAQ phrase flags (FLAG_QUOTE, FLAG_PRESSURE). */
  flags: number;
  /** Durations the sentence states, in minutes. */
  minutes: number[];
}

export interface PreparedReview {
  review: ReviewFacts;
  /** Position in published order (0 = newest). */
  order: number;
  sentences: PreparedSentence[];
  /** The service area the text speaks of, from its words. */
  textArea: string | null;
}

interface PreparedText {
  sentences: PreparedSentence[];
  textArea: string | null;
}

/**
 * Per review text: its analysed sentences with what each names (themes, services). Kept across
 * data versions, so a new version only prepares the texts it has not seen; reset when the service
 * catalogue changes (service matches depend on it).
 */
export class SentenceCache {
  private signature = '';
  private map = new Map<string, PreparedText>();

  /** Starts afresh when the catalogue or the roster changed (what a sentence names depends on them). */
  private follow(business: Business | null): void {
    const signature = JSON.stringify([business?.services ?? [], business?.staff ?? []]);
    if (signature !== this.signature) {
      this.signature = signature;
      this.map = new Map();
    }
  }

  /** The texts `prepare` would analyse for `business`: those not prepared yet, each once. */
  missing(texts: Iterable<string>, business: Business | null): string[] {
    this.follow(business);
    const out = new Set<string>();
    for (const t of texts) if (!this.map.has(t)) out.add(t);
    return [...out];
  }

  /**
   * Prepares `texts` ahead of `prepare` (a chunk at a time: their analyses need not all be held at
   * once before the sentences are derived from them).
   */
  add(texts: readonly string[], analyze: Analyzer, business: Business | null): void {
    this.follow(business);
    let matcher: ReturnType<typeof compileMentionMatcher> | null = null;
    for (const text of texts) {
      if (this.map.has(text)) continue;
      matcher ??= compileMentionMatcher(business);
      this.map.set(text, prepareText(text, analyze, matcher));
    }
  }

  prepare(
    reviews: readonly ReviewFacts[],
    analyze: Analyzer,
    business: Business | null,
  ): PreparedReview[] {
    this.follow(business);
    let matcher: ReturnType<typeof compileMentionMatcher> | null = null;
    return reviews.map((review, order) => {
      const body = review.reviewBody;
      if (!body) return { review, order, sentences: [], textArea: null };
      let prepared = this.map.get(body);
      if (!prepared) {
        matcher ??= compileMentionMatcher(business);
        prepared = prepareText(body, analyze, matcher);
        this.map.set(body, prepared);
      }
      return { review, order, sentences: prepared.sentences, textArea: prepared.textArea };
    });
  }

  /**
   * Keeps only the texts still published. Nothing can be stale while the cache holds no more
   * entries than there are texts (the common case of an import that only adds), so it is then left
   * as is; the cache never outgrows the published texts.
   */
  retain(texts: readonly string[]): void {
    if (this.map.size <= texts.length) return;
    const next = new Map<string, PreparedText>();
    for (const t of texts) {
      const hit = this.map.get(t);
      if (hit) next.set(t, hit);
    }
    this.map = next;
  }
}

/**
 * One empty list shared by every sentence that names nothing: most do, and at 100,000 reviews
 * (about 600,000 cached sentences) an empty array each is tens of megabytes.
 */
const NONE: never[] = Object.freeze([]) as unknown as never[];

function orNone<T>(list: T[]): T[] {
  return list.length === 0 ? NONE : list;
}

function prepareText(
  body: string,
  analyze: Analyzer,
  matcher: ReturnType<typeof compileMentionMatcher>,
): PreparedText {
  const sentences = analyze(body).sentences.map((s) => {
    const text = body.slice(s.start, s.end);
    let themes = 0;
    THEME_PATTERNS.forEach((re, i) => {
      if (re.test(text)) themes |= 1 << i;
    });
    const found = matcher.match({ name: null, reviewBody: text });
    return {
      text,
      aspects: s.aspects,
      themes,
      services: orNone(found.services),
      staff: orNone(found.technicians.map((t) => t.name)),
      flags: sentenceFlags(text),
      minutes: orNone(statedMinutes(text)),
    };
  });
  return { sentences, textArea: textArea(body) };
}

/** The majority polarity of a sentence's aspects, or `null` when it has none. */
export function sentencePolarity(s: PreparedSentence): Polarity | null {
  if (s.aspects.length === 0) return null;
  let best = s.aspects[0]!;
  let pos = false;
  let neg = false;
  for (const a of s.aspects) {
    if (a.confidence > best.confidence) best = a;
    if (a.polarity === 'positive') pos = true;
    else if (a.polarity === 'negative') neg = true;
  }
  if (pos && neg) return 'conflict';
  return best.polarity;
}
