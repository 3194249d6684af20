import type { Snapshot } from '../snapshot/types.js';

/**
 * The server's `instructions` (sent with `initialize`): what the data is and which tool to start
 * with, written once per snapshot.
 */

const instructionCache = new WeakMap<Snapshot, string>();

export function instructions(snapshot: Snapshot): string {
  let text = instructionCache.get(snapshot);
  if (!text) {
    text = writeInstructions(snapshot);
    instructionCache.set(snapshot, text);
  }
  return text;
}

function writeInstructions(snapshot: Snapshot): string {
  const b = snapshot.business;
  const about = b
    ? `${b.name}, ${b.address.addressLocality}, ${b.address.addressRegion} (time zone ${b.timeZone})`
    : 'one business';
  return [
    `Read-only verified customer reviews of ${about}: ${snapshot.aggregate.ratingCount} ratings, average ${snapshot.aggregate.ratingValue ?? 'n/a'}/5.`,
    'Start with get_insights (an overview: summary, aspects with scores, significant changes, top staff) or search_reviews (filters combine with AND; dates are local YYYY-MM-DD; newest first, paged with nextCursor).',
    'list_staff and list_services give the staff and the service catalogue with mention counts; get_business gives the address, departments and the aggregate rating; get_rating_summary gives distributions by month, department or source; get_reviews_since pages through reviews since a date, oldest first; get_review fetches one review by id; get_changes follows every addition, edit and removal in commit order.',
    'Every tool is read-only. Quote reviews by id when you cite them.',
  ].join(' ');
}
