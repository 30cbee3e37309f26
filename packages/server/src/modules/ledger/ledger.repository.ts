import { type Generated, type Selectable, sql } from 'kysely';
import { DEFERRED, type Executor } from '../../platform/db.ts';
import { prepare } from '../../platform/prepared.ts';
import type { Currency } from '../../platform/money.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

/**
 * A merchant's money is `merchant_pending` (charges not yet settled) or `merchant_balance` (what
 * is available to pay out); `merchant_reserve` the rolling reserve held from its charges;
 * `payout_transit` holds a payout until the provider decides it, and `refund_transit` a refund
 * to mobile money (or a late payment to return) likewise.
 */
export type AccountKind =
  | 'user_wallet'
  | 'merchant_balance'
  | 'merchant_pending'
  | 'merchant_reserve'
  | 'payout_transit'
  | 'refund_transit'
  | 'external'
  | 'platform_revenue'
  | PlatformAccountKind;
/** Accounts of the platform itself (no merchant): a provider account's clearing account. */
export type PlatformAccountKind = 'provider_clearing';

export interface LedgerAccountsTable {
  id: string;
  /** Null for the platform's own accounts. */
  merchant_id: string | null;
  /** A clearing account's provider account (`pac_…`); null for a merchant's or user's account. */
  name: string | null;
  /** A clearing account's connector (migration 0082); null otherwise. */
  connector: Generated<string | null>;
  mode: KeyMode;
  kind: AccountKind;
  user_id: string | null;
  currency: Currency;
  balance: Generated<bigint>;
  created_at: Date;
}

export interface LedgerTransfersTable {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  kind: string;
  reference: string | null;
  created_at: Date;
}

export interface LedgerPostingsTable {
  id: Generated<bigint>;
  transfer_id: string;
  account_id: string;
  currency: Currency;
  amount: bigint;
  created_at: Date;
}

declare module '../../platform/database.ts' {
  interface Database {
    ledger_accounts: LedgerAccountsTable;
    ledger_transfers: LedgerTransfersTable;
    ledger_postings: LedgerPostingsTable;
  }
}

export type AccountRow = Selectable<LedgerAccountsTable>;
export type TransferRow = Selectable<LedgerTransfersTable>;

export interface Movement {
  transfer_id: string;
  /** The merchant the movement was made with. */
  merchant_id: string;
  kind: string;
  reference: string | null;
  currency: Currency;
  amount: bigint;
  created_at: Date;
}

export interface BalanceDifference {
  account_id: string;
  kind: AccountKind;
  currency: string;
  balance: bigint;
  postings_sum: bigint;
}

export interface UnbalancedTransfer {
  transfer_id: string;
  currency: string;
  sum: bigint;
}

// On every direct mobile-money payment: compiled once (platform/prepared.ts), sent ahead. The kinds
// are literals, so that the partial indexes (platform accounts, merchant accounts) match a prepared plan.
const findCollectionAccounts = prepare(
  (db, p: { merchantId: string; mode: KeyMode; providerAccount: string; currency: Currency }) => sql<AccountRow>`
    select * from ledger_accounts
    where merchant_id is null and mode = ${p.mode} and kind = 'provider_clearing' and name = ${p.providerAccount} and currency = ${p.currency}
    union all
    select * from ledger_accounts
    where kind in ('merchant_pending', 'platform_revenue', 'merchant_reserve') and merchant_id = ${p.merchantId} and mode = ${p.mode} and currency = ${p.currency}`,
);

export const ledgerRepository = {
  /** Creates the account if it does not exist (concurrent callers both get the one row). */
  async ensureAccount(db: Executor, row: Omit<LedgerAccountsTable, 'balance' | 'name' | 'connector'>): Promise<AccountRow> {
    const conflict = row.kind === 'user_wallet' ? (['user_id', 'currency'] as const) : (['merchant_id', 'mode', 'kind', 'currency'] as const);
    await db
      .insertInto('ledger_accounts')
      .values({ ...row, name: null })
      // The partial indexes' predicates as literals: PostgreSQL infers the arbiter index when it
      // parses the statement, before it sees parameters (a prepared statement has none yet).
      .onConflict((oc) => {
        const target = oc.columns([...conflict]);
        return target.where(row.kind === 'user_wallet' ? sql<boolean>`kind = 'user_wallet'` : sql<boolean>`kind <> 'user_wallet'`).doNothing();
      })
      .execute();
    let q = db.selectFrom('ledger_accounts').selectAll().where('kind', '=', row.kind).where('currency', '=', row.currency);
    q = row.kind === 'user_wallet' ? q.where('user_id', '=', row.user_id) : q.where('merchant_id', '=', row.merchant_id).where('mode', '=', row.mode);
    return q.executeTakeFirstOrThrow();
  },

  /** A platform account (no merchant), created if it does not exist. */
  async ensurePlatformAccount(
    db: Executor,
    row: Omit<LedgerAccountsTable, 'balance' | 'merchant_id' | 'user_id' | 'name' | 'connector'> & {
      kind: PlatformAccountKind;
      name: string;
      connector: string;
    },
  ): Promise<AccountRow> {
    await db
      .insertInto('ledger_accounts')
      .values({ ...row, merchant_id: null, user_id: null })
      .onConflict((oc) =>
        oc
          .columns(['mode', 'kind', 'name', 'currency'])
          .where(sql<boolean>`merchant_id is null`)
          .doNothing(),
      )
      .execute();
    return db
      .selectFrom('ledger_accounts')
      .selectAll()
      .where('merchant_id', 'is', null)
      .where('mode', '=', row.mode)
      .where('kind', '=', row.kind)
      .where('name', '=', row.name)
      .where('currency', '=', row.currency)
      .executeTakeFirstOrThrow();
  },

  async findAccount(
    db: Executor,
    q: { merchantId: string; mode: KeyMode; kind: AccountKind; currency: Currency; userId?: string },
  ): Promise<AccountRow | undefined> {
    let query = db
      .selectFrom('ledger_accounts')
      .selectAll()
      .where('merchant_id', '=', q.merchantId)
      .where('mode', '=', q.mode)
      .where('kind', '=', q.kind)
      .where('currency', '=', q.currency);
    if (q.userId !== undefined) query = query.where('user_id', '=', q.userId);
    return query.executeTakeFirst();
  },

  async userAccounts(db: Executor, userId: string): Promise<AccountRow[]> {
    return db.selectFrom('ledger_accounts').selectAll().where('user_id', '=', userId).orderBy('currency').execute();
  },

  async merchantAccounts(db: Executor, merchantId: string, mode: KeyMode, kind: AccountKind): Promise<AccountRow[]> {
    return db
      .selectFrom('ledger_accounts')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('kind', '=', kind)
      .orderBy('currency')
      .execute();
  },

  /**
   * Locks the accounts for the rest of the transaction, always in one order — user wallets first,
   * then the others (merchant balances, external accounts), each group by id — so two transfers
   * over the same accounts queue instead of deadlocking. A charge follows the same order: it locks
   * the wallet, and the merchant balance last, by writing it (see `lockPaymentAccounts`).
   */
  async lockAccounts(db: Executor, ids: string[]): Promise<AccountRow[]> {
    return db
      .selectFrom('ledger_accounts')
      .selectAll()
      .where('id', 'in', ids)
      .orderBy(sql`kind <> 'user_wallet'`)
      .orderBy('id')
      .forUpdate()
      .execute();
  },

  /**
   * The user's wallet in one currency, locked for the rest of the transaction, the merchant's
   * pending account in that currency (a charge's net is pending until settled) and the platform's
   * revenue from the merchant (the fee), read without a lock, in one statement. One that does not exist yet
   * is missing from the answer. The merchant balance is every charge's account: it is locked only
   * by the write at the end of the charge, so that charges of one merchant hold its lock for as
   * little as possible (that write and the commit).
   */
  async lockPaymentAccounts(db: Executor, q: { merchantId: string; mode: KeyMode; userId: string; currency: Currency }): Promise<AccountRow[]> {
    const result = await sql<AccountRow>`
      with wallet as (
        select * from ledger_accounts where kind = 'user_wallet' and user_id = ${q.userId} and currency = ${q.currency} for update
      )
      select * from wallet
      union all
      select * from ledger_accounts
      where kind in ('merchant_pending', 'platform_revenue') and merchant_id = ${q.merchantId} and mode = ${q.mode} and currency = ${q.currency}`.execute(db);
    return result.rows;
  },

  /**
   * The provider account's clearing account and the merchant's pending, revenue and reserve accounts in one
   * currency, those that exist, read without a lock and sent ahead (Prepared.ahead): what a direct
   * mobile-money payment moves money between. The transfer's write locks them.
   */
  collectionAccountsAhead(db: Executor, q: { merchantId: string; mode: KeyMode; providerAccount: string; currency: Currency }): Promise<AccountRow[]> {
    return findCollectionAccounts.ahead(db, q);
  },

  /**
   * Writes a transfer: its row, its postings, and each posting's amount added to its account's
   * balance (locking, in the one lock order, the accounts the caller had not locked), in one statement. Each account
   * appears once. Returns the balances after it.
   */
  /** `deferred`: sent with the transaction's next statement (DEFERRED); it answers no rows then. */
  async writeTransfer(
    db: Executor,
    transfer: LedgerTransfersTable,
    postings: Omit<LedgerPostingsTable, 'id'>[],
    opts: { deferred?: boolean } = {},
  ): Promise<{ id: string; balance: bigint }[]> {
    const rows = sql.join(postings.map((p) => sql`(${p.transfer_id}, ${p.account_id}, ${p.currency}, ${p.amount.toString()}::bigint, ${p.created_at})`));
    const accountIds = sql.join(postings.map((p) => sql`${p.account_id}`));
    // `locked` takes the rows not locked yet in lockAccounts' order (the update waits on none of
    // its own): a charge and a refund of one merchant never lock its accounts crosswise.
    const result = await sql<{ id: string; balance: bigint }>`${sql.raw(opts.deferred === true ? DEFERRED : '')}
      with locked as (
        select id from ledger_accounts where id in (${accountIds}) order by (kind <> 'user_wallet'), id for update
      ), transfer as (
        insert into ledger_transfers (id, merchant_id, mode, kind, reference, created_at)
        values (${transfer.id}, ${transfer.merchant_id}, ${transfer.mode}, ${transfer.kind}, ${transfer.reference}, ${transfer.created_at})
      ), postings as (
        insert into ledger_postings (transfer_id, account_id, currency, amount, created_at) values ${rows}
        returning account_id, amount
      )
      update ledger_accounts a set balance = a.balance + p.amount from postings p join locked l on l.id = p.account_id where a.id = p.account_id
      returning a.id, a.balance`.execute(db);
    return result.rows;
  },

  /** The accounts' latest movements, newest first; with `merchantId`, only that merchant's transfers. */
  async movements(db: Executor, accountIds: string[], limit: number, merchantId?: string): Promise<Movement[]> {
    if (accountIds.length === 0) return [];
    let query = db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_transfers as t', 't.id', 'p.transfer_id')
      .select(['p.transfer_id', 't.merchant_id', 't.kind', 't.reference', 'p.currency', 'p.amount', 'p.created_at'])
      .where('p.account_id', 'in', accountIds);
    if (merchantId !== undefined) query = query.where('t.merchant_id', '=', merchantId);
    return query.orderBy('p.id', 'desc').limit(limit).execute();
  },

  async transfersByReference(db: Executor, reference: string): Promise<TransferRow[]> {
    return db.selectFrom('ledger_transfers').selectAll().where('reference', '=', reference).orderBy('id').execute();
  },

  // --- verification ---------------------------------------------------------------------------

  /** Accounts whose stored balance is not the sum of their postings. */
  async balanceDifferences(db: Executor): Promise<BalanceDifference[]> {
    const result = await sql<BalanceDifference>`
      select a.id as account_id, a.kind, a.currency, a.balance, coalesce(s.total, 0)::bigint as postings_sum
      from ledger_accounts a
      left join (select account_id, sum(amount) as total from ledger_postings group by account_id) s on s.account_id = a.id
      where a.balance <> coalesce(s.total, 0)
      order by a.id`.execute(db);
    return result.rows;
  },

  /** Transfers whose postings do not sum to zero in a currency. */
  async unbalancedTransfers(db: Executor): Promise<UnbalancedTransfer[]> {
    const result = await sql<UnbalancedTransfer>`
      select transfer_id, currency, sum(amount)::bigint as sum
      from ledger_postings group by transfer_id, currency having sum(amount) <> 0
      order by transfer_id, currency`.execute(db);
    return result.rows;
  },

  /** Postings in another currency than their account's. */
  async currencyMismatches(db: Executor): Promise<{ posting_id: bigint; account_id: string }[]> {
    const result = await sql<{ posting_id: bigint; account_id: string }>`
      select p.id as posting_id, p.account_id from ledger_postings p
      join ledger_accounts a on a.id = p.account_id where a.currency <> p.currency order by p.id`.execute(db);
    return result.rows;
  },

  async negativeWallets(db: Executor): Promise<{ account_id: string; balance: bigint }[]> {
    const result = await sql<{ account_id: string; balance: bigint }>`
      select id as account_id, balance from ledger_accounts where kind = 'user_wallet' and balance < 0 order by id`.execute(db);
    return result.rows;
  },

  async merchantMoney(db: Executor): Promise<{ merchant_id: string; mode: KeyMode; currency: string; total: bigint }[]> {
    const result = await sql<{ merchant_id: string; mode: KeyMode; currency: string; total: bigint }>`
      select merchant_id, mode, currency, sum(balance)::bigint as total from ledger_accounts
      where kind in ('merchant_balance', 'merchant_pending') group by merchant_id, mode, currency`.execute(db);
    return result.rows;
  },

  /** Every merchant's rolling reserve per mode and currency. */
  async reserveMoney(db: Executor): Promise<{ merchant_id: string; mode: KeyMode; currency: string; total: bigint }[]> {
    const result = await sql<{ merchant_id: string; mode: KeyMode; currency: string; total: bigint }>`
      select merchant_id, mode, currency, balance as total from ledger_accounts where kind = 'merchant_reserve'`.execute(db);
    return result.rows;
  },

  /** Every account kind's total per mode and currency, with how many accounts hold it. */
  async totals(db: Executor): Promise<{ kind: AccountKind; mode: KeyMode; currency: Currency; total: bigint; accounts: bigint }[]> {
    const result = await sql<{ kind: AccountKind; mode: KeyMode; currency: Currency; total: bigint; accounts: bigint }>`
      select kind, mode, currency, sum(balance)::bigint as total, count(*)::bigint as accounts from ledger_accounts
      group by kind, mode, currency order by mode, currency, kind`.execute(db);
    return result.rows;
  },

  /**
   * What the platform's fee revenue accounts received (fees less fees given back) per UTC day,
   * mode, currency and merchant, in [from, to).
   */
  async feeRevenue(
    db: Executor,
    q: { mode?: KeyMode; currency?: string; from: Date; to: Date },
  ): Promise<{ day: string; mode: KeyMode; currency: Currency; merchant_id: string; total: bigint; transfers: bigint }[]> {
    const result = await sql<{ day: string; mode: KeyMode; currency: Currency; merchant_id: string; total: bigint; transfers: bigint }>`
      select to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, a.mode, a.currency, a.merchant_id,
             sum(p.amount)::bigint as total, count(distinct p.transfer_id)::bigint as transfers
      from ledger_postings p join ledger_accounts a on a.id = p.account_id
      where a.kind = 'platform_revenue' and p.created_at >= ${q.from} and p.created_at < ${q.to}
        ${q.mode === undefined ? sql`` : sql`and a.mode = ${q.mode}`}
        ${q.currency === undefined ? sql`` : sql`and a.currency = ${q.currency}`}
      group by 1, a.mode, a.currency, a.merchant_id
      order by 1, a.mode, a.currency, a.merchant_id`.execute(db);
    return result.rows;
  },

  async counts(db: Executor): Promise<{ accounts: number; transfers: number; postings: number }> {
    const result = await sql<{ accounts: bigint; transfers: bigint; postings: bigint }>`
      select (select count(*) from ledger_accounts) as accounts,
             (select count(*) from ledger_transfers) as transfers,
             (select count(*) from ledger_postings) as postings`.execute(db);
    const row = result.rows[0] as { accounts: bigint; transfers: bigint; postings: bigint };
    return { accounts: Number(row.accounts), transfers: Number(row.transfers), postings: Number(row.postings) };
  },
};
