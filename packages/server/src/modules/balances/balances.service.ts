import type { Deps } from '../../platform/deps.ts';
import type { LedgerService } from '../ledger/index.ts';
import { createBalanceCharges } from './balances.charges.ts';
import { createBalancePayouts } from './balances.payouts.ts';
import { createBalanceRefunds } from './balances.refunds.ts';
import { createBalanceReserve } from './balances.reserve.ts';
import { createBalanceSettlement } from './balances.settlement.ts';
import { createBalanceStatement, type SourceAccounts } from './balances.statement.ts';
import { createBalanceVerification } from './balances.verify.ts';

/**
 * The merchant's money (docs/spec/money-out.md): pending (charges within the settlement delay) and
 * available, in the ledger as two accounts per currency; the balance statement, one row per
 * movement with the total after it, written in the transaction of the movement; the settlement
 * worker's moves of what matured; the payouts' debits and credits of `available`. Each use case
 * is its own file, built here once with what it uses.
 */
export function createBalancesService(deps: Deps, collaborators: { ledger: LedgerService; sourceAccounts?: SourceAccounts }) {
  const { ledger } = collaborators;
  return {
    ...createBalanceSettlement(deps, ledger),
    ...createBalanceReserve(deps, ledger),
    ...createBalanceCharges(deps),
    ...createBalanceRefunds(deps, ledger),
    ...createBalancePayouts(deps, ledger),
    ...createBalanceStatement(deps, ledger, collaborators.sourceAccounts),
    ...createBalanceVerification(deps, ledger),
  };
}

export type BalancesService = ReturnType<typeof createBalancesService>;
