/**
 * The change feed of one data version, as the build makes it and the service slices it: every
 * entry of the store's feed (a published review at the sequence number of its latest change, or
 * a tombstone) in sequence order, as typed arrays in shared memory (`platform/arrays`): upserts
 * point at the review's position (its bytes are those of `/reviews.json`), removals at their JSON
 * text.
 */
import { sharedArray } from '../platform/arrays.js';
import { decodeChangeCursor, encodeChangeCursor } from './change-cursor.js';
import { bytesAt, packStrings, type PackedStrings } from './packed.js';

const decoder = new TextDecoder();

/** A tombstone as the store reads it. */
export interface RemovalEntry {
  readonly seq: number;
  readonly id: string;
  readonly removedAt: string;
  readonly reason: string;
}

/** The feed of a data version in compact form (built in the build worker, shared). */
export interface ChangeIndexData {
  /** The store's epoch (the cursors' store) and the last sequence number of this version. */
  readonly epoch: string;
  readonly lastSeq: number;
  /** Each entry's sequence number, ascending. */
  readonly seqs: Float64Array;
  /** Entry `i`: a position in published order when `>= 0`, else removal `-1 - refs[i]`. */
  readonly refs: Int32Array;
  /** Each removal's JSON text, as the feed carries it, in sequence order. */
  readonly removals: PackedStrings;
}

/** The JSON of a removal entry, as the feed carries it. */
export function removalJson(r: RemovalEntry): string {
  return JSON.stringify({
    seq: r.seq,
    type: 'removal',
    id: r.id,
    removedAt: r.removedAt,
    reason: r.reason,
  });
}

/** Collects a version's feed while its reviews are read (published order, then tombstones). */
export class ChangeIndexBuilder {
  private readonly seqs: Float64Array;
  private count = 0;
  private readonly removalSeqs: number[] = [];
  private readonly removalTexts: string[] = [];

  constructor(
    private readonly feed: { readonly epoch: string; readonly lastSeq: number },
    size: number,
  ) {
    this.seqs = new Float64Array(size);
  }

  /** The next review in published order, at the sequence number of its latest change. */
  add(seq: number): void {
    this.seqs[this.count++] = seq;
  }

  /** The next tombstone, in sequence order. */
  removal(r: RemovalEntry): void {
    this.removalSeqs.push(r.seq);
    this.removalTexts.push(removalJson(r));
  }

  /** Merges the reviews (ordered by sequence number) with the tombstones. */
  finish(): ChangeIndexData {
    const { seqs: bySeq, count, removalSeqs } = this;
    const order = new Uint32Array(count);
    for (let i = 0; i < count; i++) order[i] = i;
    order.sort((a, b) => bySeq[a]! - bySeq[b]!);
    const total = count + removalSeqs.length;
    const seqs = sharedArray(Float64Array, total);
    const refs = sharedArray(Int32Array, total);
    let r = 0;
    let p = 0;
    for (let i = 0; i < total; i++) {
      if (p < count && (r >= removalSeqs.length || bySeq[order[p]!]! < removalSeqs[r]!)) {
        seqs[i] = bySeq[order[p]!]!;
        refs[i] = order[p++]!;
      } else {
        seqs[i] = removalSeqs[r]!;
        refs[i] = -1 - r++;
      }
    }
    const { epoch, lastSeq } = this.feed;
    return { epoch, lastSeq, seqs, refs, removals: packStrings(this.removalTexts) };
  }
}

/** The JSON of an upsert entry up to the review (ASCII). */
const upsertHead = (seq: number): string => `{"seq":${seq},"type":"upsert","review":`;

/** A page of the feed: entries `start` to `end`, and the sequence number the next one follows. */
export interface ChangePage {
  readonly start: number;
  readonly end: number;
  readonly next: number;
  readonly more: boolean;
}

/** The feed of one data version, over its compact data. */
export class ChangeIndex {
  constructor(readonly data: ChangeIndexData) {}

  get size(): number {
    return this.data.seqs.length;
  }

  /**
   * The sequence number a cursor resumes after: 0 without one (the feed's beginning), `null` for
   * a cursor that is not one of this store's feed (malformed, or of another epoch).
   */
  resume(cursor: string | undefined): number | null {
    if (cursor === undefined) return 0;
    const decoded = decodeChangeCursor(cursor);
    return decoded?.epoch === this.data.epoch ? decoded.seq : null;
  }

  /** The cursor that resumes after sequence number `seq`. */
  cursor(seq: number): string {
    return encodeChangeCursor(this.data.epoch, seq);
  }

  /** Whether entry `i` is a removal. */
  isRemoval(i: number): boolean {
    return this.data.refs[i]! < 0;
  }

  /** The position in published order of the review of upsert entry `i`. */
  position(i: number): number {
    return this.data.refs[i]!;
  }

  seq(i: number): number {
    return this.data.seqs[i]!;
  }

  /** Removal entry `i`, parsed. */
  removal(i: number): RemovalEntry & { type: 'removal' } {
    const text = bytesAt(this.data.removals, -1 - this.data.refs[i]!);
    return JSON.parse(decoder.decode(text)) as RemovalEntry & { type: 'removal' };
  }

  /**
   * At most `limit` entries after sequence number `after`. Without more, the next page follows
   * the last sequence number of this version (or `after`, when it is beyond: a cursor from an
   * instance that is ahead of this one).
   */
  page(after: number, limit: number): ChangePage {
    const { seqs, lastSeq } = this.data;
    let lo = 0;
    let hi = seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (seqs[mid]! <= after) lo = mid + 1;
      else hi = mid;
    }
    const end = Math.min(seqs.length, lo + limit);
    const more = end < seqs.length;
    return { start: lo, end, more, next: more ? seqs[end - 1]! : Math.max(after, lastSeq) };
  }

  /**
   * `open`, the JSON of entries `start` to `end` separated by commas, and `close`, in one buffer
   * of the exact size: a removal's text, or an upsert's head, the review's bytes from `fragment`
   * (those of `/reviews.json`, copied once) and `}`.
   */
  write(
    start: number,
    end: number,
    fragment: (pos: number) => Uint8Array,
    open: string,
    close: string,
  ): Buffer {
    const { refs, seqs, removals } = this.data;
    let size = Buffer.byteLength(open) + Buffer.byteLength(close) + Math.max(0, end - start - 1);
    for (let i = start; i < end; i++) {
      const ref = refs[i]!;
      size +=
        ref < 0
          ? removals.offsets[-ref]! - removals.offsets[-1 - ref]!
          : upsertHead(seqs[i]!).length + fragment(ref).length + 1;
    }
    const out = Buffer.allocUnsafe(size);
    let at = out.write(open, 0, 'latin1');
    for (let i = start; i < end; i++) {
      if (i > start) out[at++] = 0x2c; // ','
      const ref = refs[i]!;
      if (ref < 0) {
        const text = bytesAt(removals, -1 - ref);
        out.set(text, at);
        at += text.length;
        continue;
      }
      at += out.write(upsertHead(seqs[i]!), at, 'latin1');
      const review = fragment(ref);
      out.set(review, at);
      at += review.length;
      out[at++] = 0x7d; // '}'
    }
    at += out.write(close, at, 'latin1');
    if (at !== size) throw new Error(`ChangeIndex.write wrote ${at} of ${size} bytes`);
    return out;
  }
}
