// Provider accounts (docs/spec/provider-accounts.md, decision 0075): the accounts operators add per connector, mode and
// countries, and the connector source that chooses among them by the merchant's country.
export { type CheckResult, createProviderAccounts, type ProviderAccountInput, type ProviderAccountsService } from './provideraccounts.service.ts';
export {
  AddProviderAccountBody,
  ProviderAccountCheck,
  ProviderAccountIdParams,
  ProviderAccountList,
  ProviderAccountSchema,
} from './provideraccounts.schema.ts';
