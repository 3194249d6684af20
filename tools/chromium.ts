/**
 * Debian's Chromium (`apt-get install chromium`), as the browser tests and Lighthouse start it: a
 * browser is never downloaded. Without the background-networking flags, Chromium keeps trying
 * Google's hosts, which a closed network refuses many times a second.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
