import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that spend most of their time waiting on processes of their own (`caisse` servers and CLI
 * commands) or are long: started first, so that their waits overlap the other files instead of
 * making the tail of the run. Vitest orders by measured durations once it has some (its cache);
 * this list stands in on a fresh clone, where it would order by file size.
 */
const LONG_FIRST = [
  // `npm run test:cli`'s.
  'test/newcomer.cli.test.ts',
  'test/listen.cli.test.ts',
  'test/provider-accounts.cli.test.ts',
  'test/shutdown.cli.test.ts',
  // `npm test`'s, by their time in a run of it.
  'test/foundation.db.test.ts',
  'test/dashboard.http.test.ts',
  'test/attempts.redirect.test.ts',
  'test/clearing-accounts.migration.test.ts',
  'test/fuzz.routes.test.ts',
  'test/provider-requests.migration.test.ts',
  'test/customers.test.ts',
  'test/dashboard.team.test.ts',
  'test/webhooks.delivery.test.ts',
  'test/webhooks.postgres.test.ts',
  'test/connectors.conformance.test.ts',
  'test/reconciliation.test.ts',
  'test/payouts.test.ts',
  'test/architecture.lint.test.ts',
];

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const measured = sorted.some((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(root, f.moduleId)}`) !== undefined);
    if (measured) return sorted;
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.indexOf(relative(root, f.moduleId));
      return i === -1 ? LONG_FIRST.length : i;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
