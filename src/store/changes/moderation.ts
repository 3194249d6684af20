import type { ModerationRecord } from '../moderation/types.js';
import type { ChangeEntry } from './types.js';

/**
 * The change feed's entry of a moderation decision about a stored review: a hide is a removal
 * (reason `hidden`; never the operator's own reason, which may be private), an unhide an upsert.
 */
export function moderationChange(r: ModerationRecord): ChangeEntry {
  return r.action === 'hide'
    ? { id: r.reviewId, removedAt: r.at, reason: 'hidden' }
    : { id: r.reviewId, removedAt: null, reason: null };
}
