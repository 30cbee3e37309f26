/* global console, process */
// Builds the dashboard and checkout pages unless dist/ is newer than every source file, so
// `npm start` (which builds first) costs nothing when nothing changed. `--force` always builds.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const inputs = ['src', 'dashboard.html', 'checkout.html', 'vite.config.ts', 'package.json', '../react/src', '../browser/src', '../api-types/src', '../intl/src'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const built = ['dist/dashboard.html', 'dist/checkout.html'].map((f) => join(root, f));
const builtAt = built.every((f) => existsSync(f)) ? Math.min(...built.map((f) => statSync(f).mtimeMs)) : 0;
const sourcesAt = Math.max(...inputs.map((p) => newest(join(root, p))));
if (builtAt > sourcesAt && !process.argv.includes('--force')) {
  console.log('dashboard: dist/ is up to date');
} else {
  const { build } = await import('vite');
  await build({ root, logLevel: 'warn' });
  console.log('dashboard: built dist/');
}
