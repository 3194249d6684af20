import { describe, expect, it } from 'vitest';
import { decodeChangeCursor, encodeChangeCursor } from './change-cursor.js';
import { ChangeIndex, ChangeIndexBuilder } from './change-index.js';

const EPOCH = '0123456789abcdef';

/** A feed of reviews at positions 0..3 with seqs 7, 2, 9, 4 and removals at 3 and 8. */
function index(): ChangeIndex {
  const b = new ChangeIndexBuilder({ epoch: EPOCH, lastSeq: 9 }, 4);
  for (const seq of [7, 2, 9, 4]) b.add(seq);
  b.removal({ seq: 3, id: 'x', removedAt: '2025-01-01T00:00:00.000Z', reason: 'deleted' });
  b.removal({ seq: 8, id: 'y', removedAt: '2025-01-02T00:00:00.000Z', reason: 'hidden' });
  return new ChangeIndex(b.finish());
}

describe('the change index', () => {
  it('merges the reviews, ordered by sequence number, with the tombstones', () => {
    const idx = index();
    expect(Array.from(idx.data.seqs)).toEqual([2, 3, 4, 7, 8, 9]);
    expect(Array.from(idx.data.refs)).toEqual([1, -1, 3, 0, -2, 2]);
    expect(idx.removal(4)).toEqual({
      seq: 8,
      type: 'removal',
      id: 'y',
      removedAt: '2025-01-02T00:00:00.000Z',
      reason: 'hidden',
    });
    const page = idx.write(0, 3, (pos) => Buffer.from(`{"id":"r${pos}"}`), '[', ']');
    expect(JSON.parse(page.toString())).toEqual([
      { seq: 2, type: 'upsert', review: { id: 'r1' } },
      {
        seq: 3,
        type: 'removal',
        id: 'x',
        removedAt: '2025-01-01T00:00:00.000Z',
        reason: 'deleted',
      },
      { seq: 4, type: 'upsert', review: { id: 'r3' } },
    ]);
    expect(idx.write(2, 2, () => Buffer.alloc(0), '{', '}').toString()).toBe('{}');
  });

  it('pages after a sequence number, and past the end answers an empty page at the same place', () => {
    const idx = index();
    expect(idx.page(0, 2)).toEqual({ start: 0, end: 2, more: true, next: 3 });
    expect(idx.page(3, 10)).toEqual({ start: 2, end: 6, more: false, next: 9 });
    expect(idx.page(5, 2)).toEqual({ start: 3, end: 5, more: true, next: 8 });
    expect(idx.page(9, 5)).toEqual({ start: 6, end: 6, more: false, next: 9 });
    expect(idx.page(12, 5)).toEqual({ start: 6, end: 6, more: false, next: 12 });
  });

  it("reads its own cursors, and tells another store's and malformed ones apart", () => {
    const idx = index();
    expect(idx.resume(undefined)).toBe(0);
    expect(idx.resume(idx.cursor(8))).toBe(8);
    expect(idx.resume(encodeChangeCursor('fedcba9876543210', 8))).toBeNull();
    expect(decodeChangeCursor(encodeChangeCursor('fedcba9876543210', 8))).toEqual({
      epoch: 'fedcba9876543210',
      seq: 8,
    });
    for (const bad of [
      '',
      'x',
      'not a cursor',
      Buffer.from(`${EPOCH}:01`).toString('base64url'),
      Buffer.from(`${EPOCH}:-1`).toString('base64url'),
    ]) {
      expect(decodeChangeCursor(bad), bad).toBeNull();
    }
  });
});
