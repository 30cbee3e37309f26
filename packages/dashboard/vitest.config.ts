import { defineConfig } from 'vitest/config';

/**
 * Browser tests: real server processes and Debian's Chromium, two files at a time (one per worker,
 * each worker its own Chromium), on one migrated template and one shared server (test/global-setup.ts).
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Two: a file waits on its server, Chromium and providers' answers about half its time, which
    // the other worker's file fills. Two runs of one worker each cost a second global setup (a
    // migration, a shared server, vitest's main process).
    maxWorkers: 2,
    // Files share the worker's modules (playwright-core, pg, the support code) rather than
    // loading them again each: every file starts its own server and contexts, and closes them.
    isolate: false,
    // Modules as vitest transformed them, kept on disk (node_modules/.experimental-vitest-cache): a
    // run after the first transforms only what changed.
    experimental: { fsModuleCache: true },
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // A page answers in tens of milliseconds alone, but seconds late when CI runs every suite on two
    // busy cores, where vitest's default of one second per `expect.poll` is too short to wait.
    expect: { poll: { timeout: 20_000 } },
    ...(process.env.CAISSE_TEST_REPORT
      ? { reporters: ['default', 'json'], outputFile: { json: process.env.CAISSE_TEST_REPORT.replace(/\.json$/, '.dashboard.json') } }
      : {}),
  },
});
