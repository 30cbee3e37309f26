// The top-ups module: money into a customer's wallet by mobile money, exactly once.
export { createTopupsService, type TopupsService } from './topups.service.ts';
export { Topup } from './topups.schema.ts';
export { default as topupsRoutes } from './topups.routes.ts';
