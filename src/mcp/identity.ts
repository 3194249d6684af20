import type { Snapshot } from '../snapshot/types.js';

/**
 * What the server says of itself where the 2025-11-25 revision lets it: `serverInfo`'s
 * `description`, `websiteUrl` and `icons`. The icon is a data: URI, so a client shows it without
 * fetching anything (and no other origin is involved). Tools may carry icons too, but one that
 * repeats the server's costs 440 bytes of `tools/list` per tool (docs/mcp.md).
 */

/** An icon as the specification describes it (`Icon`). */
export interface Icon {
  src: string;
  mimeType: string;
  sizes: string[];
}

/** A speech bubble holding a star, on the blue of the pages: 24 × 24, any size. */
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="5" fill="#1d4ed8"/><path fill="#fff" d="M4.5 5h15v10.5H10L6 19.5v-4H4.5z"/><path fill="#f59e0b" d="M12 6.6l1.2 2.5 2.7.4-2 1.9.5 2.7-2.4-1.3-2.4 1.3.5-2.7-2-1.9 2.7-.4z"/></svg>';

const SERVER_ICONS: readonly Icon[] = Object.freeze([
  {
    src: `data:image/svg+xml;base64,${Buffer.from(ICON_SVG).toString('base64')}`,
    mimeType: 'image/svg+xml',
    sizes: ['any'],
  },
]);

/** The server's `serverInfo`, for a snapshot (its business's name), made once per snapshot. */
export interface ServerInfo {
  name: string;
  title: string;
  version: string;
  description: string;
  websiteUrl: string;
  icons: Icon[];
}

const infos = new WeakMap<Snapshot, ServerInfo>();

export function serverInfo(snapshot: Snapshot, base: string, version: string): ServerInfo {
  let info = infos.get(snapshot);
  if (!info) {
    const b = snapshot.business;
    const about = b ? `${b.name} (${b.address.addressLocality})` : 'one business';
    info = {
      name: 'dealer-reviews',
      title: 'Customer reviews',
      version,
      description: `Read-only verified customer reviews of ${about}: search, ratings by month, department or source, staff and services, and aspect-based insights with quotes.`,
      websiteUrl: base,
      icons: [...SERVER_ICONS],
    };
    infos.set(snapshot, info);
  }
  return info;
}
