import type { Representation } from './types.js';
import type { ResponseCache } from './types.js';

/**
 * A least-recently-used cache of prepared responses, bounded by entries and by bytes. One lives
 * with each snapshot, so a data change drops it whole.
 */
export function createResponseCache(maxEntries: number, maxBytes: number): ResponseCache {
  const entries = new Map<string, Representation>();
  let bytes = 0;
  // The most recently used key: a hit on it (a popular search asked again and again) needs no
  // reordering, which cost a repeated search a Map delete and insert per request.
  let newest: string | undefined;
  return {
    get(key) {
      const rep = entries.get(key);
      if (rep && key !== newest) {
        entries.delete(key);
        entries.set(key, rep);
        newest = key;
      }
      return rep;
    },
    set(key, rep) {
      if (maxEntries === 0 || rep.body.length > maxBytes) return;
      const old = entries.get(key);
      if (old) {
        bytes -= old.body.length;
        entries.delete(key);
      }
      entries.set(key, rep);
      newest = key;
      bytes += rep.body.length;
      for (const [k, v] of entries) {
        if (entries.size <= maxEntries && bytes <= maxBytes) break;
        entries.delete(k);
        bytes -= v.body.length;
      }
    },
  };
}
