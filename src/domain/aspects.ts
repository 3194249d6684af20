/**
 * The aspects a review can speak of, as `/insights.json` names them (`aspects[].id`): the
 * dealership taxonomy of the insights' model. Ids are stable API values (the search's `aspect`
 * filter takes them); names are for display. A record of the data, so that the search's schema
 * (`src/reviews`) and the insights (`src/insights`) read the one list.
 */
export const DEALERSHIP_ASPECTS = [
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
] as const;

export type AspectId = (typeof DEALERSHIP_ASPECTS)[number]['id'];

/** The aspect ids, in the taxonomy's order (that of `/insights.json` `aspects`). */
export const ASPECT_IDS = DEALERSHIP_ASPECTS.map((a) => a.id) as [AspectId, ...AspectId[]];

/**
 * A review's opinion on one aspect, from the polarities of its sentences about it: `mixed` when
 * it both praises and complains, `neutral` when it speaks of the aspect without either.
 */
export const REVIEW_POLARITIES = ['positive', 'negative', 'neutral', 'mixed'] as const;
export type ReviewPolarity = (typeof REVIEW_POLARITIES)[number];
