// The payouts module: money out of a merchant's available balance to mobile money, exactly once.
export { createPayoutsService, nextRunAfter, type PayoutsService, payoutView } from './payouts.service.ts';
export { startPayoutScheduler } from './payouts.workers.ts';
export * from './payouts.schema.ts';
export type { PayoutRow } from './payouts.repository.ts';
export { default as payoutsRoutes } from './payouts.routes.ts';
export { payoutsDashboardRoutes } from './payouts.dashboard.ts';
