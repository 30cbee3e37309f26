/* global console, process */
// Compiles the server to dist/ (`npm run build`) unless dist/cli.js is already newer than every
// source file: bin/caisse.js then runs the compiled server, which starts faster than the sources
// through tsx. The tests run it before they start `caisse` processes; `--force` always builds.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// The same test as bin/caisse.js: the newest .ts file under src/ against dist/cli.js.
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

let builtAt = 0;
try {
  builtAt = statSync(join(root, 'dist', 'cli.js')).mtimeMs;
} catch {
  /* never built */
}
if (builtAt >= newestSource(join(root, 'src')) && !process.argv.includes('--force')) {
  console.log('server: dist/ is up to date');
} else {
  const res = spawnSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noCheck'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
  console.log('server: built dist/');
}
