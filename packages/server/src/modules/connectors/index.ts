/**
 * Mobile-money connectors (docs/spec/money-in.md): the module's only public entry. Other modules import
 * this file and nothing else from modules/connectors/.
 */
export type {
  CallbackResult,
  Connector,
  ConnectorDeps,
  ConnectorKind,
  IncomingCallback,
  ListedRequest,
  PaymentCustomer,
  PaymentRequest,
  StatusResult,
  SubmitResult,
} from './connectors.types.ts';
export { newReference } from './connectors.references.ts';
export { callbackDecision, type Decision, decisionOf } from './connectors.decisions.ts';
export { sameAccount, sandboxAccountId } from './connectors.accounts.ts';
export {
  type ConnectorRegistry,
  type ConnectorSource,
  connectorDefinitions,
  connectorSettings,
  platformAccountConnector,
  providerUnavailable,
  pollBackoffMs,
  createModeConnectors,
  DEFAULT_PROVIDER_ORDER,
  intentCurrencies,
  type ModeConnectors,
  isMethodProvider,
  isProviderName,
  methodProviderNames,
  paymentMethodCatalogue,
  providerNames,
  type ProviderName,
  registerConnector,
} from './connectors.registry.ts';
export type { AccountCallback, ConnectorDefinition, MountedSandbox, SandboxMountContext } from './connectors.definition.ts';
export { readAccountSettings } from './connectors.settings.ts';
export type { PaymentMethodInfo } from './connectors.methods.ts';
export { registerProviderMetrics } from './connectors.metrics.ts';
export { checkConnector, checkEnvironmentAccounts, checkLiveSettings, sandboxDefaultsInUse } from './connectors.golive.ts';
export {
  CARD_METHOD,
  checkAmountBounds,
  fitMessage,
  isAcceptableMessage,
  isPaymentMethod,
  type ProviderDescription,
  refundRefusal,
  servedMethods,
} from './connectors.description.ts';
export {
  assertProviderTakes,
  capabilitiesOf,
  connectorServes,
  connectorsServing,
  describeMethod,
  describeProvider,
  lacksOf,
  methodPrefixes,
  methodServesNumber,
  methodsServed,
  operatorName,
  providerDescriptions,
  providersServing,
  refreshLacks,
  servedCurrencies,
  servesNumber,
} from './connectors.catalog.ts';
export { lookupNumber } from './connectors.numbering.ts';
export { testNumbers } from './connectors.testnumbers.ts';
export { formatProvidersReport, parseProviderHealth, providersReport } from './connectors.report.ts';
export type { CancelResult, KnownRequest, ProviderHandle } from './connectors.types.ts';
/** Each connector's one object, for the harnesses that drive its sandbox (`sandbox.of(…)`). */
export { MTN_MOMO_CONNECTOR } from './mtn-momo/index.ts';
export { ORANGE_MONEY_CONNECTOR } from './orange-money/index.ts';
export { WAVE_CONNECTOR } from './wave/index.ts';
export { CINETPAY_CONNECTOR } from './cinetpay/index.ts';
export { PAWAPAY_CONNECTOR } from './pawapay/index.ts';
export { runSandbox, type Sandbox, sandboxHelp, sandboxSecrets, startLocalSandbox, startSandbox } from './sandbox/sandbox.ts';
export { SANDBOX_SECRETS_FILE } from './sandbox/sandbox.secrets.ts';
export { PROVIDER_OUTCOMES, watched } from './connectors.health.ts';
