/**
 * Reconciliation (docs/spec/money-out.md): our top-ups and payouts against the provider's records. The
 * module's only public entry.
 */
export {
  type AccountReconciliation,
  type AttemptSource,
  compareRequest,
  createReconciliationService,
  type InFlight,
  type Mismatch,
  type MismatchKind,
  type OurRequest,
  type OurSide,
  type PayoutSource,
  type ProviderSide,
  type ReconcileQuery,
  type ReconciledObject,
  type ReconciliationReport,
  type ReconciliationRunView,
  type ReconciliationService,
  type RefundSource,
  type RequestSource,
  type TopupSource,
  type Unverified,
  type Verdict,
} from './reconciliation.service.ts';
export { parseStatement, STATEMENT_COLUMNS } from './reconciliation.statement.ts';
