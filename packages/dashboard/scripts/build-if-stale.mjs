/* global console, process */
// Builds the dashboard and checkout pages unless dist/ is newer than every source file, so
// `npm start` (which builds first, through packages/server/scripts/build-if-stale.mjs, which
// imports this file) costs nothing when nothing changed. `--force` always builds.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const inputs = [
  'src',
  'dashboard.html',
  'checkout.html',
  'operator.html',
  'vite.config.ts',
  'vite.checkout.config.ts',
  'build',
  'package.json',
  '../react/src',
  '../browser/src',
  '../api-types/src',
  '../intl/src',
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Whether dist/ holds every page, built after the last change to any of their sources. */
export function dashboardIsFresh() {
  const built = ['dist/dashboard.html', 'dist/checkout.html', 'dist/checkout-messages.json', 'dist/operator.html'].map((f) => join(root, f));
  const builtAt = built.every((f) => existsSync(f)) ? Math.min(...built.map((f) => statSync(f).mtimeMs)) : 0;
  return builtAt > Math.max(...inputs.map((p) => newest(join(root, p))));
}

export async function buildDashboard() {
  const { build } = await import('vite');
  await build({ root, logLevel: 'warn' });
  // The hosted checkout apart (its own Preact bundle), into the same dist/, after the build that empties it.
  await build({ root, logLevel: 'warn', configFile: join(root, 'vite.checkout.config.ts') });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (dashboardIsFresh() && !process.argv.includes('--force')) {
    console.log('dashboard: dist/ is up to date');
  } else {
    await buildDashboard();
    console.log('dashboard: built dist/');
  }
}
