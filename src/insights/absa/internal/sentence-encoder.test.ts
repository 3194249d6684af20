import { describe, expect, it } from 'vitest';
import { sharedSentenceEncoder, UNIVERSAL_SENTENCE_ENCODER } from './sentence-encoder.js';

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

describe('the Universal Sentence Encoder', { timeout: 60_000 }, () => {
  const encoder = sharedSentenceEncoder(UNIVERSAL_SENTENCE_ENCODER);

  it('encodes prepared texts into 512 values, the same whatever the batch', async () => {
    const texts = ['The waiter was rude.', 'Our server was impolite.', 'The tiramisu was divine.'];
    await encoder.ensure(texts);
    const [rude, impolite, tiramisu] = texts.map((t) => encoder.get(t));
    expect(rude).toHaveLength(512);
    expect(cosine(rude!, impolite!)).toBeGreaterThan(cosine(rude!, tiramisu!) + 0.1);
    const kept = Float32Array.from(rude!);
    encoder.clear();
    expect(encoder.size).toBe(0);
    await encoder.ensure(['The waiter was rude.']);
    expect(encoder.get('The waiter was rude.')).toEqual(kept);
  });

  it('gives the empty text (which the encoder itself cannot take) the zero vector', async () => {
    await encoder.ensure(['']);
    expect(encoder.get('')).toEqual(new Float32Array(512));
  });

  it('refuses a text that was not prepared', () => {
    expect(() => encoder.get('never encoded')).toThrow(/ensureEmbeddings/);
  });

  it('is the only encoder a model file may name', () => {
    expect(() => sharedSentenceEncoder('word2vec')).toThrow(/unknown sentence encoder/);
  });
});
