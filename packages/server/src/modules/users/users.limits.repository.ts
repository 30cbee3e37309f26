import type { Selectable } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

/** E-money caps per mode, tier and currency (decision 0042); null: no cap. */
export interface CustomerLimitsTable {
  mode: KeyMode;
  tier: number;
  currency: string;
  max_balance_minor: bigint | null;
  max_topup_day_minor: bigint | null;
  max_topup_month_minor: bigint | null;
  max_payment_minor: bigint | null;
  updated_by: string;
  updated_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    customer_limits: CustomerLimitsTable;
  }
}

export type CustomerLimitsRow = Selectable<CustomerLimitsTable>;

export const customerLimitsRepository = {
  async find(db: Executor, mode: KeyMode, tier: number, currency: string): Promise<CustomerLimitsRow | undefined> {
    return db.selectFrom('customer_limits').selectAll().where('mode', '=', mode).where('tier', '=', tier).where('currency', '=', currency).executeTakeFirst();
  },

  async list(db: Executor): Promise<CustomerLimitsRow[]> {
    return db.selectFrom('customer_limits').selectAll().orderBy('mode').orderBy('tier').orderBy('currency').execute();
  },

  async save(db: Executor, row: CustomerLimitsRow): Promise<void> {
    const { mode: _m, tier: _t, currency: _c, ...rest } = row;
    await db
      .insertInto('customer_limits')
      .values(row)
      .onConflict((oc) => oc.columns(['mode', 'tier', 'currency']).doUpdateSet(rest))
      .execute();
  },
};
