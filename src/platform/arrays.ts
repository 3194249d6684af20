/**
 * Typed arrays as the builds use them: columns that grow, byte codes for a few repeated strings,
 * and arrays in shared memory.
 *
 * What a data version hands to the service's thread lives in `SharedArrayBuffer`s: posting one
 * shares it. V8 counts a transferred `ArrayBuffer` as the receiving thread's external memory, and
 * about 50 MB of them arriving at once set off a full collection on the service's event loop as
 * each version went live (9–20 ms of work, 93 ms once when the thread then waited for a core). A
 * shared buffer is not counted there (see docs/architecture.md).
 */

export type Column =
  Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

interface ColumnType<T extends Column> {
  readonly BYTES_PER_ELEMENT: number;
  new (buffer: ArrayBufferLike): T;
}

/** A zeroed array of `length` entries in a `SharedArrayBuffer` of its own. */
export function sharedArray<T extends Column>(type: ColumnType<T>, length: number): T {
  return new type(new SharedArrayBuffer(length * type.BYTES_PER_ELEMENT));
}

/** A zeroed Node buffer of `size` bytes over a `SharedArrayBuffer` of its own. */
export function sharedBytes(size: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(size));
}

/** What a copy of a `T` is: a `T`, but a plain `Uint8Array` for a Node `Buffer`. */
type Copy<T extends Column> = T extends Uint8Array ? Uint8Array : T;

/** The kind of array of `array`; a Node `Buffer` is a `Uint8Array` (`new Buffer` is deprecated). */
function typeOf<T extends Column>(array: T): ColumnType<T> {
  return (array instanceof Uint8Array ? Uint8Array : array.constructor) as ColumnType<T>;
}

/**
 * `array` in shared memory: itself when it is a whole `SharedArrayBuffer`, else a copy in one (a
 * plain `Uint8Array` for a Node `Buffer`).
 */
export function toShared<T extends Column>(array: T): Copy<T> {
  type Out = Copy<T>;
  const { buffer } = array;
  if (
    buffer instanceof SharedArrayBuffer &&
    array.byteOffset === 0 &&
    array.byteLength === buffer.byteLength
  )
    return array as Out;
  const copy = sharedArray(typeOf(array), array.length);
  copy.set(array as ArrayLike<number>);
  return copy as Out;
}

/**
 * `column` with room for `size` entries: itself if it has them, else a copy of it at least twice
 * as long (in the same kind of memory; not for a Node `Buffer`).
 */
export function grow<T extends Column>(column: T, size: number): T {
  if (size <= column.length) return column;
  const type = column.constructor as ColumnType<T>;
  const length = Math.max(size, column.length * 2);
  const grown =
    column.buffer instanceof SharedArrayBuffer
      ? sharedArray(type, length)
      : new type(new ArrayBuffer(length * type.BYTES_PER_ELEMENT));
  grown.set(column as ArrayLike<number>);
  return grown;
}

/**
 * Byte codes for a few repeated strings (aspect categories, polarities, departments, sources):
 * the code of a value is its index in `list`, in order of first use. Throws past 256 values.
 */
export class ByteCodes<T extends string = string> {
  readonly list: T[] = [];
  private readonly ids = new Map<T, number>();

  code(value: T): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.list.length;
      if (id > 255) throw new RangeError('more than 256 distinct values for byte codes');
      this.list.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
}
