import { DOCUMENTS } from '../../catalogue.js';
import type { Insights } from '../../insights/index.js';
import type { Published, Snapshot } from '../../snapshot/types.js';
import { renderEmbed } from './embed.js';
import type { PageHeaders } from './headers.js';
import { renderHome } from './home.js';
import { renderInsightsPage } from './insights-page.js';
import type { Site } from './layout.js';
import { renderOnce, type Rendered, type Rendering } from './render-cache.js';
import { renderSitemap, renderSitemapIndex } from './sitemap.js';

/**
 * The pages of every visit, rendered once per data version (`renderOnce`): `/` (first page, no
 * filter), `/insights`, `/embed`, the sitemap index and its files; and their warming as a version
 * goes live, so that no visitor waits for them.
 */
export interface VersionPages {
  /** `/`: the first page of all reviews. */
  home(snap: Snapshot): Rendered;
  /** `/insights`; `null` while the version's insights are not ready. */
  insights(snap: Snapshot): Rendered | null;
  embed(snap: Snapshot): Rendered;
  sitemapIndex(snap: Snapshot): Rendered;
  /** Sitemap file `n` (from 1, at most `sitemapCount`): rendered on its first request. */
  sitemap(snap: Snapshot, n: number): Rendered;
}

/** The `Last-Modified` of a version's pages: when its data changed. */
export function changedMs(snap: Snapshot): number {
  return Date.parse(snap.state.changedAt);
}

function xml(body: string, snap: Snapshot): Rendering {
  return {
    body,
    lastModifiedMs: changedMs(snap),
    headers: {},
    contentType: 'application/xml; charset=utf-8',
  };
}

/** The language of a quoted review of `snap`, by its id (`null`: not published any more). */
function languageOf(snap: Snapshot): (id: string) => string | null {
  return (id) => {
    const pos = snap.index.positionOf(id);
    return pos < 0 ? null : snap.review(pos).inLanguage;
  };
}

function insightsPage(site: Site, headers: PageHeaders, snap: Snapshot): Rendered | null {
  const doc = snap.representations.get(DOCUMENTS.insights.path);
  const parsed = snap.parsed<Insights>(DOCUMENTS.insights.path);
  if (!doc || !parsed) return null;
  return renderOnce(snap, 'insights', () => {
    return {
      body: renderInsightsPage(site, snap.business, snap.aggregate, parsed, languageOf(snap)),
      lastModifiedMs: doc.lastModifiedMs,
      headers: headers.page,
    };
  });
}

/** The pages rendered once per version, for `site` with the pages' `headers`. */
export function versionPages(site: Site, headers: PageHeaders): VersionPages {
  return {
    home: (snap) =>
      renderOnce(snap, 'home', () => ({
        body: renderHome(site, snap, {}),
        lastModifiedMs: changedMs(snap),
        headers: headers.page,
      })),
    insights: (snap) => insightsPage(site, headers, snap),
    embed: (snap) =>
      renderOnce(snap, 'embed', () => ({
        body: renderEmbed(site, snap),
        lastModifiedMs: changedMs(snap),
        headers: headers.embed,
      })),
    sitemapIndex: (snap) =>
      renderOnce(snap, 'sitemap', () => xml(renderSitemapIndex(site, snap), snap)),
    sitemap: (snap, n) =>
      renderOnce(snap, `sitemap:${n}`, () => xml(renderSitemap(site, snap, n)!, snap)),
  };
}

/**
 * Renders each new version's pages as it goes live, one page per turn of the event loop (a few ms
 * each at 100,000 reviews) and not in the publisher's announcement, so that no visitor waits for
 * them and no request waits long behind them. Each page is compressed before the next is
 * rendered: all at once, their codings took up to four threads of the pool, and the event loop
 * waited for a core (stalls of 50 to 80 ms as a 100,000-review version went live on 2 cores).
 */
export function warmPages(published: Published, pages: VersionPages): void {
  const warm = async (snap: Snapshot) => {
    for (const step of [pages.home, pages.insights, pages.embed]) {
      await new Promise((resolve) => setImmediate(resolve));
      if (published.current() !== snap) return;
      try {
        await step(snap);
      } catch {
        // Warming is best effort: a page that cannot render here fails again, answered and
        // logged by the router, when it is asked for.
        return;
      }
    }
  };
  void warm(published.current());
  published.onChange((event) => void warm(event.snapshot));
}
