import { readFileSync } from 'node:fs';
import type { Polarity } from '../../../src/insights/absa/types.js';

/** One labelled sentence: its text and gold aspect categories with polarities. */
export interface LabelledSentence {
  id: string;
  text: string;
  aspects: { category: string; polarity: Polarity }[];
  /** Relative weight in training (1 for gold labels, lower for weak labels). */
  weight?: number;
  /** Use for category detection only (the polarity is a guess, e.g. a weak survey label). */
  detectionOnly?: boolean;
  /** Use for polarity only (the sentence's other aspects are not labelled, e.g. transfer data). */
  polarityOnly?: boolean;
  /**
   * Categories the label says nothing about: the sentence is neither a positive nor a negative
   * detection example of them (e.g. a survey comment is labelled with its question's category only).
   */
  unlabelled?: readonly string[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(tag);
  return m ? decodeXml(m[1]!) : undefined;
}

/**
 * Reads a SemEval-2014 Task 4 or MAMS-ACSA XML file (`<sentence><text/><aspectCategories>`) into
 * labelled sentences. Sentences without an `id` attribute get their position as id.
 */
export function readAspectCategoryXml(path: string): LabelledSentence[] {
  const xml = readFileSync(path, 'utf8');
  const out: LabelledSentence[] = [];
  const sentenceRe = /<sentence\b([^>]*)>([\s\S]*?)<\/sentence>/g;
  for (const m of xml.matchAll(sentenceRe)) {
    const body = m[2]!;
    const text = /<text>([\s\S]*?)<\/text>/.exec(body);
    if (!text) continue;
    const aspects: LabelledSentence['aspects'] = [];
    for (const a of body.matchAll(/<aspectCategory\b[^>]*>/g)) {
      const category = attribute(a[0], 'category');
      const polarity = attribute(a[0], 'polarity') as Polarity | undefined;
      if (category && polarity) aspects.push({ category, polarity });
    }
    out.push({
      id: attribute(m[1]!, 'id') ?? String(out.length),
      text: decodeXml(text[1]!),
      aspects,
    });
  }
  return out;
}
