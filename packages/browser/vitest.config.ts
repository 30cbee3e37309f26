import { defineConfig } from 'vitest/config';

const report = process.env.CAISSE_TEST_REPORT;

export default defineConfig({
  resolve: {
    // Test against @caisse/api-types' sources, no build needed.
    alias: { '@caisse/api-types': decodeURIComponent(new URL('../api-types/src/index.ts', import.meta.url).pathname) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'happy-dom',
    // The files share their worker's modules (happy-dom's among them) rather than loading them
    // again each: about half the suite's CPU.
    isolate: false,
    // CI asks for a JSON report beside the console one, to print its closing count.
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report.replace(/\.json$/, '') + '.browser.json' } } : {}),
  },
});
