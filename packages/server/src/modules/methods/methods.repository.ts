import type { Generated } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import { prepare } from '../../platform/prepared.ts';
import type { KeyMode, Scope } from '../../platform/tenancy.ts';

export interface PaymentMethodSettingsTable {
  merchant_id: string;
  mode: KeyMode;
  wallet: boolean;
  /** Null: the default (every configured provider that serves the merchant's country). */
  providers: string[] | null;
  /** The merchant's order for checkout: these first, then the others in the country's default order (null: the default). */
  provider_order: string[] | null;
  /** The operator's cap (decision 0044): the wallet allowed, and the providers allowed (null: all). */
  allowed_wallet: Generated<boolean>;
  allowed_providers: string[] | null;
  /** The operator who set the cap last (null: never set). */
  allowed_by: string | null;
  updated_at: Date;
}

/** A merchant's row in one mode: its own choice and the operator's cap. */
export interface MethodsRow {
  wallet: boolean;
  providers: string[] | null;
  provider_order: string[] | null;
  allowed_wallet: boolean;
  allowed_providers: string[] | null;
}

declare module '../../platform/database.ts' {
  interface Database {
    payment_method_settings: PaymentMethodSettingsTable;
  }
}

// The wallet charge's read of the operator's cap: prepared once, sent ahead with the wallet's lock.
const walletCap = prepare((db, p: { merchantId: string; mode: KeyMode }) =>
  db.selectFrom('payment_method_settings').select(['allowed_wallet', 'wallet']).where('merchant_id', '=', p.merchantId).where('mode', '=', p.mode),
);

export const methodsRepository = {
  /**
   * Whether the operator allows the wallet and the merchant offers it (both true without a row),
   * sent ahead: await it with the transaction's other reads.
   */
  walletAllowedAhead(db: Executor, scope: Scope): Promise<{ allowed: boolean; offered: boolean }> {
    return walletCap
      .ahead(db, { merchantId: scope.merchantId, mode: scope.mode })
      .then((rows) => ({ allowed: rows[0]?.allowed_wallet ?? true, offered: rows[0]?.wallet ?? true }));
  },

  async find(db: Executor, scope: Scope, opts: { forUpdate?: boolean } = {}): Promise<MethodsRow | undefined> {
    const q = db
      .selectFrom('payment_method_settings')
      .select(['wallet', 'providers', 'provider_order', 'allowed_wallet', 'allowed_providers'])
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode);
    return (opts.forUpdate ? q.forUpdate() : q).executeTakeFirst();
  },

  async upsert(
    db: Executor,
    scope: Scope,
    row: { wallet: boolean; providers: string[] | null; provider_order: string[] | null; updated_at: Date },
  ): Promise<void> {
    await db
      .insertInto('payment_method_settings')
      .values({ merchant_id: scope.merchantId, mode: scope.mode, ...row })
      .onConflict((oc) => oc.columns(['merchant_id', 'mode']).doUpdateSet(row))
      .execute();
  },

  /** The operator's cap; a merchant without a row keeps the default choice (the wallet, every provider). */
  async upsertAllowance(
    db: Executor,
    scope: Scope,
    row: { allowed_wallet: boolean; allowed_providers: string[] | null; allowed_by: string; updated_at: Date },
  ): Promise<void> {
    await db
      .insertInto('payment_method_settings')
      .values({ merchant_id: scope.merchantId, mode: scope.mode, wallet: true, providers: null, ...row })
      .onConflict((oc) => oc.columns(['merchant_id', 'mode']).doUpdateSet(row))
      .execute();
  },
};
