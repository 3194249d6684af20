import { describe, expect, it } from 'vitest';
import { ByteCodes, grow, sharedArray, sharedBytes, toShared } from './arrays.js';

describe('arrays', () => {
  it('makes zeroed arrays and buffers in shared memory of their own', () => {
    const a = sharedArray(Float64Array, 3);
    expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...a]).toEqual([0, 0, 0]);
    const b = sharedBytes(5);
    expect(b.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(b.buffer.byteLength).toBe(5);
  });

  it('copies into shared memory only what is not a whole shared buffer already', () => {
    const whole = sharedArray(Uint32Array, 4);
    expect(toShared(whole)).toBe(whole);
    const part = whole.subarray(1, 3);
    part.set([7, 9]);
    const copy = toShared(part);
    expect(copy).not.toBe(part);
    expect(copy.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...copy]).toEqual([7, 9]);
    // A Node Buffer becomes a plain Uint8Array (`new Buffer` is deprecated).
    const bytes = toShared(Buffer.from('héllo'));
    expect(bytes.constructor).toBe(Uint8Array);
    expect(Buffer.from(bytes).toString()).toBe('héllo');
  });

  it('grows a column to at least twice its length, in the same kind of memory', () => {
    const plain = Int32Array.of(1, 2);
    expect(grow(plain, 2)).toBe(plain);
    const grown = grow(plain, 3);
    expect(grown.length).toBe(4);
    expect([...grown]).toEqual([1, 2, 0, 0]);
    expect(grown.buffer).toBeInstanceOf(ArrayBuffer);
    expect(grow(plain, 9).length).toBe(9);
    const shared = grow(sharedArray(Uint8Array, 2), 3);
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('gives each value a byte code in order of first use, up to 256 values', () => {
    const codes = new ByteCodes();
    expect([codes.code('b'), codes.code('a'), codes.code('b')]).toEqual([0, 1, 0]);
    expect(codes.list).toEqual(['b', 'a']);
    for (let i = 2; i < 256; i++) codes.code(`v${i}`);
    expect(codes.code('v255')).toBe(255);
    expect(() => codes.code('one too many')).toThrow(RangeError);
  });
});
