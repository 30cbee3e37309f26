/* global process */
// Bundles the compiled server (dist/cli.js and what it imports) into dist/bundle/: a process then
// reads a few files instead of resolving and opening some 600 modules, which was about half of
// the CPU a `caisse` command spent before doing anything.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const server = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(server, 'dist');
const out = join(dist, 'bundle');

// Packages that find files next to their own code (WebAssembly, native addons, worker scripts,
// static assets) or require optional packages at run time: Node loads them as usual.
const EXTERNAL = ['@electric-sql/pglite', '@node-rs/argon2', 'pino', 'pino-pretty', 'thread-stream', '@fastify/swagger-ui', 'pg-native'];

/** Our compiled files keep their own import.meta.url, so paths made from it (migrations, pages) are unchanged. */
const keepOwnUrl = {
  name: 'keep-own-url',
  setup(b) {
    b.onLoad({ filter: /\/dist\/.*\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist) || args.path.includes('node_modules')) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = relative(out, args.path);
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'js' };
    });
  },
};

export async function bundleServer() {
  // Chunk names change with their content: start from an empty folder.
  await rm(out, { recursive: true, force: true });
  await build({
    entryPoints: [join(dist, 'cli.js')],
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    // The ES module build where a package has one (jsonc-parser's CommonJS one is UMD, which loads its parts by name).
    mainFields: ['module', 'main'],
    target: 'node20',
    external: EXTERNAL,
    plugins: [keepOwnUrl],
    // CommonJS packages in an ES module: their require() and __dirname need Node's.
    banner: {
      js: "import { createRequire as __caisseCreateRequire } from 'node:module'; const require = __caisseCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
    legalComments: 'none',
    // Beside each chunk, never referenced from it (no cost at run time): the bench's CPU profile
    // reads it to give a sample's function back to its package or module.
    sourcemap: 'external',
    sourcesContent: false,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleServer();
