// The ledger module: accounts, balanced transfers, wallets and balances, verification.
export * from './ledger.service.ts';
export * from './ledger.schema.ts';
export { default as ledgerRoutes } from './ledger.routes.ts';
