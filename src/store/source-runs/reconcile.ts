/**
 * `SourceRunStore.reconcile`, written once for both engines: the SQL (`param` names a
 * parameter in the engine's form) and the decision from what it reads. Each engine runs it in
 * one write transaction.
 */
import type { ChangeEntry } from '../changes/types.js';
import type { ModerationRecord } from '../moderation/types.js';
import type { Param } from './statements.js';
import {
  LISTED_AGAIN,
  REMOVED_AT_SOURCE,
  sourceActor,
  type Reconciled,
  type SourceListing,
} from './types.js';

/** The published reviews the source brought in (the candidates of a full pass's removals). */
export const PUBLISHED_MEMBERS = (p: Param): string => `
  SELECT s.review_id FROM source_reviews s JOIN reviews r ON r.id = s.review_id
  WHERE s.source_name = ${p('name')}
    AND s.review_id NOT IN (SELECT review_id FROM hidden_reviews)`;

/** The stored reviews the source removed (lifted when it lists them again). */
export const HIDDEN_BY_SOURCE = (p: Param): string => `
  SELECT h.review_id FROM hidden_reviews h JOIN reviews r ON r.id = h.review_id
  WHERE h.hidden_by = ${p('name')}`;

export const FORGET_MEMBERS = (p: Param): string =>
  `DELETE FROM source_reviews WHERE source_name = ${p('name')}`;

export const HIDE = (p: Param): string => `
  INSERT INTO hidden_reviews (review_id, hidden_at, hidden_by)
  VALUES (${p('id')}, ${p('at')}, ${p('name')})`;

export const UNHIDE = (p: Param): string =>
  `DELETE FROM hidden_reviews WHERE review_id = ${p('id')} AND hidden_by = ${p('name')}`;

/** What a run changes, decided from what the transaction read. */
export interface Decision extends Omit<Reconciled, 'state'> {
  /** The moderation log's entries, the change feed's, in the order they are recorded. */
  log: ModerationRecord[];
  feed: ChangeEntry[];
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A full pass removes the published reviews the source brought in that it no longer lists; any
 * run publishes again the reviews it removed that it lists again.
 */
export function decide(
  name: string,
  listing: SourceListing,
  read: { published: readonly string[]; hidden: readonly string[] },
): Decision {
  const removed = listing.full ? read.published.filter((id) => !listing.ids.has(id)) : [];
  const restored = read.hidden.filter((id) => listing.ids.has(id));
  removed.sort(byId);
  restored.sort(byId);
  const actor = sourceActor(name);
  const at = listing.at;
  const entry = (reviewId: string, action: 'hide' | 'unhide'): ModerationRecord => ({
    reviewId,
    action,
    reason: action === 'hide' ? REMOVED_AT_SOURCE : LISTED_AGAIN,
    actor,
    at,
  });
  return {
    removed,
    restored,
    log: [...removed.map((id) => entry(id, 'hide')), ...restored.map((id) => entry(id, 'unhide'))],
    feed: [
      ...restored.map((id) => ({ id, removedAt: null, reason: null })),
      ...removed.map((id) => ({ id, removedAt: at, reason: 'deleted' as const })),
    ],
  };
}
