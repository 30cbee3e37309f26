// Provider accounts (docs/spec/provider-accounts.md, decision 0075): the accounts operators add per connector, mode and
// countries, and the connector source that chooses among them by the merchant's country.
export {
  type AccountSource,
  type CheckResult,
  createProviderAccounts,
  maskSecret,
  type ProviderAccountInput,
  type ProviderAccountsService,
  type ProviderAccountView,
  type Within,
} from './provideraccounts.service.ts';
export type { LastCheck } from './provideraccounts.repository.ts';
export {
  AddProviderAccountBody,
  ProviderAccountCheck,
  ProviderAccountIdParams,
  ProviderAccountList,
  ProviderAccountSchema,
} from './provideraccounts.schema.ts';
