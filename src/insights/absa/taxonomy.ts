import { DEALERSHIP_ASPECTS } from '../../domain/aspects.js';
import type { AspectCategory } from './types.js';

/** SemEval-2014 Task 4 restaurant categories (dataset ids). */
export const SEMEVAL14_CATEGORIES: AspectCategory[] = [
  { id: 'food', name: 'Food' },
  { id: 'service', name: 'Service' },
  { id: 'price', name: 'Price' },
  { id: 'ambience', name: 'Ambience' },
  { id: 'anecdotes/miscellaneous', name: 'Anecdotes / miscellaneous' },
];

/** MAMS-ACSA categories (dataset ids). */
export const MAMS_CATEGORIES: AspectCategory[] = [
  { id: 'food', name: 'Food' },
  { id: 'service', name: 'Service' },
  { id: 'staff', name: 'Staff' },
  { id: 'price', name: 'Price' },
  { id: 'ambience', name: 'Ambience' },
  { id: 'menu', name: 'Menu' },
  { id: 'place', name: 'Place' },
  { id: 'miscellaneous', name: 'Miscellaneous' },
];

/**
 * The dealership taxonomy used by the insights engine (`src/domain/aspects.ts`: the search's
 * `aspect` filter reads the same list). Ids are stable API values; names are for display.
 * `overall` holds sentences about the whole visit or a recommendation with no narrower aspect
 * (the dealership analogue of SemEval's anecdotes/miscellaneous).
 */
export const DEALERSHIP_CATEGORIES: AspectCategory[] = DEALERSHIP_ASPECTS.map(({ id, name }) => ({
  id,
  name,
}));
