import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressRepresentation, prepareRepresentation } from './index.js';

const json = (n: number) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({ i, text: `review number ${i} says hello` })),
  );

describe('prepared representations', () => {
  it('compress documents up to 4 MiB before they go live', async () => {
    const rep = await precompressRepresentation(json(1000), {
      contentType: 'application/json',
      lastModifiedMs: 0,
    });
    expect(gunzipSync(rep.encoded('gzip')!).equals(rep.body)).toBe(true);
    expect(brotliDecompressSync(rep.encoded('br')!).equals(rep.body)).toBe(true);
  });

  it('let larger documents go live at once, serving identity until the codings are ready', async () => {
    const rep = await precompressRepresentation(json(120_000), {
      contentType: 'application/json',
      lastModifiedMs: 0,
    });
    expect(rep.body.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(rep.encoded('br')).toBeNull();
    expect(rep.encoded('gzip')).toBeNull();
    for (let i = 0; i < 600 && (!rep.encoded('br') || !rep.encoded('gzip')); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(brotliDecompressSync(rep.encoded('br')!).equals(rep.body)).toBe(true);
    expect(gunzipSync(rep.encoded('gzip')!).equals(rep.body)).toBe(true);
  });

  it('never compress tiny bodies, and give a strong tag from the bytes', () => {
    const a = prepareRepresentation('{"a":1}', {
      contentType: 'application/json',
      lastModifiedMs: 0,
    });
    const b = prepareRepresentation('{"a":1}', {
      contentType: 'application/json',
      lastModifiedMs: 5,
    });
    expect(a.encoded('gzip')).toBeNull();
    expect(a.etag).toBe(b.etag);
    expect(a.etag).toMatch(/^"[\w-]+"$/);
  });
});
