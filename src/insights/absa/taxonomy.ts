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
 * The dealership taxonomy used by the insights engine. Ids are stable API values; names are for
 * display. `overall` holds sentences about the whole visit or a recommendation with no narrower
 * aspect (the dealership analogue of SemEval's anecdotes/miscellaneous).
 */
export const DEALERSHIP_CATEGORIES: AspectCategory[] = [
  { id: 'staff-communication', name: 'Staff and communication' },
  { id: 'wait-time', name: 'Wait time' },
  { id: 'price-value', name: 'Price and value' },
  { id: 'quality-of-work', name: 'Quality of work' },
  { id: 'vehicle-cleanliness', name: 'Vehicle cleanliness' },
  { id: 'facility-amenities', name: 'Facility and amenities' },
  { id: 'scheduling', name: 'Scheduling' },
  { id: 'follow-up', name: 'Follow-up' },
  { id: 'sales-experience', name: 'Sales experience' },
  { id: 'financing', name: 'Financing' },
  { id: 'honesty-trust', name: 'Honesty and trust' },
  { id: 'overall', name: 'Overall experience' },
];
