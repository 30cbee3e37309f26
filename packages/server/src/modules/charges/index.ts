// The charges module: the charge (authorization + ledger transfer + state change) and refunds.
export { type ChargesService, createChargesService, type HourFigures, refundStatusCode } from './charges.service.ts';
export { RecordedRefundBody, Refund, RefundBody } from './charges.schema.ts';
export { default as chargesRoutes } from './charges.routes.ts';
export { startChargeRollup } from './charges.rollup.ts';
export { type AttemptsService, createAttemptsService } from './charges.attempts.ts';
export { directPayments } from './charges.attempts.views.ts';
export { createMobileRefunds, type MobileRefunds } from './charges.refunds.ts';
export { registerManualReturnMetrics } from './charges.metrics.ts';
export { createRecordedRefunds, type RecordedRefunds } from './charges.recorded.ts';
