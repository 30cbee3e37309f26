import { defineConfig } from 'vitest/config';

/** Browser tests: a real server process and Debian's Chromium (one for the run), one file at a time. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    // Files share the worker's modules (playwright-core, pg, the support code) rather than
    // loading them again each: every file starts its own server and contexts, and closes them.
    isolate: false,
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
