/** The search response of validated filters, rendered once per data version and cached. */
import { invalidRequest } from '../http/errors.js';
import { prepareRepresentation } from '../representation/index.js';
import { writeFragments } from '../reviews/dataset.js';
import type { SearchFilters } from '../reviews/search-schema.js';
import { runSearch } from '../reviews/search.js';
import { stableJson } from '../domain/stable-json.js';
import type { Representation, Snapshot } from '../snapshot/types.js';

function cached(snapshot: Snapshot, key: string, render: () => Buffer): Representation {
  let rep = snapshot.responses.get(key);
  if (!rep) {
    rep = prepareRepresentation(render(), {
      contentType: 'application/json',
      lastModifiedMs: Date.parse(snapshot.state.changedAt),
    });
    snapshot.responses.set(key, rep);
  }
  return rep;
}

/**
 * Cache key of validated filters: the canonical JSON of the parsed value, so every filter the
 * schema knows (and any added later) is part of the key.
 */
function filtersKey(f: SearchFilters): string {
  return `search:${stableJson(f)}`;
}

/**
 * The cache key of each query string already answered in a data version (at most
 * `MAX_KNOWN_QUERIES` strings of at most `MAX_KNOWN_QUERY_LENGTH` characters a version): a
 * repeated search skips validating and canonicalising its filters, which cost it about a third of
 * its time against a bare server sending the same bytes (`npm run bench -- hotpath`). It holds
 * keys, not bodies: the response cache still bounds what the answers weigh.
 */
const keysByQuery = new WeakMap<Snapshot, Map<string, string>>();
const MAX_KNOWN_QUERIES = 4096;
const MAX_KNOWN_QUERY_LENGTH = 512;

/** The answer of a query string answered before in this data version, still in the cache. */
export function knownSearch(snapshot: Snapshot, rawQuery: string): Representation | undefined {
  const key = keysByQuery.get(snapshot)?.get(rawQuery);
  return key === undefined ? undefined : snapshot.responses.get(key);
}

function rememberQuery(snapshot: Snapshot, rawQuery: string, key: string): void {
  if (rawQuery.length > MAX_KNOWN_QUERY_LENGTH) return;
  let keys = keysByQuery.get(snapshot);
  if (!keys) keysByQuery.set(snapshot, (keys = new Map()));
  if (keys.size >= MAX_KNOWN_QUERIES) keys.clear();
  keys.set(rawQuery, key);
}

/**
 * Renders the search response `{ count, total, limit, reviews }` of validated filters, or throws
 * the 400 of an ambiguous staff name, or the 503 of `aspect` or `polarity` while the version's
 * insights are being computed (`insights_pending`; never cached). `rawQuery`: the query string they were read from, remembered
 * for `knownSearch`.
 */
export function searchDocument(
  snapshot: Snapshot,
  filters: SearchFilters,
  rawQuery?: string,
): Representation {
  const key = filtersKey(filters);
  const rep = searchBody(snapshot, key, filters);
  if (rawQuery !== undefined) rememberQuery(snapshot, rawQuery, key);
  return rep;
}

function searchBody(snapshot: Snapshot, key: string, filters: SearchFilters): Representation {
  return cached(snapshot, key, () => {
    const outcome = runSearch(snapshot.index, filters, undefined, snapshot.aspects);
    if (!outcome.ok) throw invalidRequest(outcome.issues);
    const { hits } = outcome;
    const { positions } = hits;
    return writeFragments(
      `{"count":${positions.length},"total":${hits.total},"limit":${filters.limit},"reviews":[`,
      positions.length,
      (i) => snapshot.fragment(positions[i]!),
      ']}',
    );
  });
}
