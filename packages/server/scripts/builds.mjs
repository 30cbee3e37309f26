/* global process */
// What `npm start`, `npm ci` (prepare) and the tests build, each step only when its output is
// older than one of its inputs. bin/caisse.js asks the same question (is the compiled server
// fresh?) to choose between dist/ and the TypeScript sources.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const require = createRequire(import.meta.url);

/** The newest modification time of a file, or of any file under a directory (0: missing). */
export function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Runs tsc in a package; rejects with its output when it fails (the output is shown only then). */
function tsc(dir, ...extra) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', ...extra], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tsc in ${dir} failed (${code}):\n${output}`))));
  });
}

/** A package compiled by tsc to dist/: fresh when `output` is newer than src/ and its tsconfig files. */
function tscStep(name, folder, output, ...extra) {
  const dir = join(repo, folder);
  return {
    name,
    fresh: async () => statTime(join(dir, output)) >= Math.max(...['src', 'tsconfig.json', 'tsconfig.build.json'].map((p) => newest(join(dir, p)))),
    build: () => tsc(dir, ...extra),
  };
}

function statTime(path) {
  return existsSync(path) ? statSync(path).mtimeMs : 0;
}

/** Where the embedded database's empty cluster is kept, relative to packages/server (src/platform/db.ts reads it). */
export const CLUSTER = 'dist/pglite-cluster';

/** In build order: each package's dist/ is what the next one's tsc reads. */
export const STEPS = [
  tscStep('@caisse/api-types', 'packages/api-types', 'dist/index.js'),
  tscStep('@caisse/intl', 'packages/intl', 'dist/index.js'),
  tscStep('@caisse/node', 'packages/node', 'dist/index.js'),
  tscStep('@caisse/browser', 'packages/browser', 'dist/index.js'),
  tscStep('@caisse/react', 'packages/react', 'dist/index.js'),
  {
    name: 'dashboard and checkout pages',
    fresh: async () => (await import('../../dashboard/scripts/build-if-stale.mjs')).dashboardIsFresh(),
    build: async () => (await import('../../dashboard/scripts/build-if-stale.mjs')).buildDashboard(),
  },
  serverStep(),
  clusterStep(),
];

/**
 * The server: tsc to dist/, then one bundle of it and the packages it imports (scripts/bundle.mjs),
 * which is what bin/caisse.js runs. The bundle holds @caisse/intl, @caisse/node and
 * @caisse/api-types and the installed packages: it is stale when any of those changed too.
 */
function serverStep() {
  const dir = join(repo, 'packages', 'server');
  const inputs = [
    ...['src', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs'].map((p) => join(dir, p)),
    ...['intl', 'node', 'api-types'].map((p) => join(repo, 'packages', p, 'dist')),
    join(repo, 'package-lock.json'),
  ];
  return {
    name: '@caisse/server',
    fresh: async () => statTime(join(dir, BUNDLE)) >= Math.max(...inputs.map(newest)),
    build: async () => {
      // --noCheck: `npm run typecheck` checks; this only emits (about twice as fast).
      await tsc(dir, '--noCheck');
      await (await import('./bundle.mjs')).bundleServer();
    },
  };
}

/**
 * An empty PGlite cluster, as initdb leaves it, made once per PGlite version: a first start on a
 * new data directory copies it (pgdata/) instead of running initdb (about 10 CPU-s of
 * WebAssembly), and the tests' template loads it (empty.tar.gz) into memory. Its
 * VERSION file names the PGlite it was made with (installed packages' files keep npm's fixed
 * dates, so their times cannot tell an upgrade).
 */
function clusterStep() {
  const dir = join(repo, 'packages', 'server', CLUSTER);
  const pgliteVersion = () => JSON.parse(readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')).version;
  return {
    name: 'embedded database cluster',
    fresh: async () => existsSync(join(dir, 'VERSION')) && readFileSync(join(dir, 'VERSION'), 'utf8') === pgliteVersion(),
    build: async () => {
      // Made aside, then renamed into place: a start beside the build sees all of it or none.
      const building = `${dir}.${process.pid}`;
      rmSync(building, { recursive: true, force: true });
      mkdirSync(building, { recursive: true });
      const { PGlite } = await import('@electric-sql/pglite');
      // As the server's embedded database runs it (src/platform/db.ts, pgliteOnBaselineCompiler).
      setFlagsFromString('--liftoff-only');
      const pglite = new PGlite(join(building, 'pgdata'));
      await pglite.waitReady;
      // The same as a tarball (PGlite's dumpDataDir), for an engine in memory (the tests' template).
      writeFileSync(join(building, 'empty.tar.gz'), new Uint8Array(await (await pglite.dumpDataDir('gzip')).arrayBuffer()));
      await pglite.close();
      writeFileSync(join(building, 'VERSION'), pgliteVersion());
      rmSync(dir, { recursive: true, force: true });
      renameSync(building, dir);
    },
  };
}

/** The bundled CLI's entry, relative to packages/server. */
export const BUNDLE = 'dist/bundle/cli.js';

/**
 * clients: what `npm ci` builds (prepare), so the SDKs import in the workspace with no step of
 * yours. cli: what bin/caisse.js runs compiled (the server and the SDK it uses for listen and
 * trigger). server: that and the empty embedded cluster, what the tests' `caisse` processes
 * start from. all: what `npm start` needs, the dashboard's pages included.
 */
export const GROUPS = {
  clients: ['@caisse/api-types', '@caisse/intl', '@caisse/node', '@caisse/browser', '@caisse/react'],
  cli: ['@caisse/api-types', '@caisse/intl', '@caisse/node', '@caisse/server'],
  server: ['@caisse/api-types', '@caisse/intl', '@caisse/node', '@caisse/server', 'embedded database cluster'],
  all: STEPS.map((s) => s.name),
};

export function stepsOf(group) {
  return STEPS.filter((s) => GROUPS[group].includes(s.name));
}

/** Whether every step of the group is up to date. */
export async function groupIsFresh(group) {
  for (const step of stepsOf(group)) if (!(await step.fresh())) return false;
  return true;
}
