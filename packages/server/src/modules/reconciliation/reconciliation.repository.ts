import type { Selectable } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

/** One reconciliation's outcome, with its report whole. */
export interface ReconciliationRunsTable {
  id: string;
  provider: string;
  mode: KeyMode;
  period_from: Date;
  period_to: Date;
  result: 'agreed' | 'mismatched' | 'unverified';
  agreed: number;
  mismatches: number;
  in_flight: number;
  unverified: number;
  report: unknown;
  generated_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    reconciliation_runs: ReconciliationRunsTable;
  }
}

export type ReconciliationRunRow = Selectable<ReconciliationRunsTable>;

export const reconciliationRepository = {
  async insert(db: Executor, row: ReconciliationRunRow): Promise<void> {
    await db
      .insertInto('reconciliation_runs')
      .values({ ...row, report: JSON.stringify(row.report) })
      .execute();
  },

  /** The newest run of each provider and mode. */
  async latest(db: Executor): Promise<ReconciliationRunRow[]> {
    return db
      .selectFrom('reconciliation_runs')
      .selectAll()
      .distinctOn(['provider', 'mode'])
      .orderBy('provider')
      .orderBy('mode')
      .orderBy('generated_at', 'desc')
      .execute();
  },
};
