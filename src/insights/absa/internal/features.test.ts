import { describe, expect, it } from 'vitest';
import { anchorDistances, polarityFeatures, type FeatureConfig } from './features.js';
import { prepareSentence } from './prepare.js';

// A stand-in for the sentence encoder: a one-dimensional "embedding", the text's length, so each
// feature shows which text was encoded.
const embed = (text: string): Float32Array => Float32Array.of(text.length);
const text = 'Great food but the service was dreadful!';
const food = { id: 'food', anchorWeight: (word: string) => (word === 'food' ? 1 : 0) };

function features(
  sentenceEmbedding: FeatureConfig['sentenceEmbedding'],
  options: { text?: string; polarityWindow?: number; lexicon?: Map<string, number> } = {},
): Map<string, number> {
  const config: FeatureConfig = {
    charNgrams: null,
    clusters: false,
    normalize: false,
    anchorThreshold: 0.15,
    sentenceEmbedding,
    polarityWindow: options.polarityWindow,
  };
  return polarityFeatures(
    prepareSentence(options.text ?? text, null, 0, 'en', null, embed),
    food,
    options.lexicon ?? new Map(),
    config,
  );
}

describe('polarityFeatures with a sentence encoder', () => {
  it("embeds the category's clause, and the whole sentence beside it when asked", () => {
    const both = features({ encoder: 'test', detect: 0, polarity: 2, polaritySentence: 3 });
    expect(both.get('uc:0')).toBe(2 * 'Great food'.length);
    expect(both.get('us:0')).toBe(3 * text.length);
  });

  it('leaves the whole sentence out when the model does not ask for it', () => {
    const clause = features({ encoder: 'test', detect: 0, polarity: 2 });
    expect(clause.get('uc:0')).toBe(2 * 'Great food'.length);
    expect([...clause.keys()].some((k) => k.startsWith('us:'))).toBe(false);
  });
});

describe('polarityFeatures with a window around the anchors', () => {
  // Two aspects in one clause: only the words next to "food" are the window's.
  const mixed = 'I loved the food and the staff were rude';
  const lexicon = new Map([
    ['loved', 3],
    ['rude', -2],
  ]);

  it('reads the words next to the category, alone and conjoined with it', () => {
    const bag = features(undefined, { text: mixed, polarityWindow: 2, lexicon });
    expect(bag.get('win:loved')).toBe(1);
    expect(bag.get('food|win:loved')).toBe(1);
    expect(bag.has('win:rude')).toBe(false);
    expect(bag.get('wlex+')).toBe(3 / 4);
    expect(bag.has('wlex-')).toBe(false);
    // The clause-wide features still see both.
    expect(bag.get('lex-')).toBe(2 / 4);
  });

  it('adds no window features when the model does not ask for them', () => {
    const bag = features(undefined, { text: mixed, lexicon });
    expect([...bag.keys()].some((k) => k.includes('win') || k.startsWith('wlex'))).toBe(false);
  });
});

describe('anchorDistances', () => {
  it("gives each token its distance to the category's nearest anchor", () => {
    const p = prepareSentence('Great food but the service, and more food!', null, 0, 'en', null);
    expect(p.words).toEqual([
      'great',
      'food',
      'but',
      'the',
      'service',
      ',',
      'and',
      'more',
      'food',
      '!',
    ]);
    expect(anchorDistances(p, food, 0.15)).toEqual([1, 0, 1, 2, 3, 3, 2, 1, 0, 1]);
  });

  it('is null when the sentence has no anchor of the category', () => {
    const p = prepareSentence('The service was dreadful.', null, 0, 'en', null);
    expect(anchorDistances(p, food, 0.15)).toBeNull();
  });
});
