import { configDefaults, defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/sequencer.ts';

/** Files whose subject is a `caisse` process as users run it: a command, a server, its shutdown. */
export const CLI_FILES = 'test/**/*.cli.test.ts';

const source = (path: string) => decodeURIComponent(new URL(path, import.meta.url).pathname);

export default defineConfig({
  resolve: {
    // The CLI's client code (src/cli/) on the sources of @caisse/node and @caisse/api-types, and the
    // languages on @caisse/intl's: no build needed.
    alias: {
      '@caisse/node': source('../node/src/index.ts'),
      '@caisse/api-types': source('../api-types/src/index.ts'),
      '@caisse/intl': source('../intl/src/index.ts'),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The files that start `caisse` processes and wait on them (`*.cli.test.ts`) are
    // `npm run test:cli`'s (vitest.cli.config.ts), not `npm test`'s.
    exclude: [...configDefaults.exclude, CLI_FILES],
    pool: 'forks',
    // Each file gets its own database (in-memory PGlite, or a fresh PostgreSQL database), a copy
    // of the template that the global setup migrated once.
    globalSetup: ['test/global-setup.ts'],
    // Two on 2 cores: a third worker cost 20 CPU-s more (its own start, modules and caches) and a
    // run beside the browser suites took 8-11 s longer.
    maxWorkers: 2,
    // Files share their worker's modules (the app's, and PGlite's compiled WebAssembly) rather than
    // loading them again each: every file builds its own app on its own database, and closes it.
    isolate: false,
    // Modules as vitest transformed them, kept on disk (node_modules/.experimental-vitest-cache)
    // under a hash of their source and of this config: a run after the first (CI's PostgreSQL run,
    // any local one) transforms only what changed. The suite's transform time: 5.7 s → 1.2 s.
    experimental: { fsModuleCache: true },
    // The long files first on a fresh clone (test/sequencer.ts).
    sequence: { sequencer: LongFirstSequencer },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // CI asks for a JSON report beside the console one, to print its closing count.
    ...(process.env.CAISSE_TEST_REPORT ? { reporters: ['default', 'json'], outputFile: { json: process.env.CAISSE_TEST_REPORT } } : {}),
  },
});
