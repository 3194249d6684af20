import { describe, expect, it } from 'vitest';
import { workerUrl } from './rpc.js';

describe('workerUrl', () => {
  it('keeps a compiled module beside its caller', () => {
    const url = workerUrl('file:///app/dist/src/build/worker.js', './thread.js');
    expect(url.href).toBe('file:///app/dist/src/build/thread.js');
  });

  it('maps a TypeScript caller under src/ or tools/ to the compiled module in dist/', () => {
    expect(workerUrl('file:///app/src/build/worker.ts', './thread.js').href).toBe(
      'file:///app/dist/src/build/thread.js',
    );
    expect(workerUrl('file:///app/tools/absa/internal/cv-folds.ts', './cv-thread.js').href).toBe(
      'file:///app/dist/tools/absa/internal/cv-thread.js',
    );
  });
});
