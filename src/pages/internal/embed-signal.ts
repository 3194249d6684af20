import { createHash } from 'node:crypto';

/**
 * The one script of `/embed`: it tells the page that frames the widget that the widget rendered,
 * so the snippet of docs/pages.md shows the frame only then and keeps its plain link otherwise
 * (the service down, or the page's origin not in EMBED_ALLOWED_ORIGINS: the browser then shows
 * an error page in the frame and this never runs). The message carries nothing but its name.
 */
export const EMBED_READY_MESSAGE = 'dealer-reviews:embed-ready';

export const EMBED_READY_SCRIPT = `if(parent!==self)parent.postMessage('${EMBED_READY_MESSAGE}','*')`;

/** The Content-Security-Policy source that allows that script and no other. */
export const EMBED_READY_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(EMBED_READY_SCRIPT).digest('base64')}'`;
