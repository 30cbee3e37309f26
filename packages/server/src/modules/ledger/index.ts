// The ledger module: accounts, balanced transfers, wallets and balances, verification.
export {
  type AccountRow,
  type Balance,
  type ClearingOf,
  createLedgerService,
  type LedgerReport,
  type LedgerService,
  type PostingInput,
  verifyLedger,
  type WalletView,
} from './ledger.service.ts';
export { default as ledgerRoutes } from './ledger.routes.ts';
