import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Currency } from '../../platform/money.ts';
import type { Scope } from '../../platform/tenancy.ts';
import { balancesRepository as repo } from './balances.repository.ts';
import { statementEntry } from './balances.statement.ts';

/** Money in: a charge's rows on the merchant's statement, and its reserve hold. */
export function createBalanceCharges(deps: Pick<Deps, 'clock' | 'ids'>) {
  const { clock, ids } = deps;
  const entry = statementEntry(ids);
  return {
    /**
     * A charge's rows (gross, then its fee, then the reserve's share), pending until `availableOn`,
     * in the charge's transaction; with a reserve, its hold until `reserve.releaseOn`.
     */
    async recordCharge(
      tx: Tx,
      scope: Scope,
      c: {
        intentId: string;
        currency: Currency;
        amount: bigint;
        fee: bigint;
        transferId: string;
        availableOn: Date;
        reserve?: { amount: bigint; releaseOn: Date };
      },
    ) {
      const common = { sourceId: c.intentId, transferId: c.transferId, status: 'pending' as const, availableOn: c.availableOn };
      const entries = [entry({ ...common, type: 'charge', amount: c.amount, description: `Payment ${c.intentId}` })];
      if (c.fee !== 0n) entries.push(entry({ ...common, type: 'fee', amount: -c.fee, description: `Fee for payment ${c.intentId}` }));
      const reserve = c.reserve;
      if (reserve && reserve.amount > 0n) {
        const until = reserve.releaseOn.toISOString().slice(0, 10);
        entries.push(entry({ ...common, type: 'reserve', amount: -reserve.amount, description: `Reserve for payment ${c.intentId}, held until ${until}` }));
        await repo.insertHold(tx, {
          id: ids('reserveHold'),
          merchant_id: scope.merchantId,
          mode: scope.mode,
          currency: c.currency,
          source_id: c.intentId,
          amount_minor: reserve.amount,
          remaining_minor: reserve.amount,
          release_on: reserve.releaseOn,
          created_at: clock.now(),
        });
      }
      await repo.record(tx, { ...scope, currency: c.currency }, entries, clock.now());
    },
  };
}
