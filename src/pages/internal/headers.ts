import { EMBED_READY_SCRIPT_SOURCE } from './embed-signal.js';

/**
 * The security headers of the pages. Content-Security-Policy allows nothing but the service's
 * own stylesheet, icon and fetches, and no script but the widget's one line (embed-signal.ts, allowed
 * by its hash; JSON-LD is data, which CSP does not run); `frame-ancestors` refuses every framing but
 * the widget's.
 */

// `connect-src 'self'`: tools that fetch from the page may (Lighthouse reads robots.txt so).
const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'";

// No Cross-Origin-Opener-Policy: the pages hold no script, no cookie and nothing per visitor, so
// an opener on another site can learn nothing it could not fetch itself; and COOP costs every
// entry from another page a new browsing context group, in Chromium a new renderer process on the
// page's main thread (measured: Lighthouse mobile performance 93 with it, 100 without). See
// docs/pages.md.
const COMMON: Readonly<Record<string, string>> = {
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

export interface PageHeaders {
  /** Every page but the widget: never framed. */
  readonly page: Readonly<Record<string, string>>;
  /** `/embed`: framed by the allowed origins only. */
  readonly embed: Readonly<Record<string, string>>;
}

/**
 * The header sets of the pages. `embedOrigins` are the origins that may frame `/embed` (`['*']`:
 * any); `https`: the service is served over TLS (adds Strict-Transport-Security).
 */
export function pageHeaders(embedOrigins: readonly string[], https: boolean): PageHeaders {
  const hsts: Record<string, string> = https
    ? { 'Strict-Transport-Security': 'max-age=31536000' }
    : {};
  return {
    page: Object.freeze({
      ...COMMON,
      ...hsts,
      'Content-Security-Policy': `${CSP}; frame-ancestors 'none'`,
      'X-Frame-Options': 'DENY',
    }),
    embed: Object.freeze({
      ...COMMON,
      ...hsts,
      'Content-Security-Policy': `${CSP}; script-src ${EMBED_READY_SCRIPT_SOURCE}; frame-ancestors ${embedOrigins.join(' ')}`,
    }),
  };
}
