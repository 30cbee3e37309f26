/* global process, console */
// Bundles @caisse/browser as one minified ES module (dist/caisse-browser.min.js), @caisse/api-types
// included (from its sources), and prints its size, raw and gzipped: the number the README
// quotes. `npm run size`.
import { gzipSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

export async function bundle() {
  const result = await build({
    entryPoints: [resolve(here, '../src/index.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    legalComments: 'none',
    // The workspace's @caisse/api-types from its sources: no build of it needed first.
    conditions: ['source'],
  });
  const code = result.outputFiles[0].contents;
  return { code, minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { code, minified, gzipped } = await bundle();
  const out = resolve(here, '../dist/caisse-browser.min.js');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
  console.log(`@caisse/browser: ${minified} bytes minified, ${gzipped} bytes min+gzip (dist/caisse-browser.min.js)`);
}
