import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendRepresentation } from '../../http/respond.js';
import {
  precompressRepresentation,
  prepareRepresentation,
  type Representation,
} from '../../representation/index.js';
import type { Snapshot } from '../../snapshot/types.js';

/**
 * Where rendered pages are kept, per data version. Two stores, both the snapshot's own, so that
 * they go with the version that rendered them:
 * - the pages of every visit (`/`, `/insights`, `/embed`, the sitemap) in the snapshot's memo
 *   slot `pages`, rendered once and compressed in the thread pool (`renderOnce`);
 * - filtered views and review pages in the snapshot's bounded response cache, like search
 *   results (`renderCached`).
 */

export const HTML = 'text/html; charset=utf-8';

/** Pages rendered once per snapshot above this size get fast codings on demand, not the best. */
const LAZY_CODINGS_BYTES = 256 * 1024;

/** A representation, or one whose codings are still being made. */
export type Rendered = Representation | Promise<Representation>;

/** A page's bytes as rendered, before they become a representation. */
export interface Rendering {
  body: string;
  lastModifiedMs: number;
  headers: Readonly<Record<string, string>>;
  /** HTML unless said. */
  contentType?: string;
}

/** The representation of an HTML page made on demand (no precompression). */
export function preparePage(
  body: string,
  lastModifiedMs: number,
  headers: Readonly<Record<string, string>>,
): Representation {
  return prepareRepresentation(body, { contentType: HTML, lastModifiedMs, headers });
}

/**
 * The codings of a page rendered once: compressed with the best settings off the event loop
 * (until then, and should compressing fail, made on demand); a large body (a sitemap file) gets
 * fast codings on demand instead: the best settings would keep both cores of a small machine
 * busy for a second. `keep` stores the finished representation in place of the promise.
 */
function encodeOnce(r: Rendering, keep: (rep: Rendered) => void): Rendered {
  const options = {
    contentType: r.contentType ?? HTML,
    lastModifiedMs: r.lastModifiedMs,
    headers: r.headers,
  };
  if (r.body.length > LAZY_CODINGS_BYTES) return prepareRepresentation(r.body, options);
  // Once compressed, later requests are answered synchronously.
  return precompressRepresentation(r.body, options).then(
    (done) => (keep(done), done),
    () => {
      const fallback = prepareRepresentation(r.body, options);
      keep(fallback);
      return fallback;
    },
  );
}

/** A page rendered once per snapshot (under `key`); its codings are made off the event loop. */
export function renderOnce(snap: Snapshot, key: string, render: () => Rendering): Rendered {
  const slots = snap.memo('pages', () => new Map<string, Rendered>());
  let rep = slots.get(key);
  if (!rep) {
    rep = encodeOnce(render(), (done) => slots.set(key, done));
    slots.set(key, rep);
  }
  return rep;
}

/** A page kept in the snapshot's bounded response cache (under `key`). */
export function renderCached(
  snap: Snapshot,
  key: string,
  render: () => Representation,
): Representation {
  let rep = snap.responses.get(key);
  if (!rep) {
    rep = render();
    snap.responses.set(key, rep);
  }
  return rep;
}

/** Answers with a page, at once when its codings are made, else when they are. */
export function sendRendered(
  req: IncomingMessage,
  res: ServerResponse,
  rep: Rendered,
): void | Promise<void> {
  return rep instanceof Promise
    ? rep.then((r) => sendRepresentation(req, res, r))
    : sendRepresentation(req, res, rep);
}
