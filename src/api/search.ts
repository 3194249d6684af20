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
 * Renders the search response `{ count, total, limit, reviews }` of validated filters, or throws
 * the 400 of an ambiguous staff name.
 */
export function searchDocument(snapshot: Snapshot, filters: SearchFilters): Representation {
  return cached(snapshot, filtersKey(filters), () => {
    const outcome = runSearch(snapshot.index, filters);
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
