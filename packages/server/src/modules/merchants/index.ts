// The merchants module: merchants and their settings, API keys (and their cache), the team, dashboard accounts.
export { createMerchantsService, type MerchantsService, type TermsPatch } from './merchants.service.ts';
export { merchantsDashboardRoutes } from './merchants.dashboard.ts';
