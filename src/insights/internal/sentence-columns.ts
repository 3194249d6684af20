import type { compileMentionMatcher } from '../../mentions/index.js';
import { ByteCodes, grow } from '../../platform/arrays.js';
import type { Polarity, TextAnalysis } from '../analyzer.js';
import { sentenceFlags, statedMinutes, textArea, THEME_PATTERNS } from './themes.js';

/**
 * The prepared sentences of review texts, held in columns (typed arrays) rather than an object
 * per sentence and aspect: what the sentence cache of `prepare.ts` keeps between data versions.
 */

export interface PreparedAspect {
  readonly category: string;
  readonly polarity: Polarity;
  readonly confidence: number;
}

export interface PreparedSentence {
  /** Verbatim text of the sentence (a substring of the review text). */
  readonly text: string;
  readonly aspects: readonly PreparedAspect[];
  /** Bit i set when the sentence names theme i of THEMES. */
  readonly themes: number;
  /** Catalogue service ids the sentence names. */
  readonly services: readonly string[];
  /** Full names of the staff the sentence names (roster matching, as for `mentions`). */
  readonly staff: readonly string[];
  /** FAQ phrase flags (FLAG_QUOTE, FLAG_PRESSURE). */
  readonly flags: number;
  /** Durations the sentence states, in minutes. */
  readonly minutes: readonly number[];
}

export type MentionMatcher = ReturnType<typeof compileMentionMatcher>;

/** What few sentences name: services, staff, durations (kept apart from the columns). */
interface Named {
  services: readonly string[];
  staff: readonly string[];
  minutes: readonly number[];
}

/**
 * The prepared sentences of many texts, in columns: a text is a run of sentences, a sentence a
 * span of its text, a run of aspects, its theme and phrase bits, and (rarely) what it names. At
 * 100,000 reviews, an object for each sentence and aspect held 60 MB of heap more than these
 * columns, which take 11 MB. Entries are only added; `retain` copies what it keeps into new
 * columns.
 */
export class Columns {
  /** Per text (index from `texts`): its first sentence, sentence count and area code. */
  readonly texts = new Map<string, number>();
  private textFirst = new Uint32Array(1024);
  private textCount = new Uint32Array(1024);
  /** 0: none; otherwise 1 + the code in `areas`. */
  private textArea = new Uint8Array(1024);
  /** Per sentence: its span in the text, first aspect, aspect count, theme bits and flags. */
  private start = new Uint32Array(4096);
  private end = new Uint32Array(4096);
  private aspectFirst = new Uint32Array(4096);
  private aspectCount = new Uint8Array(4096);
  private themes = new Int32Array(4096);
  private flags = new Uint8Array(4096);
  private sentenceCount = 0;
  /** Per aspect: category and polarity codes and the confidence. */
  private category = new Uint8Array(4096);
  private polarity = new Uint8Array(4096);
  private confidence = new Float64Array(4096);
  private aspectTotal = 0;
  /** What the sentences that name something name, by sentence index. */
  private readonly named = new Map<number, Named>();

  constructor(
    private readonly categories = new ByteCodes<string>(),
    private readonly polarities = new ByteCodes<Polarity>(),
    private readonly areas = new ByteCodes<string>(),
  ) {}

  /** An empty set of columns sharing this one's codes (for `retain`). */
  empty(): Columns {
    return new Columns(this.categories, this.polarities, this.areas);
  }

  /** Adds the prepared sentences of `text`; returns its index. */
  add(text: string, analysis: TextAnalysis, matcher: MentionMatcher): number {
    const index = this.texts.size;
    const first = this.sentenceCount;
    for (const s of analysis.sentences) {
      const sentence = text.slice(s.start, s.end);
      let themes = 0;
      THEME_PATTERNS.forEach((re, i) => {
        if (re.test(sentence)) themes |= 1 << i;
      });
      const found = matcher.match({ name: null, reviewBody: sentence });
      const named: Named = {
        services: found.services,
        staff: found.technicians.map((t) => t.name),
        minutes: statedMinutes(sentence),
      };
      const aspects = s.aspects.map((a) => ({
        category: this.categories.code(a.category),
        polarity: this.polarities.code(a.polarity),
        confidence: a.confidence,
      }));
      this.pushSentence(s.start, s.end, themes, sentenceFlags(sentence), aspects, named);
    }
    this.pushText(text, first, this.sentenceCount - first, textArea(text));
    return index;
  }

  /** The sentences of text `index`, made anew from the columns (`body`: the text itself). */
  sentences(index: number, body: string): PreparedSentence[] {
    const first = this.textFirst[index]!;
    const count = this.textCount[index]!;
    const out = new Array<PreparedSentence>(count);
    for (let k = 0; k < count; k++) {
      const s = first + k;
      const named = this.named.get(s);
      out[k] = {
        text: body.slice(this.start[s], this.end[s]),
        aspects: this.aspects(s),
        themes: this.themes[s]!,
        services: named?.services ?? NONE,
        staff: named?.staff ?? NONE,
        flags: this.flags[s]!,
        minutes: named?.minutes ?? NONE,
      };
    }
    return out;
  }

  area(index: number): string | null {
    const code = this.textArea[index]!;
    return code === 0 ? null : this.areas.list[code - 1]!;
  }

  /** Copies text `index` of `from` (with its sentences and aspects) into these columns. */
  copy(from: Columns, text: string, index: number): void {
    const first = this.sentenceCount;
    const count = from.textCount[index]!;
    for (let s = from.textFirst[index]!; s < from.textFirst[index]! + count; s++) {
      const aspects = [];
      for (let a = from.aspectFirst[s]!; a < from.aspectFirst[s]! + from.aspectCount[s]!; a++) {
        aspects.push({
          category: from.category[a]!,
          polarity: from.polarity[a]!,
          confidence: from.confidence[a]!,
        });
      }
      this.pushSentence(
        from.start[s]!,
        from.end[s]!,
        from.themes[s]!,
        from.flags[s]!,
        aspects,
        from.named.get(s),
      );
    }
    this.pushText(text, first, count, from.area(index));
  }

  private aspects(s: number): readonly PreparedAspect[] {
    const count = this.aspectCount[s]!;
    if (count === 0) return NONE;
    const first = this.aspectFirst[s]!;
    const out = new Array<PreparedAspect>(count);
    for (let k = 0; k < count; k++) {
      const a = first + k;
      out[k] = {
        category: this.categories.list[this.category[a]!]!,
        polarity: this.polarities.list[this.polarity[a]!]!,
        confidence: this.confidence[a]!,
      };
    }
    return out;
  }

  private pushSentence(
    start: number,
    end: number,
    themes: number,
    flags: number,
    aspects: readonly { category: number; polarity: number; confidence: number }[],
    named: Named | undefined,
  ): void {
    const s = this.sentenceCount++;
    if (s >= this.start.length) {
      const size = s + 1;
      this.start = grow(this.start, size);
      this.end = grow(this.end, size);
      this.aspectFirst = grow(this.aspectFirst, size);
      this.aspectCount = grow(this.aspectCount, size);
      this.themes = grow(this.themes, size);
      this.flags = grow(this.flags, size);
    }
    this.start[s] = start;
    this.end[s] = end;
    this.themes[s] = themes;
    this.flags[s] = flags;
    this.aspectFirst[s] = this.aspectTotal;
    this.aspectCount[s] = aspects.length;
    for (const a of aspects) {
      const k = this.aspectTotal++;
      if (k >= this.category.length) {
        this.category = grow(this.category, k + 1);
        this.polarity = grow(this.polarity, k + 1);
        this.confidence = grow(this.confidence, k + 1);
      }
      this.category[k] = a.category;
      this.polarity[k] = a.polarity;
      this.confidence[k] = a.confidence;
    }
    if (named && (named.services.length || named.staff.length || named.minutes.length)) {
      this.named.set(s, {
        services: orNone(named.services),
        staff: orNone(named.staff),
        minutes: orNone(named.minutes),
      });
    }
  }

  private pushText(text: string, first: number, count: number, area: string | null): void {
    const index = this.texts.size;
    if (index >= this.textFirst.length) {
      this.textFirst = grow(this.textFirst, index + 1);
      this.textCount = grow(this.textCount, index + 1);
      this.textArea = grow(this.textArea, index + 1);
    }
    this.textFirst[index] = first;
    this.textCount[index] = count;
    this.textArea[index] = area === null ? 0 : this.areas.code(area) + 1;
    this.texts.set(text, index);
  }
}

/**
 * One empty list shared by every sentence that names nothing (most) and has no aspect: an empty
 * array each would be tens of megabytes at 100,000 reviews.
 */
export const NONE: never[] = Object.freeze([]) as unknown as never[];

function orNone<T>(list: readonly T[]): readonly T[] {
  return list.length === 0 ? NONE : list;
}
