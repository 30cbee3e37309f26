import type { Executor } from '../../platform/db.ts';
import type { KeyMode, Scope } from '../../platform/tenancy.ts';

export interface PaymentMethodSettingsTable {
  merchant_id: string;
  mode: KeyMode;
  wallet: boolean;
  /** Null: the default (every configured provider that serves the merchant's country). */
  providers: string[] | null;
  updated_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    payment_method_settings: PaymentMethodSettingsTable;
  }
}

export const methodsRepository = {
  async find(db: Executor, scope: Scope): Promise<{ wallet: boolean; providers: string[] | null } | undefined> {
    return db
      .selectFrom('payment_method_settings')
      .select(['wallet', 'providers'])
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .executeTakeFirst();
  },

  async upsert(db: Executor, scope: Scope, row: { wallet: boolean; providers: string[] | null; updated_at: Date }): Promise<void> {
    await db
      .insertInto('payment_method_settings')
      .values({ merchant_id: scope.merchantId, mode: scope.mode, ...row })
      .onConflict((oc) => oc.columns(['merchant_id', 'mode']).doUpdateSet(row))
      .execute();
  },
};
