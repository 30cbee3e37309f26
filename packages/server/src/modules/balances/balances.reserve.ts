import { DAY } from '../../platform/clock.ts';
import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { feeReturned, reserveOf } from '../../platform/fees.ts';
import { type Currency, minorUnits } from '../../platform/money.ts';
import type { MerchantContext, Scope } from '../../platform/tenancy.ts';
import type { AccountRow, LedgerService } from '../ledger/index.ts';
import { balancesRepository as repo } from './balances.repository.ts';

/** The rolling reserve: the share of a charge it holds, and what refunds draw on its holds. */
export function createBalanceReserve(deps: Pick<Deps, 'clock'>, ledger: Pick<LedgerService, 'merchantBalance' | 'merchantReserve' | 'lockAccounts'>) {
  const { clock } = deps;
  return {
    /**
     * The rolling reserve's share of a charge's net for this merchant (0 when it has none), and
     * when it is released: `days` after the charge.
     */
    reserveFor(merchant: Pick<MerchantContext, 'reserve'>, net: bigint, at: Date = clock.now()): { amount: bigint; releaseOn: Date } {
      const terms = merchant.reserve;
      if (!terms) return { amount: 0n, releaseOn: at };
      // A net below zero holds nothing back, as reserveOf does for zero.
      return { amount: reserveOf(minorUnits(net > 0n ? net : 0n), terms.bps), releaseOn: new Date(at.getTime() + terms.days * DAY) };
    },

    /**
     * How much of a refund's `debit` (what leaves the merchant) the reserve covers, when it comes
     * out of available: the part available cannot cover (all of it when available is at or below
     * zero), as far as the unreleased holds go, taken from the holds released soonest first. The
     * holds are lowered here; the caller moves `drawn` out of the reserve account in its transfer.
     * With holds, available and the reserve are locked together, in the ledger's one order, as
     * the release locks them: a refund and a release never wait on each other in a circle.
     */
    async drawReserve(tx: Tx, scope: Scope, currency: Currency, debit: bigint): Promise<{ drawn: bigint; account: AccountRow | undefined }> {
      const group = { merchant_id: scope.merchantId, mode: scope.mode, currency };
      if (!(await repo.hasOpenHolds(tx, group))) return { drawn: 0n, account: undefined };
      const available = await ledger.merchantBalance(tx, { ...scope, currency });
      const reserve = await ledger.merchantReserve(tx, { ...scope, currency });
      const locked = await ledger.lockAccounts(tx, [available.id, reserve.id]);
      const balance = locked.find((a) => a.id === available.id)?.balance ?? 0n;
      let short = debit - (balance > 0n ? balance : 0n);
      let drawn = 0n;
      for (const hold of short > 0n ? await repo.lockOpenHolds(tx, group) : []) {
        if (short <= 0n) break;
        const take = hold.remaining_minor < short ? hold.remaining_minor : short;
        await repo.setRemaining(tx, hold.id, hold.remaining_minor - take);
        drawn += take;
        short -= take;
      }
      return { drawn, account: drawn > 0n ? reserve : undefined };
    },

    /**
     * A refund of a payment not yet settled (its money comes out of pending) takes back the same
     * share of the payment's own hold as it refunds of the payment, counted on the running total
     * as fees are (the whole hold once the whole payment is refunded): pending then keeps what
     * the charge left there, and the hold does not outlive the money it was held for.
     */
    async drawOwnHold(
      tx: Tx,
      scope: Scope,
      p: { intentId: string; currency: Currency; amount: bigint; refundedBefore: bigint; refund: bigint },
    ): Promise<{ drawn: bigint; account: AccountRow | undefined }> {
      const hold = await repo.lockHoldOf(tx, p.intentId);
      if (!hold) return { drawn: 0n, account: undefined };
      const share = feeReturned({
        amount: minorUnits(p.amount),
        fee: minorUnits(hold.amount_minor),
        refundedBefore: minorUnits(p.refundedBefore),
        refund: minorUnits(p.refund),
      });
      const drawn = share < hold.remaining_minor ? share : hold.remaining_minor;
      if (drawn <= 0n) return { drawn: 0n, account: undefined };
      await repo.setRemaining(tx, hold.id, hold.remaining_minor - drawn);
      return { drawn, account: await ledger.merchantReserve(tx, { ...scope, currency: p.currency }) };
    },
  };
}
