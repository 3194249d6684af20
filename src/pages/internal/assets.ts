import { createHash } from 'node:crypto';
import {
  prepareParts,
  restoreRepresentation,
  type Representation,
} from '../../representation/index.js';
import { assetPath } from '../paths.js';
import { starRules, STAR_SVG } from './stars.js';
import { ICON_SVG, SITE_CSS } from './styles.js';

/** Static files never change under their hashed names: caches keep them a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function hashed(stem: string, ext: string, body: string): string {
  return `${stem}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${ext}`;
}

function asset(body: string, contentType: string, lastModifiedMs: number): Representation {
  return restoreRepresentation(
    prepareParts(body, { contentType, lastModifiedMs, headers: { 'Cache-Control': IMMUTABLE } }),
  );
}

export interface Assets {
  /** Paths of the stylesheet and the icon. */
  readonly css: string;
  readonly icon: string;
  /** Representations by file name (under `/assets/`). */
  readonly files: ReadonlyMap<string, Representation>;
  readonly iconRep: Representation;
}

/** Prepares the static files once (their codings too): names carry a hash of the content. */
export function prepareAssets(lastModifiedMs: number): Assets {
  const star = hashed('star', 'svg', STAR_SVG);
  const siteCss = SITE_CSS + starRules(star);
  const css = hashed('site', 'css', siteCss);
  const icon = hashed('icon', 'svg', ICON_SVG);
  const iconRep = asset(ICON_SVG, 'image/svg+xml', lastModifiedMs);
  return {
    css: assetPath(css),
    icon: assetPath(icon),
    files: new Map([
      [css, asset(siteCss, 'text/css; charset=utf-8', lastModifiedMs)],
      [star, asset(STAR_SVG, 'image/svg+xml', lastModifiedMs)],
      [icon, iconRep],
    ]),
    iconRep,
  };
}
