import { defineConfig } from 'vitest/config';

const report = process.env.CAISSE_TEST_REPORT;

/**
 * The clients' suites (api-types, intl, browser, node, react) in one vitest process, each with its
 * own config: `npm test` runs them so, where five runs cost five starts of vitest (and of npm).
 * Each package's own `npm test` runs its suite alone.
 */
export default defineConfig({
  test: {
    projects: ['packages/api-types', 'packages/intl', 'packages/browser', 'packages/node', 'packages/react'],
    // Modules as vitest transformed them, kept on disk for every project (node_modules/.experimental-vitest-cache).
    experimental: { fsModuleCache: true },
    // CI asks for a JSON report beside the console one, to print its closing count.
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report.replace(/\.json$/, '') + '.clients.json' } } : {}),
  },
});
