/**
 * Mobile-money connectors (docs/spec/money-in.md): the module's only public entry. Other modules import
 * this file and nothing else from modules/connectors/.
 */
export type {
  CallbackResult,
  Connector,
  ConnectorDeps,
  ConnectorKind,
  ConnectorLogger,
  ConnectorResult,
  IncomingCallback,
  ListedRequest,
  ListResult,
  PaymentRequest,
  ProviderView,
  StatusResult,
  SubmitResult,
} from './connectors.types.ts';
export { isReference, newReference } from './connectors.references.ts';
export {
  type CallbackRouter,
  createCallbackRouter,
  createProviderLifecycle,
  FIRST_POLL_DELAY_MS,
  type LifecycleSpec,
  PAGE_LOST_REASON,
  pageLostAfterMs,
  POLL_LEASE_MS,
  type ProviderLifecycle,
  type ProviderRequestRow,
  type ProviderRequestRepository,
  type ProviderRequestStore,
  paymentRequestOf,
  storeOf,
  SUBMIT_MARGIN_MS,
} from './connectors.lifecycle.ts';
export { default as connectorsRoutes } from './connectors.routes.ts';
export { startLifecyclePoller } from './connectors.poller.ts';
export { callbackDecision, type Decision, decisionOf } from './connectors.decisions.ts';
export {
  type ConnectorRegistry,
  type ConnectorSource,
  pollBackoffMs,
  type ConnectorSettings,
  connectorSettings,
  createConnectorRegistry,
  createModeConnectors,
  type ModeConnectors,
  isProviderName,
  PROVIDER_NAMES,
  type ProviderName,
  healthViews,
  sandboxSettings,
  sandboxTarget,
} from './connectors.registry.ts';
export { registerProviderMetrics } from './connectors.metrics.ts';
export { createMtnMomoConnector, MTN_MOMO, type MtnMomoSettings } from './mtn-momo.connector.ts';
export {
  type AmountBounds,
  type ApprovalKind,
  type BoundsCheck,
  type Capability,
  checkAmountBounds,
  fitMessage,
  isAcceptableMessage,
  type MessageRules,
  type ProviderDescription,
  type ProviderSetting,
  type TestNumber,
} from './connectors.description.ts';
export { PROVIDER_DESCRIPTIONS } from './connectors.registry.ts';
export {
  assertProviderTakes,
  describeProvider,
  providerDescriptions,
  providerPrefixes,
  providersServing,
  servesNumber,
  suggestProvider,
} from './connectors.catalog.ts';
export { lookupNumber, NATIONAL_LENGTH, type NumberInfo, type NumberingEntry, NUMBERING_PLAN, type Operator, prefixesOf } from './connectors.numbering.ts';
export { TEST_NUMBER_OUTCOMES, testNumbers } from './connectors.testnumbers.ts';
export { formatProvidersReport, type HealthReading, parseProviderHealth, type ProviderReport, providersReport } from './connectors.report.ts';
export {
  type MomoSandbox,
  type MomoSandboxOptions,
  runMomoSandbox,
  SANDBOX_OUTCOMES,
  type SandboxCallback,
  type SandboxFaults,
  type SandboxOverride,
  type SandboxRequestView,
  startMomoSandbox,
} from './momo-sandbox.ts';
export type { KnownRequest, ProviderHandle } from './connectors.types.ts';
export { createOrangeMoneyConnector, ORANGE_MONEY, type OrangeMoneySettings } from './orange-money/orange-money.connector.ts';
export type { OrangeSandbox, OrangeSandboxPayment, SandboxFaultSwitches } from './orange-money/orange-money.sandbox.ts';
export { createWaveConnector, WAVE, type WaveSettings } from './wave/wave.connector.ts';
export type { WaveSandbox, WaveSandboxSession } from './wave/wave.sandbox.ts';
export { waveSignatureHeader } from './wave/wave.signature.ts';
export { runSandbox, type Sandbox, SANDBOX_PATHS, type SandboxOptions, startLocalSandbox, startSandbox } from './sandbox/sandbox.ts';
export { newSandboxSecrets, SANDBOX_SECRETS_FILE, type SandboxSecrets, sandboxSecrets } from './sandbox/sandbox.secrets.ts';
export { TEST_NUMBERS, testOutcome } from './sandbox/test-numbers.ts';
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
