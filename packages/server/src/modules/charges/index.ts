// The charges module: the charge (authorization + ledger transfer + state change) and refunds.
export * from './charges.service.ts';
export * from './charges.schema.ts';
export { default as chargesRoutes } from './charges.routes.ts';
export { startChargeRollup, ROLLUP_INTERVAL_MS } from './charges.rollup.ts';
export { type AttemptsService, createAttemptsService } from './charges.attempts.ts';
export { ATTEMPT_TIMEOUT_MS, MAX_PAYMENT_ATTEMPTS } from './charges.attempts.settle.ts';
export { attemptView, directPayments } from './charges.attempts.views.ts';
export { createMobileRefunds, LATE_PAYMENT_REASON, type ManualReturnView, manualReturnView, type MobileRefunds } from './charges.refunds.ts';
export { registerManualReturnMetrics } from './charges.metrics.ts';
export { createRecordedRefunds, type RecordedRefunds, recordedRefundView } from './charges.recorded.ts';
export { RECORDED_REFUND_METHODS, type RecordedRefundMethod } from './charges.recorded.repository.ts';
