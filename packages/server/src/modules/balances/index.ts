// The balances module: a merchant's pending and available money, its statement, settlement.
export { type BalancesService, createBalancesService } from './balances.service.ts';
export { startSettlement } from './balances.settler.ts';
export { default as balancesRoutes } from './balances.routes.ts';
export { balancesDashboardRoutes } from './balances.dashboard.ts';
