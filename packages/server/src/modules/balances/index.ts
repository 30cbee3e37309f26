// The balances module: a merchant's pending and available money, its statement, settlement.
export { type BalancesService, createBalancesService } from './balances.service.ts';
export { balanceTransactionView, periodBound } from './balances.statement.ts';
export { startSettlement, SETTLEMENT_INTERVAL_MS } from './balances.settler.ts';
export {
  BalanceTransaction,
  BalanceTransactionList,
  BalanceTransactionTypeSchema,
  ExportBalanceTransactionsQuery,
  ListBalanceTransactionsQuery,
  MerchantBalance,
  PeriodQuery,
} from './balances.schema.ts';
export { default as balancesRoutes } from './balances.routes.ts';
export { balancesDashboardRoutes } from './balances.dashboard.ts';
