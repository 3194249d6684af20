import { describe, expect, it } from 'vitest';
import { polarityFeatures, type FeatureConfig } from './features.js';
import { prepareSentence } from './prepare.js';

// A stand-in for the sentence encoder: a one-dimensional "embedding", the text's length, so each
// feature shows which text was encoded.
const embed = (text: string): Float32Array => Float32Array.of(text.length);
const text = 'Great food but the service was dreadful!';
const food = { id: 'food', anchorWeight: (word: string) => (word === 'food' ? 1 : 0) };

function features(sentenceEmbedding: FeatureConfig['sentenceEmbedding']): Map<string, number> {
  const config: FeatureConfig = {
    charNgrams: null,
    clusters: false,
    normalize: false,
    anchorThreshold: 0.15,
    sentenceEmbedding,
  };
  return polarityFeatures(
    prepareSentence(text, null, 0, 'en', null, embed),
    food,
    new Map(),
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
