/**
 * `GET /api/reviews/changes`: a page of the change feed of the data version being served, cut from
 * its change index (built once per version) and the review bytes of `/reviews.json`, rendered
 * once per version and page and kept in the version's response cache.
 */
import { ServiceError } from '../platform/errors.js';
import { prepareRepresentation } from '../representation/index.js';
import { CURSOR_EXPIRED_MESSAGE } from '../reviews/change-cursor.js';
import type { ChangeIndex } from '../reviews/change-index.js';
import type { ChangesQuery } from '../reviews/changes-schema.js';
import type { Representation, Snapshot } from '../snapshot/types.js';

/** The 410 of a cursor of another store's feed. */
function cursorExpired(): ServiceError {
  return new ServiceError('cursor_expired', CURSOR_EXPIRED_MESSAGE, { status: 410 });
}

/**
 * The sequence number a request's changes follow: 0 without a cursor (the feed's beginning);
 * a cursor of another store (another epoch) is `cursor_expired`. The query schema has checked
 * that the cursor is well formed.
 */
function changesAfter(index: ChangeIndex, after: string | undefined): number {
  const seq = index.resume(after);
  if (seq === null) throw cursorExpired();
  return seq;
}

/** `{ changes, nextCursor, more }` of the changes after `after`, at most `limit`. */
function renderChanges(snapshot: Snapshot, after: number, limit: number): Buffer {
  const index = snapshot.changes;
  const page = index.page(after, limit);
  const next = index.cursor(page.next);
  return index.write(
    page.start,
    page.end,
    snapshot.fragments(),
    '{"changes":[',
    `],"nextCursor":"${next}","more":${page.more}}`,
  );
}

/** The prepared answer of a validated query, from the version's response cache when there. */
export function changesDocument(snapshot: Snapshot, query: ChangesQuery): Representation {
  const after = changesAfter(snapshot.changes, query.after);
  const key = `changes:${after}:${query.limit}`;
  const known = snapshot.responses.get(key);
  if (known) return known;
  const rep = prepareRepresentation(renderChanges(snapshot, after, query.limit), {
    contentType: 'application/json',
    lastModifiedMs: Date.parse(snapshot.state.changedAt),
  });
  snapshot.responses.set(key, rep);
  return rep;
}
