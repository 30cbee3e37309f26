import { type Static, Type } from 'typebox';
import type { Clock } from '../../../platform/clock.ts';
import type { RandomBytes } from '../../../platform/crypto.ts';
import type { ConnectorKind } from '../connectors.types.ts';
import type { MomoPaymentBody } from './mtn-momo.schema.ts';
import type { Outcome } from './mtn-momo.sandbox.outcomes.ts';

/** The MoMo sandbox's options, fault switches, overrides and what it answers about the requests it holds. */

export const Faults = Type.Object(
  {
    /** Every MoMo API route answers 500 INTERNAL_PROCESSING_ERROR (nothing is stored). */
    answer500: Type.Optional(Type.Boolean()),
    /** Every MoMo API route takes the request and never answers. */
    hang: Type.Optional(Type.Boolean()),
    /** Final states are reached without sending the callback. */
    dropCallbacks: Type.Optional(Type.Boolean()),
    /** Every callback is sent twice. */
    duplicateCallbacks: Type.Optional(Type.Boolean()),
    /** Answers with a body (token, status) are cut short: not JSON. */
    badJson: Type.Optional(Type.Boolean()),
    /** Answers with a body are JSON of the wrong shape (a "SUCCESSFUL" with a numeric amount, a token without access_token). */
    badSchema: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type SandboxFaults = Required<Static<typeof Faults>>;
export const NO_FAULTS: SandboxFaults = { answer500: false, hang: false, dropCallbacks: false, duplicateCallbacks: false, badJson: false, badSchema: false };
/** Its fault switches by name (`caisse sandbox --faults`). */
export const SANDBOX_FAULTS = Object.keys(NO_FAULTS) as readonly (keyof SandboxFaults)[];

export const Override = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCESSFUL'), Type.Literal('FAILED')])),
    amount: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$' })),
    reason: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
/** What the sandbox answers instead of the truth, for one request: disagreement on purpose. */
export type SandboxOverride = Static<typeof Override>;

export interface MomoSandboxOptions {
  port?: number;
  host?: string;
  /** Default: the system clock. Tests share a ManualClock with the connector. */
  clock?: Clock;
  random?: RandomBytes;
  /** When given, only these credentials are accepted; otherwise any non-empty ones. */
  credentials?: { apiUser: string; apiKey: string; collectionKey?: string; disbursementKey?: string };
  /** X-Target-Environment it expects (default `sandbox`; ignored with `production`). */
  targetEnvironment?: string;
  /**
   * Answers as MTN's production API does (`caisse sandbox --production`): every production market
   * (`mtncameroon`, `mtnivorycoast`, …) is taken, each in its own currency; the target environment
   * `sandbox` and the test-only credentials Caisse's test mode sends (`sandbox`) are refused.
   */
  production?: boolean;
  faults?: Partial<SandboxFaults>;
  /** Access-token life in seconds (default 3600, as MTN). */
  tokenTtlSeconds?: number;
  /** How often it looks for requests that reached their final state (default 200 ms; 0: only on tick() and on each request). */
  tickMs?: number;
  /** Bound on each callback (default 2 s, as MTN). */
  callbackTimeoutMs?: number;
  /** One line per request handled. */
  log?: (line: string) => void;
  /** The approval window (106) is 5 s instead of 5 min. */
  fast?: boolean;
}

export interface SandboxCallback {
  at: string;
  method: 'PUT' | 'POST';
  httpStatus?: number;
  error?: string;
}

/** One request as `GET /_sandbox/requests` lists it: what the sandbox answers about it now. */
export interface SandboxRequestView {
  referenceId: string;
  kind: ConnectorKind;
  partyId: string;
  amount: string;
  currency: string;
  externalId: string;
  /** What the payer's prompt (or the payee's notice) showed: the merchant's short name for a payment. */
  payerMessage: string;
  payeeNote: string;
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED';
  reason?: string;
  financialTransactionId?: string;
  createdAt: string;
  /** When the final state was reached (before any override). */
  finalAt?: string;
  overridden: boolean;
  callbackUrl?: string;
  callbacks: SandboxCallback[];
}

export interface MomoSandbox {
  readonly url: string;
  readonly port: number;
  faults(): SandboxFaults;
  setFaults(faults: Partial<SandboxFaults>): SandboxFaults;
  requests(): SandboxRequestView[];
  override(referenceId: string, change: SandboxOverride): SandboxRequestView | undefined;
  /**
   * Sends a request's callback now, with what a status read would answer (its override
   * included): a provider that decides after the receiver stopped waiting. False without a
   * callback URL. `tick()` waits for it.
   */
  callBack(referenceId: string): boolean;
  /** Loses a request, as a provider that dropped it would: `404 RESOURCE_NOT_FOUND` from then on. */
  forget(referenceId: string): boolean;
  /** Moves the sandbox's own time forward (on top of its clock). */
  advance(ms: number): void;
  /** Forgets every access token, as MTN does when an API key is regenerated. */
  revokeTokens(): number;
  stats(): { tokensIssued: Record<ConnectorKind, number>; requests: number };
  /** Reaches every final state that is due and waits until their callbacks are delivered. */
  tick(): Promise<void>;
  close(): Promise<void>;
}

/** A request as the sandbox keeps it. */
export interface Stored {
  kind: ConnectorKind;
  referenceId: string;
  body: MomoPaymentBody;
  partyId: string;
  callbackUrl: string | undefined;
  createdAt: number;
  outcome: Outcome;
  /** 109: the second callback has left. */
  calledBackAgain?: boolean;
  final?: { status: 'SUCCESSFUL' | 'FAILED'; reason?: string; financialTransactionId?: string; at: number };
  override?: SandboxOverride & { financialTransactionId?: string };
  callbacks: SandboxCallback[];
}
