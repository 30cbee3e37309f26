// The payouts module: money out of a merchant's available balance to mobile money, exactly once.
export { createPayoutsService, type PayoutsService } from './payouts.service.ts';
export { nextRunAfter } from './payouts.schedule.ts';
export { payoutView } from './payouts.sending.ts';
export { startPayoutScheduler } from './payouts.workers.ts';
export { Payout, PayoutEvent } from './payouts.schema.ts';
export type { PayoutRow } from './payouts.repository.ts';
export { default as payoutsRoutes } from './payouts.routes.ts';
export { payoutsDashboardRoutes } from './payouts.dashboard.ts';
