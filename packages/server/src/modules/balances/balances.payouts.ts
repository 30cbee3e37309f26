import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type Currency, formatAmount, minorUnits } from '../../platform/money.ts';
import type { Scope } from '../../platform/tenancy.ts';
import type { AccountRow, ClearingOf, LedgerService } from '../ledger/index.ts';
import { balancesRepository as repo } from './balances.repository.ts';
import { statementEntry } from './balances.statement.ts';

/** Payouts on the merchant's balance: what is available to pay out, its debit, and the payout's outcome. */
export function createBalancePayouts(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  ledger: Pick<LedgerService, 'merchantBalance' | 'merchantAccounts' | 'lockAccounts' | 'payoutTransit' | 'providerClearing' | 'transfer'>,
) {
  const { db, clock } = deps;
  const entry = statementEntry(deps.ids);

  /** Locks the merchant's available account in a currency (created when missing) for the rest of the transaction. */
  async function lockAvailable(tx: Tx, scope: Scope, currency: Currency): Promise<AccountRow> {
    const account = await ledger.merchantBalance(tx, { ...scope, currency });
    const [locked] = await ledger.lockAccounts(tx, [account.id]);
    if (!locked) throw new Error(`no ledger account ${account.id}`);
    return locked;
  }

  return {
    /**
     * A payout's money leaves `available` (into the payout's transit account), in the payout's
     * transaction: refused with 409 `balance_insufficient` when `available` holds less. The
     * available account's row lock makes concurrent payouts queue: none overdraws it.
     */
    async debitForPayout(tx: Tx, scope: Scope, p: { payoutId: string; currency: Currency; amount: bigint; description: string }) {
      const available = await lockAvailable(tx, scope, p.currency);
      if (available.balance < p.amount) {
        const held = formatAmount(available.balance, p.currency);
        throw new ApiError(
          'balance_insufficient',
          `The available balance is ${held} ${p.currency}, less than the ${formatAmount(p.amount, p.currency)} ${p.currency} to pay out`,
          {
            param: 'amount',
            extra: { available: held, currency: p.currency },
          },
        );
      }
      const transit = await ledger.payoutTransit(tx, { ...scope, currency: p.currency });
      const transfer = await ledger.transfer(
        tx,
        { ...scope, kind: 'payout', reference: p.payoutId, currency: p.currency, from: available.id, to: transit.id, amount: minorUnits(p.amount) },
        [available, transit],
      );
      await repo.record(
        tx,
        { ...scope, currency: p.currency },
        [
          entry({
            type: 'payout',
            amount: -p.amount,
            sourceId: p.payoutId,
            transferId: transfer.id,
            description: p.description,
            status: 'available',
            availableOn: clock.now(),
          }),
        ],
        clock.now(),
      );
      return transfer;
    },

    /** The provider paid: the money leaves the merchant for the clearing account of the payout's provider account. */
    async payoutPaid(tx: Tx, scope: Scope, p: { payoutId: string; currency: Currency; amount: bigint } & ClearingOf) {
      const transit = await ledger.payoutTransit(tx, { ...scope, currency: p.currency });
      const clearing = await ledger.providerClearing(tx, {
        mode: scope.mode,
        providerAccount: p.providerAccount,
        connector: p.connector,
        currency: p.currency,
      });
      return ledger.transfer(tx, {
        ...scope,
        kind: 'payout_paid',
        reference: p.payoutId,
        currency: p.currency,
        from: transit.id,
        to: clearing.id,
        amount: minorUnits(p.amount),
      });
    },

    /** The payout failed: its money comes back to `available` (a `payout_reversal` row). */
    async payoutFailed(tx: Tx, scope: Scope, p: { payoutId: string; currency: Currency; amount: bigint; reason: string }) {
      const transit = await ledger.payoutTransit(tx, { ...scope, currency: p.currency });
      const available = await ledger.merchantBalance(tx, { ...scope, currency: p.currency });
      const transfer = await ledger.transfer(tx, {
        ...scope,
        kind: 'payout_reversal',
        reference: p.payoutId,
        currency: p.currency,
        from: transit.id,
        to: available.id,
        amount: minorUnits(p.amount),
      });
      await repo.record(
        tx,
        { ...scope, currency: p.currency },
        [
          entry({
            type: 'payout_reversal',
            amount: p.amount,
            sourceId: p.payoutId,
            transferId: transfer.id,
            description: `Payout ${p.payoutId} failed: ${p.reason}`,
            status: 'available',
            availableOn: clock.now(),
          }),
        ],
        clock.now(),
      );
      return transfer;
    },

    /** What is available now in each currency (minor units), for the payout scheduler. */
    async availableMinor(scope: Scope, executor: Executor = db): Promise<{ currency: Currency; amount: bigint }[]> {
      return (await ledger.merchantAccounts(scope.merchantId, scope.mode, 'merchant_balance', executor)).map((a) => ({
        currency: a.currency,
        amount: a.balance,
      }));
    },
  };
}
