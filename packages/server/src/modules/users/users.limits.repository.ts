import type { Selectable } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import { prepare } from '../../platform/prepared.ts';
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

// The payment path's read of a payment cap: prepared once, sent ahead with the wallet's lock.
const paymentCap = prepare((db, p: { mode: KeyMode; tier: number; currency: string }) =>
  db.selectFrom('customer_limits').select('max_payment_minor').where('mode', '=', p.mode).where('tier', '=', p.tier).where('currency', '=', p.currency),
);

export const customerLimitsRepository = {
  /** The payment cap, sent ahead (see `prepare`'s `ahead`): await it with the transaction's other reads. */
  paymentCapAhead(db: Executor, mode: KeyMode, tier: number, currency: string): Promise<bigint | null> {
    return paymentCap.ahead(db, { mode, tier, currency }).then((rows) => rows[0]?.max_payment_minor ?? null);
  },

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
