/**
 * Mobile-money connectors (contract §9): the module's only public entry. Other modules import
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
  sandboxSettings,
} from './connectors.registry.ts';
export { createMtnMomoConnector, MTN_MOMO, type MtnMomoSettings } from './mtn-momo.connector.ts';
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
export { type Sandbox, SANDBOX_PATHS, type SandboxOptions, startSandbox, WAVE_SANDBOX_WEBHOOK_SECRET } from './sandbox/sandbox.ts';
export { TEST_NUMBERS, testOutcome } from './sandbox/test-numbers.ts';
