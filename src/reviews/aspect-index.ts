/**
 * What each review of a data version is about, as its insights analysed it: per aspect and
 * polarity, the positions (published order, ascending) of the reviews whose opinion on that
 * aspect is that polarity (the `combine()`d polarity that `/insights.json` counts in
 * `aspects[i][polarity]`). Made by the insights step in the build worker, with the insights
 * document, and handed to the service's thread in shared memory; the search's `aspect` and
 * `polarity` filters intersect these lists with the others.
 */
import { REVIEW_POLARITIES, type ReviewPolarity } from '../domain/aspects.js';
import { grow, sharedArray } from '../platform/arrays.js';
import { ServiceError } from '../platform/errors.js';
import { listAt, packLists, type PackedLists } from './packed.js';

/**
 * The lists of a version, in shared memory. Slot `a * 5 + p`: aspect `a` (its index in `aspects`;
 * `aspects.length` is "any aspect") and polarity `p` (its index in `REVIEW_POLARITIES`; 4 is "any
 * polarity").
 */
export interface AspectIndexData {
  readonly aspects: readonly string[];
  readonly lists: PackedLists;
}

const SLOTS_PER_ASPECT = REVIEW_POLARITIES.length + 1;
const ANY_POLARITY = REVIEW_POLARITIES.length;
const POLARITY_INDEX = new Map<string, number>(REVIEW_POLARITIES.map((p, i) => [p, i]));

/** One growing list of positions. */
interface Growing {
  values: Uint32Array;
  length: number;
}

/**
 * Collects the lists while the insights tally each review's aspects, in published order: `add`
 * must come for ascending positions (all the aspects of one review, then the next review's).
 */
export class AspectIndexBuilder {
  private readonly slots: Growing[];
  private readonly aspectIndex: Map<string, number>;

  constructor(readonly aspects: readonly string[]) {
    this.aspectIndex = new Map(aspects.map((id, i) => [id, i]));
    this.slots = Array.from({ length: (aspects.length + 1) * SLOTS_PER_ASPECT }, () => ({
      values: new Uint32Array(16),
      length: 0,
    }));
  }

  /** The review at `position` speaks of `aspect` with `polarity` (once per review and aspect). */
  add(position: number, aspect: string, polarity: ReviewPolarity): void {
    const a = this.aspectIndex.get(aspect);
    const p = POLARITY_INDEX.get(polarity);
    if (a === undefined || p === undefined) return;
    const any = this.aspects.length * SLOTS_PER_ASPECT;
    this.push(a * SLOTS_PER_ASPECT + p, position);
    this.push(a * SLOTS_PER_ASPECT + ANY_POLARITY, position);
    this.push(any + p, position);
    this.push(any + ANY_POLARITY, position);
  }

  /** Appends `position` unless the list ends with it (a review counted once per list). */
  private push(slot: number, position: number): void {
    const list = this.slots[slot]!;
    if (list.length > 0 && list.values[list.length - 1] === position) return;
    if (list.length > 0 && list.values[list.length - 1]! > position) {
      throw new Error('aspect positions must come in published order');
    }
    list.values = grow(list.values, list.length + 1);
    list.values[list.length++] = position;
  }

  /** The lists, packed in shared memory. */
  finish(): AspectIndexData {
    return {
      aspects: [...this.aspects],
      lists: packLists(this.slots.map((s) => s.values.subarray(0, s.length))),
    };
  }
}

const EMPTY = sharedArray(Uint32Array, 0);

/** Lookups over a version's `AspectIndexData` (on the service's thread). */
export class AspectIndex {
  private readonly aspectIndex: Map<string, number>;

  constructor(readonly data: AspectIndexData) {
    this.aspectIndex = new Map(data.aspects.map((id, i) => [id, i]));
  }

  /**
   * Positions (ascending) of the reviews with `polarity` on `aspect`: any polarity when it is
   * undefined, on any aspect when `aspect` is.
   */
  list(aspect: string | undefined, polarity: ReviewPolarity | undefined): Uint32Array {
    const a = aspect === undefined ? this.data.aspects.length : this.aspectIndex.get(aspect);
    if (a === undefined) return EMPTY;
    const p = polarity === undefined ? ANY_POLARITY : POLARITY_INDEX.get(polarity)!;
    return listAt(this.data.lists, a * SLOTS_PER_ASPECT + p);
  }
}

/** Seconds a client waits before asking again while a version's analysis is computed. */
export const INSIGHTS_PENDING_RETRY_SECONDS = 5;

/**
 * The 503 of a search by `aspect` or `polarity` while the insights of the data version served are
 * still being computed (a few seconds after a change): the previous version's analysis would
 * answer for other reviews, so none is used.
 */
export function insightsPending(): ServiceError {
  return new ServiceError(
    'insights_pending',
    'The analysis of the current data version (what each review is about) is still being computed; aspect and polarity filters answer once it is. Retry shortly.',
    { status: 503, headers: { 'Retry-After': String(INSIGHTS_PENDING_RETRY_SECONDS) } },
  );
}
