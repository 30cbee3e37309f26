import { configDefaults, defineConfig } from 'vitest/config';
import suite, { CLI_FILES } from './vitest.config.ts';

const report = process.env.CAISSE_TEST_REPORT;

/**
 * `npm run test:cli`: the files that start real `caisse` processes (the compiled CLI: commands,
 * servers, a cluster) and wait on them, as users run them. Most of their time is the processes'
 * starts and waits, which `npm test` leaves out; they run on the same databases (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL) with the suite's global setup and harness.
 */
export default defineConfig({
  ...suite,
  test: {
    ...suite.test,
    include: [CLI_FILES],
    exclude: configDefaults.exclude,
    // CI asks for a JSON report beside the console one, to print its closing count.
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report.replace(/\.json$/, '') + '.cli.json' } } : {}),
  },
});
