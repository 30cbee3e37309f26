/**
 * Reconciliation (docs/spec/money-out.md): our top-ups and payouts against the provider's records. The
 * module's only public entry.
 */
export { compareRequest, type Verdict } from './reconciliation.compare.ts';
export { createReconciliationService, type ReconciliationService } from './reconciliation.service.ts';
export type {
  AccountReconciliation,
  AttemptSource,
  InFlight,
  Mismatch,
  MismatchKind,
  OurRequest,
  OurSide,
  PayoutSource,
  ProviderSide,
  ReconcileQuery,
  ReconciledObject,
  ReconciliationReport,
  ReconciliationRunView,
  RefundSource,
  RequestSource,
  TopupSource,
  Unverified,
} from './reconciliation.types.ts';
export { parseStatement, STATEMENT_COLUMNS } from './reconciliation.statement.ts';
