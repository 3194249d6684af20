import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { ImportSummary } from '../../import/index.js';
import { importFetched } from '../import.js';
import type { ReviewSource, SourceContext, SourceResult } from '../types.js';
import type { GuardedClient } from './fetch.js';

/** What a URL source keeps between runs: the validators of the last export it imported. */
interface Validators {
  etag: string | null;
  lastModified: string | null;
}

function validatorsOf(cursor: string | null | undefined): Validators {
  try {
    const v = JSON.parse(cursor ?? 'null') as Partial<Validators> | null;
    const text = (x: unknown): string | null => (typeof x === 'string' ? x : null);
    return { etag: text(v?.etag), lastModified: text(v?.lastModified) };
  } catch {
    return { etag: null, lastModified: null };
  }
}

/** The report of a run whose export did not change (a 304): nothing read, nothing written. */
function unchangedReport(dryRun: boolean): ImportSummary {
  return {
    ...{ inserted: 0, updated: 0, unchanged: 0, rejected: [], pruned: 0, rederived: 0, hidden: 0 },
    ...{ businessChanged: false, version: null, committed: false, dryRun, format: 'reviews-json' },
    ...{ files: 0, rows: 0, warnings: ['the export has not changed since the last run (304)'] },
  };
}

/** The source's name: `url:` and the URL without its query (which may hold a token). */
export function urlSourceName(url: string): string {
  const u = new URL(url);
  return `url:${u.host}${u.pathname}`;
}

/**
 * A watched export URL: each run fetches the export (conditionally: an unchanged export costs a
 * 304 and nothing else) in any format `import` reads, and imports it as the whole list of its
 * reviews: what disappears from it is removed, as by a full pass.
 */
export function urlSource(url: string, client: GuardedClient): ReviewSource {
  return {
    name: urlSourceName(url),
    async run(ctx: SourceContext): Promise<SourceResult> {
      const since = ctx.full
        ? { etag: null, lastModified: null }
        : validatorsOf(ctx.previous?.cursor);
      const dir = await mkdtemp(join(tmpdir(), 'dealer-reviews-url-'));
      try {
        const ext = extname(new URL(url).pathname).toLowerCase();
        const path = join(dir, `export${ext === '.csv' || ext === '.tsv' ? ext : ''}`);
        const fetched = await client.fetchTo(url, path, since, ctx.signal);
        if (fetched.status === 'not-modified') {
          return { report: unchangedReport(ctx.dryRun), full: false, cursor: null, restored: 0 };
        }
        const cursor = JSON.stringify({ etag: fetched.etag, lastModified: fetched.lastModified });
        return await importFetched(ctx, { path, complete: true, cursor });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
