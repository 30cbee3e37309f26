import type { Db, Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type Currency, formatAmount, type MinorUnits, minorUnits } from '../../platform/money.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import { type AccountKind, type AccountRow, ledgerRepository as repo } from './ledger.repository.ts';

export type { AccountKind, AccountRow } from './ledger.repository.ts';

export interface PostingInput {
  accountId: string;
  /** Signed minor units: positive credits the account (its balance grows), negative debits it. */
  amount: bigint;
}

interface TransferBase {
  merchantId: string;
  mode: KeyMode;
  /** What the transfer is: `funding`, `charge`, `refund`, … (shown in wallet movements). */
  kind: string;
  /** What caused it (an intent id, a refund id); transfers can be looked up by it. */
  reference?: string | null;
  /** When given, every account of the transfer must be in this currency. */
  currency?: Currency;
  /** The transfer's id, when the caller needs it before the transfer is written (default: a new one). */
  id?: string;
}

/**
 * Whose clearing account: the provider account (`pac_…`) a request was made with, and its
 * connector (shown with the account). Every provider request records both.
 */
export interface ClearingOf {
  providerAccount: string;
  connector: string;
}

/**
 * Either explicit postings (signed), or a simple move of `amount` from one account to another: an
 * amount, so a `MinorUnits` (a negative one would move money the other way).
 */
export type TransferInput = TransferBase & ({ postings: PostingInput[] } | { from: string; to: string; amount: MinorUnits });

export interface TransferResult {
  id: string;
  postings: { accountId: string; currency: Currency; amount: bigint; balanceAfter: bigint }[];
}

export interface Balance {
  currency: Currency;
  amount: string;
}

export interface WalletView {
  object: 'wallet';
  userId: string;
  livemode: boolean;
  balances: Balance[];
  movements: { transferId: string; merchantId: string; kind: string; reference: string | null; currency: Currency; amount: string; createdAt: string }[];
}

export interface LedgerDifference {
  type: 'balance' | 'unbalanced_transfer' | 'currency_mismatch' | 'negative_wallet' | 'statement';
  id: string;
  detail: string;
}

export interface LedgerReport {
  ok: boolean;
  accounts: number;
  transfers: number;
  postings: number;
  differences: LedgerDifference[];
}

/** One line of the platform's totals: an account kind's sum in a mode and currency. */
export interface LedgerTotal {
  kind: AccountKind;
  mode: KeyMode;
  currency: Currency;
  amount: string;
  minor: string;
  accounts: number;
}

/** One line of the fee revenue report: what a merchant's fees brought the platform on a UTC day. */
export interface FeeRevenueDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  mode: KeyMode;
  currency: Currency;
  merchantId: string;
  amount: string;
  minor: string;
  /** How many transfers moved fee revenue that day (charges, and refunds giving a fee back). */
  transfers: number;
}

/** Postgres: a CHECK constraint refused the row. */
const CHECK_VIOLATION = '23514';

function postingsOf(input: TransferInput): PostingInput[] {
  if ('postings' in input) return input.postings;
  return [
    { accountId: input.from, amount: -input.amount },
    { accountId: input.to, amount: input.amount },
  ];
}

export function balancesOf(accounts: AccountRow[]): Balance[] {
  return accounts.map((a) => ({ currency: a.currency, amount: formatAmount(a.balance, a.currency) }));
}

/**
 * Recomputes every balance from the postings, and checks that every transfer sums to zero per
 * currency, that postings match their account's currency and that no wallet is negative. Runs on
 * one snapshot (repeatable read), so it can run while transfers go on.
 */
export async function verifyLedger(db: Db): Promise<LedgerReport> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (tx) => {
      const differences: LedgerDifference[] = [];
      for (const d of await repo.balanceDifferences(tx)) {
        differences.push({
          type: 'balance',
          id: d.account_id,
          detail: `${d.kind} ${d.currency}: balance ${d.balance} but postings sum to ${d.postings_sum} (difference ${BigInt(d.balance) - BigInt(d.postings_sum)})`,
        });
      }
      for (const t of await repo.unbalancedTransfers(tx)) {
        differences.push({ type: 'unbalanced_transfer', id: t.transfer_id, detail: `postings in ${t.currency} sum to ${t.sum}, not 0` });
      }
      for (const m of await repo.currencyMismatches(tx)) {
        differences.push({
          type: 'currency_mismatch',
          id: String(m.posting_id),
          detail: `posting ${m.posting_id} is not in the currency of account ${m.account_id}`,
        });
      }
      for (const w of await repo.negativeWallets(tx)) {
        differences.push({ type: 'negative_wallet', id: w.account_id, detail: `user wallet balance is ${w.balance}` });
      }
      return { ok: differences.length === 0, ...(await repo.counts(tx)), differences };
    });
}

/**
 * The double-entry ledger. Accounts: one wallet per user and currency, one merchant balance and
 * one external (funding) account per merchant, mode and currency. A transfer writes postings
 * that sum to zero per currency and updates the balances in the caller's transaction, under row
 * locks taken in id order.
 */
export function createLedgerService(deps: Pick<Deps, 'db' | 'clock' | 'ids'>) {
  const { db, clock, ids } = deps;

  function ensure(executor: Executor, q: { merchantId: string; mode: KeyMode; kind: AccountKind; currency: Currency; userId?: string }) {
    return repo.ensureAccount(executor, {
      id: ids('account'),
      merchant_id: q.merchantId,
      mode: q.mode,
      kind: q.kind,
      user_id: q.kind === 'user_wallet' ? (q.userId ?? null) : null,
      currency: q.currency,
      created_at: clock.now(),
    });
  }

  function providerClearing(executor: Executor, q: { mode: KeyMode; currency: Currency } & ClearingOf) {
    return repo.ensurePlatformAccount(executor, {
      id: ids('account'),
      mode: q.mode,
      kind: 'provider_clearing',
      name: q.providerAccount,
      connector: q.connector,
      currency: q.currency,
      created_at: clock.now(),
    });
  }

  /**
   * Moves money: postings that sum to zero per currency, written with the new balances in the
   * caller's transaction. The accounts are locked first (`lockAccounts`' order), unless the caller
   * passes them as it read them in this transaction (`known`, as `paymentAccounts` gives them):
   * then its user wallets must be locked already (their balance is checked against going below
   * zero), and the other accounts are locked by the write itself. `deferred` (with `known`): the
   * write rides with the transaction's next statement or its COMMIT, and `balanceAfter` is what
   * `known` said plus the posting (exact for the locked wallets only): for a caller that reads no
   * balance back, like the charge, whose transfer is its last write.
   */
  async function transfer(tx: Tx, input: TransferInput, known?: readonly AccountRow[], opts: { deferred?: boolean } = {}): Promise<TransferResult> {
    const postings = postingsOf(input);
    if (postings.length < 2) throw new Error('a transfer needs at least two postings');
    for (const p of postings) {
      if (typeof p.amount !== 'bigint' || p.amount === 0n) throw new Error('posting amounts are non-zero bigints');
    }
    const accountIds = [...new Set(postings.map((p) => p.accountId))];
    if (accountIds.length !== postings.length) throw new Error('an account appears twice in one transfer');

    const accounts = new Map((known ?? (await repo.lockAccounts(tx, accountIds))).map((a) => [a.id, a]));
    const sums = new Map<Currency, bigint>();
    for (const p of postings) {
      const account = accounts.get(p.accountId);
      if (!account) throw new Error(`no ledger account ${p.accountId}`);
      // A wallet is the customer's, used with every merchant of its mode; a platform account
      // (merchant_id null) serves every merchant; other accounts are one merchant's.
      if (account.mode !== input.mode || (account.kind !== 'user_wallet' && account.merchant_id !== null && account.merchant_id !== input.merchantId)) {
        throw new Error(`account ${p.accountId} belongs to another merchant or mode`);
      }
      if (input.currency !== undefined && account.currency !== input.currency) throw new Error(`account ${p.accountId} is not in ${input.currency}`);
      sums.set(account.currency, (sums.get(account.currency) ?? 0n) + p.amount);
    }
    for (const [currency, sum] of sums) {
      if (sum !== 0n) throw new Error(`postings in ${currency} sum to ${sum}, not 0`);
    }
    const result: TransferResult = { id: input.id ?? ids('transfer'), postings: [] };
    for (const p of postings) {
      const account = accounts.get(p.accountId) as AccountRow;
      const after = account.balance + p.amount;
      if (account.kind === 'user_wallet' && after < 0n) {
        throw new ApiError(
          'insufficient_funds',
          `The wallet holds ${formatAmount(account.balance, account.currency)} ${account.currency}, less than the ${formatAmount(-p.amount, account.currency)} ${account.currency} needed`,
        );
      }
      result.postings.push({ accountId: account.id, currency: account.currency, amount: p.amount, balanceAfter: after });
    }

    const now = clock.now();
    // Written in lockAccounts' order too (wallets first, then by id): postings read back in order.
    const ordered = [...result.postings].sort((a, b) => {
      const wa = accounts.get(a.accountId)?.kind === 'user_wallet' ? 0 : 1;
      const wb = accounts.get(b.accountId)?.kind === 'user_wallet' ? 0 : 1;
      return wa - wb || (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0);
    });
    const header = { id: result.id, merchant_id: input.merchantId, mode: input.mode, kind: input.kind, reference: input.reference ?? null, created_at: now };
    const rows = ordered.map((p) => ({ transfer_id: result.id, account_id: p.accountId, currency: p.currency, amount: p.amount, created_at: now }));
    if (opts.deferred === true && known !== undefined) {
      // A wallet below zero would fail the COMMIT (the database's own guard), but the wallets are
      // locked and were checked above.
      await repo.writeTransfer(tx, header, rows, { deferred: true });
      return result;
    }
    let written: { id: string; balance: bigint }[];
    try {
      written = await repo.writeTransfer(tx, header, rows);
    } catch (err) {
      // The database's own guard: a wallet cannot go below zero even if the check above erred.
      if ((err as { code?: string }).code === CHECK_VIOLATION) throw new ApiError('insufficient_funds', 'The wallet does not hold enough');
      throw err;
    }
    // The balances as written: exact also for accounts the caller had read without a lock.
    for (const p of result.postings) p.balanceAfter = written.find((w) => w.id === p.accountId)?.balance ?? p.balanceAfter;
    return result;
  }

  return {
    transfer,

    /**
     * What a charge moves money between, created when missing: the user's wallet in a currency,
     * locked for the rest of the transaction, the merchant's pending account and the platform's
     * revenue from the merchant (the fee), read without a lock
     * (the transfer's write locks it: do it last in the transaction, so that the merchant's other
     * charges wait for as little as possible). One statement when they exist. Pass them on to
     * `transfer` as `known`.
     */
    async paymentAccounts(tx: Tx, q: { merchantId: string; mode: KeyMode; userId: string; currency: Currency }) {
      let rows = await repo.lockPaymentAccounts(tx, q);
      if (rows.length < 3) {
        await ensure(tx, { ...q, kind: 'user_wallet' });
        await ensure(tx, { ...q, kind: 'merchant_pending' });
        await ensure(tx, { ...q, kind: 'platform_revenue' });
        rows = await repo.lockPaymentAccounts(tx, q);
      }
      const wallet = rows.find((a) => a.kind === 'user_wallet');
      const balance = rows.find((a) => a.kind === 'merchant_pending');
      const revenue = rows.find((a) => a.kind === 'platform_revenue');
      if (!wallet || !balance || !revenue) throw new Error('the payment accounts could not be made');
      return { wallet, balance, revenue, accounts: rows };
    },

    /**
     * What a direct mobile-money payment moves money between: its provider account's clearing account, the
     * merchant's pending account, and its revenue and reserve accounts when the fee and the reserve
     * take a share. Read without a lock in one statement, sent ahead (await it with `allAhead`);
     * what it answers is a function that gives the accounts the payment needs, creating one that
     * is missing (a merchant's first payment in a currency). Pass their `accounts` to `transfer` as
     * `known`: its write locks them, so the clearing and pending rows, which every payment of the
     * provider and of the merchant needs, are held from that write to the commit only.
     */
    async collectionAccounts(tx: Tx, q: { merchantId: string; mode: KeyMode; currency: Currency } & ClearingOf) {
      const found = await repo.collectionAccountsAhead(tx, q);
      const of = (kind: AccountKind) => found.find((a) => a.kind === kind);
      const merchant = { merchantId: q.merchantId, mode: q.mode, currency: q.currency };
      return async (share: { fee: boolean; reserve: boolean }) => {
        const clearing = of('provider_clearing') ?? (await providerClearing(tx, q));
        const pending = of('merchant_pending') ?? (await ensure(tx, { ...merchant, kind: 'merchant_pending' }));
        const revenue = share.fee ? (of('platform_revenue') ?? (await ensure(tx, { ...merchant, kind: 'platform_revenue' }))) : undefined;
        const reserve = share.reserve ? (of('merchant_reserve') ?? (await ensure(tx, { ...merchant, kind: 'merchant_reserve' }))) : undefined;
        return { clearing, pending, revenue, reserve, accounts: [clearing, pending, ...(revenue ? [revenue] : []), ...(reserve ? [reserve] : [])] };
      };
    },

    /** The user's wallet in a currency, created when missing. */
    userWallet: (executor: Executor, q: { merchantId: string; mode: KeyMode; userId: string; currency: Currency }) =>
      ensure(executor, { ...q, kind: 'user_wallet' }),
    /** The platform's fee revenue from this merchant in a currency, created when missing. */
    platformRevenue: (executor: Executor, q: { merchantId: string; mode: KeyMode; currency: Currency }) => ensure(executor, { ...q, kind: 'platform_revenue' }),
    /** The merchant's available balance in a currency, created when missing. */
    merchantBalance: (executor: Executor, q: { merchantId: string; mode: KeyMode; currency: Currency }) => ensure(executor, { ...q, kind: 'merchant_balance' }),
    /** The merchant's pending balance (charges not yet settled) in a currency, created when missing. */
    merchantPending: (executor: Executor, q: { merchantId: string; mode: KeyMode; currency: Currency }) => ensure(executor, { ...q, kind: 'merchant_pending' }),
    /** The merchant's rolling reserve in a currency (held from its charges, released later), created when missing. */
    merchantReserve: (executor: Executor, q: { merchantId: string; mode: KeyMode; currency: Currency }) => ensure(executor, { ...q, kind: 'merchant_reserve' }),
    /** Where a merchant's payouts wait for the provider's answer, created when missing. */
    payoutTransit: (executor: Executor, q: { merchantId: string; mode: KeyMode; currency: Currency }) => ensure(executor, { ...q, kind: 'payout_transit' }),
    /** Where a merchant's refunds to mobile money (and late payments to return) wait for the provider's answer, created when missing. */
    refundTransit: (executor: Executor, q: { merchantId: string; mode: KeyMode; currency: Currency }) => ensure(executor, { ...q, kind: 'refund_transit' }),
    /** Locks accounts for the rest of the transaction, in the ledger's one lock order. */
    lockAccounts: (tx: Tx, accountIds: string[]) => repo.lockAccounts(tx, accountIds),
    /** Where money comes from outside the ledger (test funding, top-ups), created when missing. */
    externalAccount: (executor: Executor, q: { merchantId: string; mode: KeyMode; currency: Currency }) => ensure(executor, { ...q, kind: 'external' }),

    /**
     * A provider account's clearing account in a mode and currency (the float held at the
     * provider under that account), created when missing: a top-up moves money from it into a
     * wallet, a payout back into it. Always the account of the request that moved the money
     * (docs/decisions/0078-clearing-health-reconciliation-per-provider-account.md).
     */
    providerClearing,

    /** The merchant's balances per currency in one kind of account (available: merchant_balance). */
    async merchantBalances(
      merchantId: string,
      mode: KeyMode,
      executor: Executor = db,
      kind: 'merchant_balance' | 'merchant_pending' | 'merchant_reserve' = 'merchant_balance',
    ): Promise<Balance[]> {
      return balancesOf(await repo.merchantAccounts(executor, merchantId, mode, kind));
    },
    /** The merchant's accounts of one kind (minor units), for the balance module. */
    merchantAccounts: (merchantId: string, mode: KeyMode, kind: AccountKind, executor: Executor = db) =>
      repo.merchantAccounts(executor, merchantId, mode, kind),

    transfersByReference: (reference: string, executor: Executor = db) => repo.transfersByReference(executor, reference),

    /** Moves `amount` from the external account into the user's wallet, in the caller's transaction. */
    async fund(tx: Tx, q: { merchantId: string; mode: KeyMode; userId: string; currency: Currency; amount: MinorUnits; reference?: string }) {
      const wallet = await ensure(tx, { ...q, kind: 'user_wallet' });
      const external = await ensure(tx, { ...q, kind: 'external' });
      return transfer(tx, {
        merchantId: q.merchantId,
        mode: q.mode,
        kind: 'funding',
        reference: q.reference ?? null,
        from: external.id,
        to: wallet.id,
        amount: q.amount,
      });
    },

    /**
     * The customer's balances and latest movements. `merchantId` (a merchant's key asks): only the
     * movements made with that merchant, since the merchant's own page holds the answer; without
     * it (the customer's own account page), every movement.
     */
    async wallet(q: { userId: string; mode: KeyMode; merchantId?: string }, executor: Executor = db, movementsLimit = 20): Promise<WalletView> {
      const accounts = await repo.userAccounts(executor, q.userId);
      const movements = await repo.movements(
        executor,
        accounts.map((a) => a.id),
        movementsLimit,
        q.merchantId,
      );
      return {
        object: 'wallet',
        userId: q.userId,
        livemode: q.mode === 'live',
        balances: balancesOf(accounts),
        movements: movements.map((m) => ({
          transferId: m.transfer_id,
          merchantId: m.merchant_id,
          kind: m.kind,
          reference: m.reference,
          currency: m.currency,
          amount: formatAmount(m.amount, m.currency),
          createdAt: m.created_at.toISOString(),
        })),
      };
    },

    /** A customer's wallet balance in a currency, in minor units (0 without a wallet): the customer limits. */
    async walletMinor(executor: Executor, userId: string, currency: string): Promise<MinorUnits> {
      // A wallet never goes below zero (the table's CHECK), so its balance is an amount.
      return minorUnits((await repo.userAccounts(executor, userId)).find((a) => a.currency === currency)?.balance ?? 0n);
    },

    verify: () => verifyLedger(db),

    /**
     * The platform's money per mode and currency, by account kind, read on one snapshot: amounts
     * as decimal strings of the currency, `minor` in minor units (what the operator console shows).
     */
    async totals(): Promise<LedgerTotal[]> {
      const rows = await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute((tx) => repo.totals(tx));
      return rows.map((r) => ({
        kind: r.kind,
        mode: r.mode,
        currency: r.currency,
        amount: formatAmount(BigInt(r.total), r.currency),
        minor: BigInt(r.total).toString(),
        accounts: Number(r.accounts),
      }));
    },

    /**
     * The platform's fee revenue per UTC day, mode, currency and merchant in [from, to), read on
     * one snapshot: amounts as decimal strings of the currency, `minor` in minor units (as totals).
     */
    async feeRevenue(q: { mode?: KeyMode; currency?: string; from: Date; to: Date }): Promise<FeeRevenueDay[]> {
      const rows = await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute((tx) => repo.feeRevenue(tx, q));
      return rows.map((r) => ({
        day: r.day,
        mode: r.mode,
        currency: r.currency,
        merchantId: r.merchant_id,
        amount: formatAmount(BigInt(r.total), r.currency),
        minor: BigInt(r.total).toString(),
        transfers: Number(r.transfers),
      }));
    },

    /** Every merchant's money (available + pending) per mode and currency, minor units. */
    merchantMoney: (executor: Executor = db) => repo.merchantMoney(executor),
    /** Every merchant's rolling reserve per mode and currency, minor units. */
    reserveMoney: (executor: Executor = db) => repo.reserveMoney(executor),
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
