import { DAY } from '../../platform/clock.ts';
import { csvStream } from '../../platform/csv.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { instantOf } from '../../platform/http/dashboard-api.ts';
import { type Currency, formatAmount } from '../../platform/money.ts';
import type { LedgerReport, LedgerService } from '../ledger/index.ts';
import type { ReconciliationService } from '../reconciliation/index.ts';
import type { RecordAudit } from './operators.audit.ts';
import type { OperatorSession } from './operators.sessions.ts';

/** The fee report's period when none is given, and the longest one asked at once. */
const FEES_DEFAULT_DAYS = 30;
const FEES_MAX_DAYS = 366;

/** The fee report's filters (GET /operator/api/money/fees). */
export interface FeesFilter {
  mode?: 'test' | 'live';
  currency?: string;
  from?: string;
  to?: string;
}

/** The platform's money from the ledger: totals, fee revenue, the providers' reconciliations, and the books' check. */
export function createOperatorMoney(
  deps: Pick<Deps, 'db' | 'clock'>,
  collaborators: {
    ledger: Pick<LedgerService, 'totals' | 'feeRevenue'>;
    verifyBooks: () => Promise<LedgerReport>;
    reconciliation: Pick<ReconciliationService, 'latest'>;
  },
  record: RecordAudit,
) {
  const { db, clock } = deps;
  const { ledger, verifyBooks, reconciliation } = collaborators;

  /** The report's period: `to` defaults to the end of today (UTC, so today counts whole), `from` to 30 days before; a year at most. */
  function feePeriod(q: FeesFilter): { from: Date; to: Date } {
    const to = instantOf(q.to, 'to') ?? new Date(Math.floor(clock.now().getTime() / DAY) * DAY + DAY);
    const from = instantOf(q.from, 'from') ?? new Date(to.getTime() - FEES_DEFAULT_DAYS * DAY);
    if (from >= to) throw new ApiError('validation_error', 'from must be before to', { param: 'from' });
    if (to.getTime() - from.getTime() > FEES_MAX_DAYS * DAY)
      throw new ApiError('validation_error', `The period is ${FEES_MAX_DAYS} days at most`, { param: 'from' });
    return { from, to };
  }

  return {
    /** The platform's money per mode and currency, by ledger account kind. */
    async money() {
      return { object: 'operator_money' as const, totals: await ledger.totals() };
    },

    /** Fee revenue per UTC day, mode, currency and merchant, with the period's totals. */
    async fees(q: FeesFilter) {
      const period = feePeriod(q);
      const data = await ledger.feeRevenue({ ...period, mode: q.mode, currency: q.currency });
      const sums = new Map<string, { mode: 'test' | 'live'; currency: Currency; minor: bigint }>();
      for (const d of data) {
        const key = `${d.mode}:${d.currency}`;
        const sum = sums.get(key) ?? { mode: d.mode, currency: d.currency, minor: 0n };
        sum.minor += BigInt(d.minor);
        sums.set(key, sum);
      }
      const totals = [...sums.values()].map((t) => ({
        mode: t.mode,
        currency: t.currency,
        amount: formatAmount(t.minor, t.currency),
        minor: t.minor.toString(),
      }));
      return { object: 'operator_fees' as const, from: period.from.toISOString(), to: period.to.toISOString(), data, totals };
    },

    /** The same report as a CSV download, one row per day, mode, currency and merchant. */
    feesCsv(q: FeesFilter): NodeJS.ReadableStream {
      const period = feePeriod(q);
      return csvStream(['day', 'mode', 'currency', 'merchant_id', 'amount', 'amount_minor', 'transfers'], async (write) => {
        for (const d of await ledger.feeRevenue({ ...period, mode: q.mode, currency: q.currency })) {
          await write([d.day, d.mode, d.currency, d.merchantId, d.amount, d.minor, d.transfers]);
        }
      });
    },

    /** The newest reconciliation of each provider and mode (`caisse reconcile` records each). */
    reconciliations: async () => ({ object: 'list' as const, data: await reconciliation.latest() }),

    /** Runs `ledger verify` now (the books and the balance statements); the run and its outcome go to the audit log. */
    async verifyLedger(s: OperatorSession) {
      const report = await verifyBooks();
      const result = { ok: report.ok, accounts: report.accounts, transfers: report.transfers, postings: report.postings, differences: report.differences };
      await record(db, s, { action: 'ledger.verified', targetType: 'ledger', after: { ok: report.ok, differences: report.differences.length } });
      return { object: 'ledger_verification' as const, ...result };
    },
  };
}
