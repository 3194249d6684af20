import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GbpSettings } from '../../config.js';
import { importFetched } from '../import.js';
import type { ReviewSource, SourceContext, SourceResult } from '../types.js';
import { gbpClient, type GbpClient } from './client.js';
import { requestCap } from './http.js';
import { oauthClient } from './oauth.js';

/** The source's name in logs, `/healthz` and the store's lease. */
export const GBP_SOURCE = 'gbp';

type Item = Record<string, unknown>;

/** An item's `updateTime` in ms (its `createTime` when it has none); NaN when unreadable. */
const updatedAt = (item: Item): number =>
  Date.parse(String(item.updateTime ?? item.createTime ?? ''));

/**
 * The incremental stop rule, on one page listed newest update first: the items updated after
 * `since` (ms; null takes every item), and whether the listing stops here (an item not newer
 * than `since` was met: every one after it is older still). An unreadable time counts as newer
 * (the import then rejects the item with its reason).
 */
export function takeNewer(
  items: readonly Item[],
  since: number | null,
): { newer: Item[]; stop: boolean } {
  if (since === null) return { newer: [...items], stop: false };
  const at = items.findIndex((item) => updatedAt(item) <= since);
  return at === -1 ? { newer: [...items], stop: false } : { newer: items.slice(0, at), stop: true };
}

/** Whether this run is a full pass: asked for, never made, or older than `fullSyncMs`. */
export function isFullPass(ctx: SourceContext, fullSyncMs: number): boolean {
  const last = ctx.previous?.lastFullAt ?? null;
  return ctx.full || last === null || ctx.previous?.cursor == null || ctx.now - last >= fullSyncMs;
}

/** Lists the pages, following `nextPageToken`, until the stop rule or the last page. */
async function listReviews(client: GbpClient, since: number | null) {
  const items: Item[] = [];
  const reported: Item = {};
  let pageToken: string | undefined;
  let pages = 0;
  do {
    const page = await client.reviews(pageToken);
    pages++;
    if (pages === 1) {
      if (page.averageRating !== undefined) reported.averageRating = page.averageRating;
      if (page.totalReviewCount !== undefined) reported.totalReviewCount = page.totalReviewCount;
    }
    const { newer, stop } = takeNewer(page.reviews ?? [], since);
    items.push(...newer);
    if (stop) break;
    pageToken = page.nextPageToken || undefined;
  } while (pageToken !== undefined);
  return { items, reported, pages };
}

/** The newest `updateTime` among `items` (the next incremental run's cursor), or null. */
function newestOf(items: readonly Item[]): string | null {
  let newest: Item | null = null;
  for (const item of items) {
    const at = updatedAt(item);
    if (!Number.isNaN(at) && (newest === null || at > updatedAt(newest))) newest = item;
  }
  return newest === null ? null : new Date(updatedAt(newest)).toISOString();
}

/** Imports the listed items as one page of `reviews.list` (`src/import/formats/gbp.ts` maps it). */
async function importItems(
  ctx: SourceContext,
  listed: { items: Item[]; reported: Item },
  full: boolean,
  cursor: string | null,
): Promise<SourceResult> {
  const dir = await mkdtemp(join(tmpdir(), 'dealer-reviews-gbp-'));
  try {
    const path = join(dir, 'reviews.json');
    await writeFile(path, JSON.stringify({ reviews: listed.items, ...listed.reported }));
    return await importFetched(ctx, { path, format: 'gbp', complete: full, cursor });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Google Business Profile: every run lists the location's reviews, newest update first, and
 * imports them. Incremental runs stop at the first review not newer than the newest `updateTime`
 * already stored (the cursor); a full pass (every page) runs at least every `fullSyncMs` and on
 * `sync --full`, and removes the reviews it brought in that it no longer finds
 * (`importFetched`). The cap of 300 requests a minute and the access token last across its runs.
 */
export function gbpSource(settings: GbpSettings): ReviewSource {
  const cap = requestCap();
  const tokens = oauthClient(settings, cap);
  return {
    name: GBP_SOURCE,
    async run(ctx) {
      const full = isFullPass(ctx, settings.fullSyncMs);
      const since = full ? null : Date.parse(ctx.previous?.cursor ?? '');
      const client = gbpClient(settings, { cap, tokens, signal: ctx.signal });
      const listed = await listReviews(
        client,
        since === null || Number.isNaN(since) ? null : since,
      );
      ctx.logger.debug({ source: GBP_SOURCE, pages: listed.pages, full }, 'listed the reviews');
      const cursor = newestOf(listed.items) ?? ctx.previous?.cursor ?? null;
      return importItems(ctx, listed, full, cursor);
    },
  };
}
