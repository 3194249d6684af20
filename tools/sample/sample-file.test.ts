import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Business } from '../../src/domain/business.js';
import { detectLanguage } from '../../src/domain/language.js';
import { ReviewSource } from '../../src/domain/review.js';
import { DEFAULT_OPTIONS } from './generate.js';
import { writeSample } from './write-sample.js';

const FILE = new URL('../../sample/dealership.json', import.meta.url);
const bytes = readFileSync(FILE);
const data = JSON.parse(bytes.toString('utf8')) as { business: unknown; reviews: unknown[] };
const business = Business.parse(data.business);
const reviews = data.reviews.map((r) => ReviewSource.parse(r));
const texts = reviews.filter((r) => r.reviewBody !== null);
const share = (n: number): number => n / reviews.length;
const stars = (k: number): number =>
  share(reviews.filter((r) => r.reviewRating.ratingValue === k).length);

const dir = mkdtempSync(join(tmpdir(), 'sample-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sample/dealership.json', () => {
  it('is exactly what the generator writes with the default seed', () => {
    const out = join(dir, 'fresh.json');
    writeSample(DEFAULT_OPTIONS, out);
    expect(readFileSync(out).equals(bytes), 'regenerate with `npm run generate`').toBe(true);
  });

  it('holds at least 1,500 reviews over at least three years', () => {
    expect(reviews.length).toBeGreaterThanOrEqual(1500);
    const first = Date.parse(reviews[0]!.datePublished);
    const last = Date.parse(reviews.at(-1)!.datePublished);
    expect(last - first).toBeGreaterThan(3 * 365.25 * 86_400_000);
    expect(reviews.at(-1)!.datePublished <= '2026-11-01T04:00:00.000Z').toBe(true);
  });

  it('has a J-shaped star distribution', () => {
    expect(stars(5)).toBeGreaterThan(0.58);
    expect(stars(5)).toBeLessThan(0.67);
    expect(stars(4)).toBeGreaterThan(0.11);
    expect(stars(4)).toBeLessThan(0.16);
    expect(stars(3)).toBeGreaterThan(0.04);
    expect(stars(3)).toBeLessThan(0.08);
    expect(stars(2)).toBeGreaterThan(0.035);
    expect(stars(2)).toBeLessThan(0.07);
    expect(stars(1)).toBeGreaterThan(0.1);
    expect(stars(1)).toBeLessThan(0.15);
  });

  it('has 10-15% rating-only reviews, all from Google', () => {
    const ratingOnly = reviews.filter((r) => r.reviewBody === null);
    expect(share(ratingOnly.length)).toBeGreaterThan(0.1);
    expect(share(ratingOnly.length)).toBeLessThan(0.15);
    expect(ratingOnly.every((r) => r.source === 'google')).toBe(true);
  });

  it('has about 5% Spanish reviews, the translated ones marked as Spanish', () => {
    const spanish = texts.filter((r) => detectLanguage(r.reviewBody) === 'es');
    expect(share(spanish.length)).toBeGreaterThan(0.035);
    expect(share(spanish.length)).toBeLessThan(0.07);
    const translated = reviews.filter((r) => r.reviewBodyTranslated !== null);
    expect(translated.length).toBeGreaterThan(10);
    expect(
      translated.every(
        (r) => r.inLanguage === 'es' && detectLanguage(r.reviewBodyTranslated) !== 'es',
      ),
    ).toBe(true);
  });

  it('has owner responses on about 60%, more often on negative reviews, never before the review', () => {
    const answered = reviews.filter((r) => r.ownerResponse !== null);
    expect(share(answered.length)).toBeGreaterThan(0.55);
    expect(share(answered.length)).toBeLessThan(0.65);
    const rate = (k: number[]): number => {
      const g = reviews.filter((r) => k.includes(r.reviewRating.ratingValue));
      return g.filter((r) => r.ownerResponse).length / g.length;
    };
    expect(rate([1, 2])).toBeGreaterThan(rate([5]) + 0.2);
    for (const r of answered) {
      expect(r.ownerResponse!.dateModified! > r.datePublished).toBe(true);
      expect(r.ownerResponse!.text).toMatch(
        /Whitfield|Ostrowski|Rhodes|Pruitt|Dunbar|Dana|Greg|Tamika|Leonard|Ray|^Th|^We|^Gracias/,
      );
    }
  });

  it('has some reviews edited after they were published', () => {
    const edited = reviews.filter((r) => r.dateModified !== null);
    expect(edited.length).toBeGreaterThan(20);
    expect(edited.every((r) => r.dateModified! > r.datePublished)).toBe(true);
    // An edit shows in the text as the author's "UPDATE:" or "Edit:" paragraph.
    expect(
      edited.every((r) => /\b(update|edit|actualización|editado)\b/i.test(r.reviewBody ?? '')),
    ).toBe(true);
  });

  it('covers sales, service, finance, parts and body-shop visits', () => {
    const departments = new Set(reviews.map((r) => r.department));
    for (const d of [
      'service',
      'sales',
      'sales-new',
      'sales-used',
      'lease',
      'finance',
      'parts',
      'body-shop',
      null,
    ]) {
      expect(departments, String(d)).toContain(d);
    }
    for (const r of reviews.filter((x) => x.source === 'dealerrater')) {
      expect(r.department).not.toBeNull();
      expect(r.name).not.toBeNull();
      expect(r.subRatings).not.toBeNull();
      expect(r.recommendsDealer).not.toBeNull();
    }
    expect(
      reviews.some((r) => r.taggedStaff.some((t) => t.via === 'tagged' && t.rating !== null)),
    ).toBe(true);
  });

  it('uses source-shaped ids and links', () => {
    for (const r of reviews) {
      if (r.source === 'google') {
        expect(r.sourceReviewId).toMatch(/^ChZDSUhNMG9nS0VJQ0FnSU[A-Za-z0-9_-]{10}EAE$/);
        expect(r.sourceUrl).toContain(r.sourceReviewId);
      } else {
        expect(r.sourceReviewId).toMatch(/^\d{7}$/);
        expect(r.sourceUrl).toMatch(/^https:\/\/www\.dealerrater\.com\/dealer\//);
      }
    }
    expect(new Set(reviews.map((r) => `${r.source}:${r.sourceReviewId}`)).size).toBe(
      reviews.length,
    );
    expect(reviews.some((r) => r.author.name === 'A Google user')).toBe(true);
  });

  it('posts at plausible local hours', () => {
    const raw = data.reviews as { datePublished: string }[];
    const night = raw.filter((r) => /T0[1-5]:/.test(r.datePublished)).length;
    expect(night / raw.length).toBeLessThan(0.03);
    expect(raw.every((r) => /[-+]0[45]:00$/.test(r.datePublished))).toBe(true);
  });
});

describe('what the sample says', () => {
  const body = (r: ReviewSource): string => r.reviewBody ?? '';
  const some = (re: RegExp): number => texts.filter((r) => re.test(body(r))).length;

  it('has two staff who share a first name, and mentions that name alone', () => {
    const firsts = business.staff.map((s) => s.name.split(' ')[0]!);
    const shared = firsts.filter((f, i) => firsts.indexOf(f) !== i);
    expect(shared).toEqual(['Chris']);
    expect(some(/\bChris\b(?! (Wallace|Patel))/)).toBeGreaterThan(10);
  });

  it('names staff in possessive, lower-case, misspelled and nickname forms', () => {
    const firstNames = business.staff.map((s) => s.name.split(' ')[0]!);
    const possessive = new RegExp(`\\b(${firstNames.join('|')})['’]?s\\b(?! (Wallace|Patel))`);
    expect(some(possessive)).toBeGreaterThan(5);
    const lower = new RegExp(
      `\\b(${firstNames
        .filter((f) => f.length >= 4)
        .map((f) => f.toLowerCase())
        .join('|')})\\b`,
    );
    expect(some(lower)).toBeGreaterThan(5);
    expect(
      some(
        /\b(Jeffery|Jeffry|Briana|Breanna|Caitlyn|Catlin|Kristin|Kirsten|Markus|Ramirez|Torrez|Jazmine|Stephan)\b/,
      ),
    ).toBeGreaterThan(5);
    expect(some(/\b(Lupe|Alex|Jeff|Bobby|Lenny)\b/)).toBeGreaterThan(5);
  });

  it('names every service of the catalogue through its synonyms', () => {
    for (const s of business.services) {
      const words = [s.name, ...s.synonyms].map((w) => w.replace(/[/-]/g, '.').toLowerCase());
      const re = new RegExp(`(^|[^\\p{L}])(${words.join('|')})(s|es)?($|[^\\p{L}])`, 'iu');
      expect(some(re), s.id).toBeGreaterThan(0);
    }
  });

  it('talks about loaners, the shuttle, recalls, the coffee and trade-ins', () => {
    for (const re of [
      /loaner/i,
      /shuttle/i,
      /recall/i,
      /coffee/i,
      /trade/i,
      /wait/i,
      /financ/i,
      /honest/i,
    ]) {
      expect(some(re), String(re)).toBeGreaterThan(10);
    }
  });

  it('writes from two words to several paragraphs, with the odd shout and emoji', () => {
    const lengths = texts.map((r) => body(r).length).sort((a, b) => a - b);
    expect(lengths[0]).toBeLessThan(15);
    expect(lengths.at(-1)).toBeGreaterThan(900);
    expect(some(/\n/)).toBeGreaterThan(30);
    expect(some(/\b[A-Z]{3,} [A-Z]{3,} [A-Z]{3,}\b/)).toBeGreaterThan(5);
    expect(some(/\p{Extended_Pictographic}/u)).toBeGreaterThan(5);
  });

  it('never repeats a long review, nor most of one', () => {
    const long = texts.filter((r) => body(r).length >= 300).map((r) => body(r));
    expect(new Set(long).size).toBe(long.length);
    const sentences = long.map(
      (t) =>
        new Set(
          t
            .toLowerCase()
            .split(/[.!?\n]+/)
            .map((s) => s.trim())
            .filter((s) => s.length > 20),
        ),
    );
    let similar = 0;
    for (let i = 0; i < sentences.length; i++) {
      for (let j = i + 1; j < sentences.length; j++) {
        const a = sentences[i]!;
        const b = sentences[j]!;
        let common = 0;
        for (const s of a) if (b.has(s)) common++;
        if (common / Math.min(a.size, b.size) > 0.5) similar++;
      }
    }
    expect(similar).toBeLessThan(3);
  });

  it('gets slower after the staffing change and easier to book after online scheduling', () => {
    const window = (from: string, to: string): ReviewSource[] =>
      texts.filter((r) => r.datePublished >= from && r.datePublished < to);
    const waitShare = (g: ReviewSource[]): number =>
      g.filter(
        (r) =>
          r.reviewRating.ratingValue <= 3 &&
          /wait|hours|short ?staffed|short on techs|backed up|half a day|all morning|techs|esper/i.test(
            body(r),
          ),
      ).length / g.length;
    const bookShare = (g: ReviewSource[]): number =>
      g.filter(
        (r) => /online|text reminder|en línea/i.test(body(r)) && r.reviewRating.ratingValue >= 4,
      ).length / g.length;
    const before = window('2026-02-01', '2026-08-03');
    const after = window('2026-08-03', '2026-11-01');
    expect(waitShare(after)).toBeGreaterThan(1.4 * waitShare(before));
    expect(bookShare(after)).toBeGreaterThan(1.5 * bookShare(before));
  });
});
