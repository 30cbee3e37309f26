import { defineConfig } from 'vitest/config';

const report = process.env.CAISSE_TEST_REPORT;

export default defineConfig({
  resolve: {
    // Test against the sources of @caisse/browser, @caisse/api-types and @caisse/intl, no build needed.
    alias: {
      '@caisse/intl': decodeURIComponent(new URL('../intl/src/index.ts', import.meta.url).pathname),
      '@caisse/browser': decodeURIComponent(new URL('../browser/src/index.ts', import.meta.url).pathname),
      '@caisse/api-types': decodeURIComponent(new URL('../api-types/src/index.ts', import.meta.url).pathname),
    },
  },
  esbuild: { jsx: 'automatic' },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    // The files share their worker's modules (React, happy-dom) rather than loading them again
    // each: about half the suite's CPU. Every file unmounts what it rendered after each test.
    isolate: false,
    // CI asks for a JSON report beside the console one, to print its closing count.
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report.replace(/\.json$/, '') + '.react.json' } } : {}),
  },
});
