/**
 * Reconciliation (docs/spec/money-out.md): our top-ups and payouts against the provider's records. The
 * module's only public entry.
 */
export { createReconciliationService, type ReconciliationService } from './reconciliation.service.ts';
export type { AccountReconciliation, AttemptSource, OurRequest, PayoutSource, ReconcileQuery, ReconciliationReport } from './reconciliation.types.ts';
export { parseStatement } from './reconciliation.statement.ts';
