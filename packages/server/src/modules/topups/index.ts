// The top-ups module: money into a customer's wallet by mobile money, exactly once.
export { createTopupsService, MAX_PENDING_TOPUPS, TOPUP_TIMEOUT_MS, type TopupsService, topupView } from './topups.service.ts';
export { CreateTopupBody, ListTopupsQuery, Topup, TopupIdParams, TopupList } from './topups.schema.ts';
export type { TopupRow } from './topups.repository.ts';
export { default as topupsRoutes } from './topups.routes.ts';
