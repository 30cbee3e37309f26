import { DAY } from '../../platform/clock.ts';
import { csvStream, textCell } from '../../platform/csv.ts';
import { type Executor, readExecutor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { IdFactory } from '../../platform/ids.ts';
import { assertCurrency, type Currency, formatAmount } from '../../platform/money.ts';
import type { Scope } from '../../platform/tenancy.ts';
import type { LedgerService } from '../ledger/index.ts';
import { type BalanceTransactionRow, balancesRepository as repo, type ListFilter, type NewEntry } from './balances.repository.ts';
import type { BalanceTransaction, ExportBalanceTransactionsQuery, ListBalanceTransactionsQuery, MerchantBalance } from './balances.schema.ts';

export function balanceTransactionView(row: BalanceTransactionRow): BalanceTransaction {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    object: 'balance_transaction',
    type: row.type,
    amount: formatAmount(row.amount_minor, currency),
    currency,
    balanceAfter: formatAmount(row.balance_after_minor, currency),
    source: row.source_id,
    description: row.description,
    status: row.status,
    availableOn: row.available_on.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}

/** A new statement row, with its id: every movement of the merchant's money writes some. */
export function statementEntry(ids: IdFactory) {
  return (e: Omit<NewEntry, 'id'>): NewEntry => ({ id: ids('balanceTransaction'), ...e });
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A `from`/`to` bound: a UTC date (a `to` date includes its whole day) or an RFC 3339 time. */
export function periodBound(value: string | undefined, param: 'from' | 'to'): Date | undefined {
  if (value === undefined) return undefined;
  const invalid = () =>
    new ApiError('validation_error', `${param} must be a date (2026-11-23) or an RFC 3339 time (2026-11-23T10:00:00Z)`, {
      param,
      errors: [{ param, message: 'not a date or time' }],
    });
  if (DATE.test(value)) {
    const day = new Date(`${value}T00:00:00.000Z`);
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) throw invalid();
    return param === 'to' ? new Date(day.getTime() + DAY) : day;
  }
  if (!TIME.test(value)) throw invalid();
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw invalid();
  return at;
}

function filterOf(scope: Scope, q: { from?: string; to?: string; type?: ListFilter['type']; currency?: string }): ListFilter {
  const from = periodBound(q.from, 'from');
  const to = periodBound(q.to, 'to');
  if (from && to && from >= to)
    throw new ApiError('validation_error', '`from` must be before `to`', { param: 'from', errors: [{ param: 'from', message: 'after to' }] });
  return {
    merchantId: scope.merchantId,
    mode: scope.mode,
    type: q.type,
    currency: q.currency === undefined ? undefined : assertCurrency(q.currency),
    from,
    to,
  };
}

/** How Caisse reached the provider for each of these statement sources (a payment, refund or payout), by source id. */
export type SourceAccounts = (executor: Executor, sourceIds: readonly string[]) => Promise<ReadonlyMap<string, { connector: string; providerAccount: string }>>;

/** What the merchant reads of its money: the balance per currency and the statement, listed or as CSV. */
export function createBalanceStatement(deps: Pick<Deps, 'db'>, ledger: Pick<LedgerService, 'merchantBalances'>, sourceAccounts?: SourceAccounts) {
  const { db } = deps;
  return {
    /** GET /balance: available and pending per currency, in the key's mode. */
    async balance(scope: Scope): Promise<MerchantBalance> {
      const [available, pending, reserved, releases] = await Promise.all([
        ledger.merchantBalances(scope.merchantId, scope.mode, db, 'merchant_balance'),
        ledger.merchantBalances(scope.merchantId, scope.mode, db, 'merchant_pending'),
        ledger.merchantBalances(scope.merchantId, scope.mode, db, 'merchant_reserve'),
        repo.nextReleases(db, scope.merchantId, scope.mode),
      ]);
      const currencies = [...new Set([...available, ...pending].map((b) => b.currency))].sort();
      const zero = (c: string) => formatAmount(0n, c as Currency);
      return {
        object: 'balance',
        livemode: scope.mode === 'live',
        available,
        pending,
        reserved,
        balances: currencies.map((currency) => {
          const next = releases.find((r) => r.currency === currency)?.release_on;
          return {
            currency,
            available: available.find((b) => b.currency === currency)?.amount ?? zero(currency),
            pending: pending.find((b) => b.currency === currency)?.amount ?? zero(currency),
            reserved: reserved.find((b) => b.currency === currency)?.amount ?? zero(currency),
            nextReleaseOn: next ? new Date(next).toISOString() : null,
          };
        }),
      };
    },

    /** GET /balance/transactions: the statement, newest first. */
    async list(scope: Scope, q: ListBalanceTransactionsQuery) {
      const limit = q.limit ?? 20;
      const rows = await repo.list(readExecutor(db), filterOf(scope, q), { limit, startingAfter: q.startingAfter });
      if (!rows) throw new ApiError('not_found', `No balance transaction ${q.startingAfter}`, { param: 'startingAfter' });
      return { object: 'list' as const, data: rows.slice(0, limit).map(balanceTransactionView), hasMore: rows.length > limit };
    },

    /**
     * GET /balance/transactions.csv: the statement of a period, oldest first, as RFC 4180 CSV
     * (header row, CRLF, amounts as decimal strings, ISO times), read and written in batches so a
     * long period streams. Checks the query before the first byte. The last two columns say how
     * Caisse reached the provider for the row's payment, refund or payout (empty: the wallet).
     */
    exportCsv(scope: Scope, q: ExportBalanceTransactionsQuery): NodeJS.ReadableStream {
      const filter = filterOf(scope, q);
      const columns = [
        'id',
        'created_at',
        'type',
        'source',
        'description',
        'currency',
        'amount',
        'balance_after',
        'status',
        'available_on',
        'connector',
        'provider_account',
      ];
      return csvStream(columns, async (write) => {
        let after = 0n;
        for (;;) {
          const batch = await repo.batchAfter(readExecutor(db), filter, after, 1000);
          const sources = [...new Set(batch.flatMap((r) => (r.source_id === null ? [] : [r.source_id])))];
          const accounts = sourceAccounts === undefined || sources.length === 0 ? new Map() : await sourceAccounts(readExecutor(db), sources);
          for (const row of batch) {
            const v = balanceTransactionView(row);
            const how = row.source_id === null ? undefined : accounts.get(row.source_id);
            await write([
              v.id,
              v.createdAt,
              v.type,
              v.source ?? '',
              textCell(v.description),
              v.currency,
              v.amount,
              v.balanceAfter,
              v.status,
              v.availableOn,
              how?.connector ?? '',
              how?.providerAccount ?? '',
            ]);
          }
          if (batch.length < 1000) return;
          after = (batch[batch.length - 1] as BalanceTransactionRow).seq;
        }
      });
    },
  };
}
