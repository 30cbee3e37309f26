// The payouts module: money out of a merchant's available balance to mobile money, exactly once.
export { createPayoutsService, type PayoutsService } from './payouts.service.ts';
export { startPayoutScheduler } from './payouts.workers.ts';
export { Payout, PayoutEvent } from './payouts.schema.ts';
export { default as payoutsRoutes } from './payouts.routes.ts';
export { payoutsDashboardRoutes } from './payouts.dashboard.ts';
