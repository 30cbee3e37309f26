import { DAY } from '../../platform/clock.ts';
import type { Deps } from '../../platform/deps.ts';
import { type Currency, minorUnits } from '../../platform/money.ts';
import type { MerchantContext, Scope } from '../../platform/tenancy.ts';
import type { LedgerService } from '../ledger/index.ts';
import { balancesRepository as repo } from './balances.repository.ts';
import { statementEntry } from './balances.statement.ts';

/** Pending rows one settlement transfer moves at most. */
const SETTLE_BATCH = 500;
/** A bound later than every date: everything pending is due. */
const FOREVER = new Date(8.64e15);

/**
 * Settlement: when a charge's money becomes available, the settlement worker's moves of what
 * matured from pending to available, and its releases of the rolling reserve's due holds.
 */
export function createBalanceSettlement(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
  ledger: Pick<LedgerService, 'merchantPending' | 'merchantBalance' | 'merchantReserve' | 'transfer'>,
) {
  const { db, clock, config } = deps;
  const entry = statementEntry(deps.ids);

  async function settle(until: Date, groups: number, only?: Scope): Promise<number> {
    let settled = 0;
    for (const g of await repo.dueGroups(db, until, groups, only)) {
      settled += await db.transaction().execute(async (tx) => {
        const rows = await repo.claimDue(tx, g, until, SETTLE_BATCH);
        if (rows.length === 0) return 0;
        const scope = { merchantId: g.merchant_id, mode: g.mode };
        const currency = g.currency as Currency;
        const sum = rows.reduce((s, r) => s + r.amount_minor, 0n);
        let transferId: string | null = null;
        if (sum !== 0n) {
          const pending = await ledger.merchantPending(tx, { ...scope, currency });
          const available = await ledger.merchantBalance(tx, { ...scope, currency });
          const [from, to] = sum > 0n ? [pending, available] : [available, pending];
          transferId = (
            await ledger.transfer(tx, {
              ...scope,
              kind: 'settlement',
              reference: null,
              currency,
              from: from.id,
              to: to.id,
              amount: minorUnits(sum > 0n ? sum : -sum),
            })
          ).id;
        }
        await repo.markAvailable(
          tx,
          rows.map((r) => r.id),
          transferId,
          clock.now(),
        );
        return rows.length;
      });
    }
    return settled;
  }

  /**
   * Releases due reserve holds of up to `groups` merchants and currencies: what each still holds
   * goes from the reserve to available in one ledger transfer per group, a `reserve_release` row
   * per hold, and the holds are marked released in that transaction (so once, whatever crashes).
   */
  async function release(until: Date, groups: number): Promise<number> {
    let released = 0;
    for (const g of await repo.dueHoldGroups(db, until, groups)) {
      released += await db.transaction().execute(async (tx) => {
        const holds = await repo.claimDueHolds(tx, g, until, SETTLE_BATCH);
        if (holds.length === 0) return 0;
        const scope = { merchantId: g.merchant_id, mode: g.mode };
        const currency = g.currency as Currency;
        const sum = holds.reduce((s, h) => s + h.remaining_minor, 0n);
        let transferId: string | null = null;
        if (sum > 0n) {
          const reserve = await ledger.merchantReserve(tx, { ...scope, currency });
          const available = await ledger.merchantBalance(tx, { ...scope, currency });
          transferId = (
            await ledger.transfer(tx, {
              ...scope,
              kind: 'reserve_release',
              reference: null,
              currency,
              from: reserve.id,
              to: available.id,
              amount: minorUnits(sum),
            })
          ).id;
          const now = clock.now();
          const entries = holds
            .filter((h) => h.remaining_minor > 0n)
            .map((h) =>
              entry({
                type: 'reserve_release',
                amount: h.remaining_minor,
                sourceId: h.source_id,
                transferId,
                description: `Reserve released for payment ${h.source_id}`,
                status: 'available',
                availableOn: now,
              }),
            );
          await repo.record(tx, { ...scope, currency }, entries, now);
        }
        await repo.markReleased(
          tx,
          holds.map((h) => h.id),
          clock.now(),
          transferId,
        );
        return holds.length;
      });
    }
    return released;
  }

  return {
    /** When a charge made now becomes available: the merchant's delay, else the configured one. */
    availableOn(merchant: Pick<MerchantContext, 'settlementDelayDays'>, at: Date = clock.now()): Date {
      const days = merchant.settlementDelayDays ?? config.settlementDelayDays;
      return new Date(at.getTime() + days * DAY);
    },

    /**
     * One settlement round: for up to `groups` merchants and currencies with matured pending rows,
     * moves their sum from pending to available in one ledger transfer and marks them available.
     * Returns how many rows it settled.
     */
    settleDue: (groups = 20) => settle(clock.now(), groups),

    /** One round of reserve releases (the settlement worker runs it after `settleDue`); how many holds it released. */
    releaseDue: (groups = 20) => release(clock.now(), groups),

    /** Settles all of a merchant's pending money now (the test-mode helper). */
    async settleNow(scope: Scope): Promise<number> {
      let total = 0;
      for (;;) {
        const n = await settle(FOREVER, 20, scope);
        total += n;
        if (n === 0) return total;
      }
    },
  };
}
