import { existsSync } from 'node:fs';

/**
 * Debian's Chromium (never a downloaded browser): its headless shell when installed (package
 * chromium-headless-shell), which costs the suite about half the browser CPU of the full browser
 * in headless mode, else the full browser.
 */
export const CHROMIUM =
  process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

/**
 * Its switches: headless, nothing that calls home, and English asked of every page unless a
 * context says otherwise (the headless shell sends no Accept-Language of its own). One renderer
 * process per context, whatever its pages and navigations: each new one costs about half a
 * CPU-second to start, and a test's pages need no isolation from each other (contexts are still
 * isolated; about a tenth of the browser files' CPU).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--accept-lang=en-US',
  '--renderer-process-limit=1',
];
