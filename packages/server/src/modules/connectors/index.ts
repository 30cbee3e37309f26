/**
 * Mobile-money connectors (docs/spec/money-in.md): the module's only public entry. Other modules import
 * this file and nothing else from modules/connectors/.
 */
export type {
  AuthenticatedCallback,
  CallbackResult,
  CheckResult,
  Connector,
  ConnectorDeps,
  ConnectorKind,
  ConnectorLogger,
  ConnectorResult,
  IncomingCallback,
  ListedRequest,
  ListResult,
  PaymentCustomer,
  PaymentRequest,
  ProviderView,
  StatusResult,
  SubmitResult,
} from './connectors.types.ts';
export { isReference, newReference } from './connectors.references.ts';
export { callbackDecision, type Decision, decisionOf } from './connectors.decisions.ts';
export { envAccountId, legacyEnvAccountId, sameAccount, sandboxAccountId } from './connectors.accounts.ts';
export {
  acceptedCurrencies,
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
export type { AccountCallback, AccountShape, ConnectorDefinition, CredentialSpec, MountedSandbox, SandboxMountContext } from './connectors.definition.ts';
export { readAccountSettings } from './connectors.settings.ts';
export { OPERATOR_NAMES, type MethodPresentation, type PaymentMethodInfo } from './connectors.methods.ts';
export { registerProviderMetrics } from './connectors.metrics.ts';
export { checkConnector, checkEnvironmentAccounts, checkLiveSettings, sandboxDefaultsInUse } from './connectors.golive.ts';
export { type GivenSettings, type LiveContext, liveUrlProblem, type SettingProblem } from './connectors.live.ts';
export {
  type AmountBounds,
  type ApprovalKind,
  type BoundsCheck,
  type Capability,
  CARD_METHOD,
  checkAmountBounds,
  fitMessage,
  isAcceptableMessage,
  isPaymentMethod,
  type MessageRules,
  type ProviderDescription,
  type ProviderSetting,
  refundRefusal,
  type ServedMethod,
  servedMethods,
  type TestNumber,
} from './connectors.description.ts';
export {
  assertProviderTakes,
  capabilitiesOf,
  connectorServes,
  connectorsServing,
  describeMethod,
  describeProvider,
  isAggregator,
  methodCountries,
  methodPrefixes,
  methodServesNumber,
  methodsServed,
  operatorName,
  providerDescriptions,
  providerPrefixes,
  providersServing,
  servesNumber,
  suggestProvider,
} from './connectors.catalog.ts';
export {
  lookupNumber,
  METHOD_NETWORKS,
  NATIONAL_LENGTH,
  type NumberInfo,
  type NumberingEntry,
  NUMBERING_PLAN,
  type Operator,
  prefixesOf,
} from './connectors.numbering.ts';
export { testNumbers } from './connectors.testnumbers.ts';
export { formatProvidersReport, type LastCheck, parseProviderHealth, type ProviderReport, providersReport } from './connectors.report.ts';
export type { CancelResult, KnownRequest, ProviderHandle } from './connectors.types.ts';
/** Each connector's one object, for the harnesses that drive its sandbox (`sandbox.of(…)`). */
export { MTN_MOMO_CONNECTOR } from './mtn-momo/index.ts';
export { ORANGE_MONEY_CONNECTOR } from './orange-money/index.ts';
export { WAVE_CONNECTOR } from './wave/index.ts';
export { CINETPAY_CONNECTOR } from './cinetpay/index.ts';
export { PAWAPAY_CONNECTOR } from './pawapay/index.ts';
export { runSandbox, type Sandbox, sandboxHelp, sandboxSecrets, startLocalSandbox, startSandbox } from './sandbox/sandbox.ts';
export { SANDBOX_SECRETS_FILE, type SandboxSecrets } from './sandbox/sandbox.secrets.ts';
export {
  createProviderHealth,
  DEFAULT_HEALTH_RULES,
  type HealthRules,
  outcomeOf,
  PROVIDER_OUTCOMES,
  type ProviderHealth,
  type ProviderHealthView,
  type ProviderOutcome,
  watched,
} from './connectors.health.ts';
