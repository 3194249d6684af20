import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFollowingCodings } from './codings.js';

describe('codings made a piece at a time', () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown): void => void unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', record);
  });
  afterEach(() => void process.off('unhandledRejection', record));

  /** Ten macrotask turns: the compressor's 'error' event and any rejection it leaves come first. */
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  // 6 MiB, over the 4 MiB above which a body is compressed a megabyte at a time.
  const body = randomBytes(6 * 1024 * 1024);

  it.each([
    ['at once', (abort: () => void) => abort()],
    ['after a piece', (abort: () => void) => setImmediate(abort)],
  ])(
    'rejects once aborted (%s), and leaves no rejection unhandled (a build stopped mid-way)',
    async (_when, schedule) => {
      const controller = new AbortController();
      const coding = makeFollowingCodings(body, controller.signal);
      schedule(() => controller.abort(new Error('a newer version is being built')));
      await expect(coding).rejects.toThrow();
      await settle();
      expect(unhandled).toEqual([]);
    },
  );

  it('still makes both codings when not aborted', async () => {
    const codings = await makeFollowingCodings(body, new AbortController().signal);
    // Random bytes do not compress: neither coding is kept, and both were made to the end.
    expect(codings).toEqual({ gzip: null, br: null });
    await settle();
    expect(unhandled).toEqual([]);
  });
});
