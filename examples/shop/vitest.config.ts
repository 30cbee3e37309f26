import { defineConfig } from 'vitest/config';

const report = process.env.CAISSE_TEST_REPORT;

export default defineConfig({
  resolve: {
    // The workspace's packages from their sources, as the shop runs them.
    conditions: ['source'],
  },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // The end-to-end test starts Caisse, the shop and Chromium: one file at a time on 2 cores.
    maxWorkers: 1,
    // Modules as vitest transformed them, kept on disk (node_modules/.experimental-vitest-cache).
    experimental: { fsModuleCache: true },
    testTimeout: 240_000,
    hookTimeout: 180_000,
    // CI asks for a JSON report beside the console one, to print its closing count.
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report.replace(/\.json$/, '') + '.shop.json' } } : {}),
  },
});
