import type { Deps } from '../../platform/deps.ts';
import type { Scope } from '../../platform/tenancy.ts';
import type { LedgerService } from '../ledger/index.ts';
import { balancesRepository as repo } from './balances.repository.ts';

/** `ledger verify`'s part of the balances: each merchant's statement and reserve holds against the ledger. */
export function createBalanceVerification(deps: Pick<Deps, 'db'>, ledger: Pick<LedgerService, 'merchantMoney' | 'reserveMoney' | 'verify'>) {
  const { db } = deps;

  /**
   * Every statement whose total is not the merchant's money in the ledger (available +
   * pending), as `ledger verify` differences (type `statement`).
   */
  async function verifyStatements(): Promise<{ type: 'statement'; id: string; detail: string }[]> {
    const key = (m: string, mode: string, c: string) => `${m} ${mode} ${c}`;
    const held = new Map((await ledger.merchantMoney()).map((r) => [key(r.merchant_id, r.mode, r.currency), r.total]));
    const stated = new Map((await repo.allTotals(db)).map((r) => [key(r.merchant_id, r.mode, r.currency), r.total_minor]));
    const out: { type: 'statement'; id: string; detail: string }[] = [];
    for (const k of new Set([...held.keys(), ...stated.keys()])) {
      const a = stated.get(k) ?? 0n;
      const b = held.get(k) ?? 0n;
      if (a !== b) out.push({ type: 'statement', id: k, detail: `the balance statement's total is ${a} but the ledger holds ${b}` });
    }
    // The rolling reserve: what the unreleased holds still hold is what the reserve account holds.
    const reserved = new Map((await ledger.reserveMoney()).map((r) => [key(r.merchant_id, r.mode, r.currency), r.total]));
    const holding = new Map((await repo.heldTotals(db)).map((r) => [key(r.merchant_id, r.mode, r.currency), r.total]));
    for (const k of new Set([...reserved.keys(), ...holding.keys()])) {
      const a = holding.get(k) ?? 0n;
      const b = reserved.get(k) ?? 0n;
      if (a !== b) out.push({ type: 'statement', id: k, detail: `the reserve's holds keep ${a} but the reserve account holds ${b}` });
    }
    return out;
  }

  return {
    verifyStatements,

    /** `ledger verify`: the books, then each merchant's balance statement against them (the CLI and the operator console). */
    async verifyBooks() {
      const books = await ledger.verify();
      const statements = await verifyStatements();
      return { ...books, ok: books.ok && statements.length === 0, differences: [...books.differences, ...statements] };
    },

    /** verifyStatements' differences of one merchant and mode. */
    async differences(scope: Scope) {
      const prefix = `${scope.merchantId} ${scope.mode} `;
      return (await verifyStatements()).filter((d) => d.id.startsWith(prefix));
    },
  };
}
