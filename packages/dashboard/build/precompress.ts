import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text assets worth compressing; images and fonts are compressed already. */
const TEXT = /\.(?:js|css|json|svg|html|txt|map)$/;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every text asset the
 * build writes under `assets/`, so the server sends them as they are, by Accept-Encoding, at no CPU
 * per request (dashboard.pages.ts). Done at build time because the best brotli level is far too
 * slow to run per response, and it is where most of the bytes go on a payer's 3G link.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'caisse-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const names = Object.keys(bundle).filter((name) => name.startsWith('assets/') && TEXT.test(name));
      await Promise.all(
        names.map(async (name) => {
          const body = await readFile(join(outDir, name));
          const [br, gzipped] = await Promise.all([
            brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
            gz(body, { level: 9 }),
          ]);
          await Promise.all([writeFile(join(outDir, `${name}.br`), br), writeFile(join(outDir, `${name}.gz`), gzipped)]);
        }),
      );
    },
  };
}
