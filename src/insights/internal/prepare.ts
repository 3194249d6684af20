import type { Business } from '../../domain/business.js';
import type { ReviewFacts } from '../../domain/review.js';
import { compileMentionMatcher } from '../../mentions/index.js';
import type { Analyzer, Polarity } from '../analyzer.js';
import {
  Columns,
  NONE,
  type MentionMatcher,
  type PreparedAspect,
  type PreparedSentence,
} from './sentence-columns.js';

export type { PreparedAspect, PreparedSentence };

export interface PreparedReview {
  readonly review: ReviewFacts;
  /** Position in published order (0 = newest). */
  readonly order: number;
  /**
   * Its sentences. From the sentence cache they are made anew at each read (from its columns):
   * read them where they are used rather than keeping them.
   */
  readonly sentences: readonly PreparedSentence[];
  /** The service area the text speaks of, from its words. */
  readonly textArea: string | null;
}

/** A review and where its text's sentences are in the cache's columns. */
class CachedReview implements PreparedReview {
  constructor(
    readonly review: ReviewFacts,
    readonly order: number,
    private readonly columns: Columns,
    private readonly index: number,
  ) {}
  get sentences(): readonly PreparedSentence[] {
    return this.columns.sentences(this.index, this.review.reviewBody!);
  }
  get textArea(): string | null {
    return this.columns.area(this.index);
  }
}

/**
 * Per review text: its analysed sentences with what each names (themes, services). Kept across
 * data versions, so a new version only prepares the texts it has not seen; reset when the service
 * catalogue changes (service matches depend on it).
 */
export class SentenceCache {
  private signature = '';
  private columns = new Columns();

  /** Starts afresh when the catalogue or the roster changed (what a sentence names depends on them). */
  private follow(business: Business | null): void {
    const signature = JSON.stringify([business?.services ?? [], business?.staff ?? []]);
    if (signature !== this.signature) {
      this.signature = signature;
      this.columns = new Columns();
    }
  }

  /** The texts `prepare` would analyse for `business`: those not prepared yet, each once. */
  missing(texts: Iterable<string>, business: Business | null): string[] {
    this.follow(business);
    const out = new Set<string>();
    for (const t of texts) if (!this.columns.texts.has(t)) out.add(t);
    return [...out];
  }

  /**
   * Prepares `texts` ahead of `prepare` (a chunk at a time: their analyses need not all be held at
   * once before the sentences are derived from them).
   */
  add(texts: readonly string[], analyze: Analyzer, business: Business | null): void {
    this.follow(business);
    let matcher: MentionMatcher | null = null;
    for (const text of texts) {
      if (this.columns.texts.has(text)) continue;
      matcher ??= compileMentionMatcher(business);
      this.columns.add(text, analyze(text), matcher);
    }
  }

  prepare(
    reviews: readonly ReviewFacts[],
    analyze: Analyzer,
    business: Business | null,
  ): PreparedReview[] {
    this.follow(business);
    const columns = this.columns;
    let matcher: MentionMatcher | null = null;
    return reviews.map((review, order) => {
      const body = review.reviewBody;
      if (!body) return { review, order, sentences: NONE, textArea: null };
      let index = columns.texts.get(body);
      if (index === undefined) {
        matcher ??= compileMentionMatcher(business);
        index = columns.add(body, analyze(body), matcher);
      }
      return new CachedReview(review, order, columns, index);
    });
  }

  /**
   * Keeps only the texts still published. Nothing can be stale while the cache holds no more
   * entries than there are texts (the common case of an import that only adds), so it is then left
   * as is; the cache never outgrows the published texts.
   */
  retain(texts: readonly string[]): void {
    const from = this.columns;
    if (from.texts.size <= texts.length) return;
    const next = from.empty();
    for (const t of texts) {
      const index = from.texts.get(t);
      if (index !== undefined && !next.texts.has(t)) next.copy(from, t, index);
    }
    this.columns = next;
  }
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
