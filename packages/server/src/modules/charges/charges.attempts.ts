import type { Deps } from '../../platform/deps.ts';
import { attemptsRepository as repo } from './charges.attempts.repository.ts';
import { createAttemptLifecycle, type SettlementCollaborators } from './charges.attempts.settle.ts';
import { createAttemptStart, type StartCollaborators } from './charges.attempts.start.ts';
import { attemptView } from './charges.attempts.views.ts';

/**
 * Paying an intent directly with mobile money (docs/spec/mobile-money-payments.md), on the connectors' one request
 * lifecycle: the attempt and its reference commit with the intent's move to PROCESSING; the
 * provider is called after; the provider's own status decides the attempt once, under its row
 * lock, with the intent's change, the ledger transfer and the event in that transaction. Each use
 * case is its own file, built here once with what it uses.
 */
export function createAttemptsService(deps: Deps, collaborators: SettlementCollaborators & StartCollaborators) {
  const { db } = deps;
  const lifecycle = createAttemptLifecycle(deps, collaborators);
  return {
    lifecycle,
    pollDue: (n?: number) => lifecycle.pollDue(n),
    drain: () => lifecycle.drain(),

    ...createAttemptStart(deps, collaborators, lifecycle),

    /** An intent's attempts, oldest first (the dashboard's payment detail). */
    listForIntent: async (intentId: string) => (await repo.listForIntent(db, intentId)).map(attemptView),

    /** Retention: erases the card holder's details of up to `limit` attempts decided before `before`; how many. */
    eraseCardholdersBefore: (before: Date, limit: number) => repo.eraseCardholdersBefore(db, before, limit),

    /** Every attempt of a provider created in [from, to), for reconciliation. */
    listForProvider: (provider: string, from: Date, to: Date) => repo.listForProvider(db, provider, from, to),
  };
}

export type AttemptsService = ReturnType<typeof createAttemptsService>;
