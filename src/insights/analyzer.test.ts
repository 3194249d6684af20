import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/index.js';
import { cachedAnalyzer, type AnalysisPersistence } from './analyzer.js';

describe('cachedAnalyzer', () => {
  it('analyses each text once across versions, and forgets texts no longer published', () => {
    const seen: string[] = [];
    const analyze = cachedAnalyzer((text) => {
      seen.push(text);
      return { sentences: [{ start: 0, end: text.length, aspects: [] }] };
    });
    analyze('a');
    analyze('b');
    analyze('a');
    expect(seen).toEqual(['a', 'b']);
    // No more entries than texts: nothing is dropped (the cache stays bounded by the texts).
    analyze.retain(['b', 'c']);
    expect(analyze.size).toBe(2);
    analyze.retain(['b']);
    expect(analyze.size).toBe(1);
    analyze('b');
    analyze('c');
    analyze('a');
    expect(seen).toEqual(['a', 'b', 'c', 'a']);
  });

  it('hands a cached analysis over once (take), and analyses an uncached text without keeping it', () => {
    const seen: string[] = [];
    const analyze = cachedAnalyzer((text) => {
      seen.push(text);
      return { sentences: [{ start: 0, end: text.length, aspects: [] }] };
    });
    const cached = analyze('a');
    expect(analyze.take('a')).toBe(cached);
    expect(analyze.size).toBe(0);
    expect(analyze.take('b').sentences[0]!.end).toBe(1);
    expect(analyze.size).toBe(0);
    expect(seen).toEqual(['a', 'b']);
  });

  it('warms the cache in slices, yielding to the event loop between them', async () => {
    const seen: string[] = [];
    const analyze = cachedAnalyzer((text) => {
      seen.push(text);
      return { sentences: [] };
    });
    analyze('a');
    let turns = 0;
    const tick = (): void => {
      turns++;
      if (turns < 100) setImmediate(tick);
    };
    setImmediate(tick);
    // A zero-length slice yields after every analysed text.
    expect(await analyze.warm(['a', 'b', 'c', 'b', 'd'], 0)).toBe(3);
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    expect(turns).toBeGreaterThanOrEqual(2);
    analyze('d');
    expect(seen).toHaveLength(4);
  });
});

describe('cachedAnalyzer with persistence (a real SQLite store)', () => {
  const persistence = (store: Store, errors: unknown[] = []): AnalysisPersistence => ({
    store: store.analyses,
    key: (text) => `v1:${text}`,
    onError: (err) => errors.push(err),
  });
  const analysis = (text: string) => ({
    sentences: [
      {
        start: 0,
        end: text.length,
        aspects: [{ category: 'wait-time', polarity: 'negative' as const, confidence: 0.5 }],
      },
    ],
  });

  it('stores what it analyses, so a new process analyses only texts never seen', async () => {
    const store = openStore('sqlite::memory:');
    const first: string[] = [];
    const a = cachedAnalyzer((t) => (first.push(t), analysis(t)), persistence(store));
    expect(await a.warm(['a', 'bb', 'a'])).toBe(2);
    expect(await store.analyses.count()).toBe(2);

    // A fresh cache over the same store: the stored texts are read, only the new one is analysed.
    const second: string[] = [];
    const b = cachedAnalyzer((t) => (second.push(t), analysis(t)), persistence(store));
    expect(await b.warm(['a', 'bb', 'ccc'])).toBe(1);
    expect(second).toEqual(['ccc']);
    expect(b('bb')).toEqual(analysis('bb'));
    expect(await store.analyses.count()).toBe(3);

    // Texts no longer published are deleted from the store.
    expect(await b.prune(['bb', 'ccc'])).toBe(1);
    expect([...(await store.analyses.get(['v1:a', 'v1:bb', 'v1:ccc'])).keys()]).toEqual([
      'v1:bb',
      'v1:ccc',
    ]);
    expect(await b.prune(['bb', 'ccc'])).toBe(0);
    await store.close();
  });

  it('writes long analyses in chunks, and reports a failing store once per warm-up', async () => {
    const texts = Array.from({ length: 4_500 }, (_, i) => `text ${i}`);
    const store = openStore('sqlite::memory:');
    const a = cachedAnalyzer(analysis, persistence(store));
    expect(await a.warm(texts)).toBe(texts.length);
    expect(await store.analyses.count()).toBe(texts.length);
    await store.close();

    const errors: unknown[] = [];
    const b = cachedAnalyzer(analysis, persistence(store, errors));
    expect(await b.warm(texts)).toBe(texts.length);
    // One failed read, one failed write; the later chunks are not attempted.
    expect(errors).toHaveLength(2);
  });

  it('analyses in memory when the store fails, and reports the failure', async () => {
    const store = openStore('sqlite::memory:');
    await store.close();
    const errors: unknown[] = [];
    const a = cachedAnalyzer(analysis, persistence(store, errors));
    expect(await a.warm(['a', 'b'])).toBe(2);
    expect(a('a')).toEqual(analysis('a'));
    expect(await a.prune(['a'])).toBe(0);
    // Reading, writing and pruning each failed once.
    expect(errors).toHaveLength(3);
    expect(String(errors[0])).toMatch(/not open/);
  });
});
