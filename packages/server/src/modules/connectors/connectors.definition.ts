import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RandomBytes } from '../../platform/crypto.ts';
import type { ProviderDescription } from './connectors.description.ts';
import type { Connector, ConnectorDeps, GivenSettings, LiveContext, SettingProblem } from './connectors.types.ts';
import type { SandboxAnswer } from './sandbox/sandbox.http.ts';

/**
 * Everything Caisse knows of one connector, exported as one object by its folder
 * (`mtn-momo/index.ts`, …) and listed once in the registry (docs/architecture.md, "Connectors"):
 * its description, how to build it from its settings, and its part of the sandbox. Nothing else
 * names a provider: the registry, the sandbox and the CLI loop over these.
 *
 * `S` is its settings (read from the environment by the description's variables), `H` the handle
 * its sandbox gives tests (`sandbox.of(definition)`).
 */
export interface ConnectorDefinition<S = never, H = unknown> {
  readonly description: ProviderDescription;
  create(settings: S, deps: ConnectorDeps): Connector;
  readonly sandbox: SandboxMount<S, H>;
  /**
   * Optional: why these settings (maybe partial: an account's, before it is made) cannot be used
   * in live mode for these countries: the sandbox's values (MTN's target environment `sandbox`,
   * Orange's `dev`), an environment of another country. The base URL rule of production is the
   * registry's (connectors.live.ts); called only for live mode. Empty or absent: nothing to say.
   */
  liveProblems?(settings: GivenSettings, ctx: LiveContext): SettingProblem[];
  /**
   * Optional: the hosts of the provider's production API, which a test-mode account may never
   * point at (test mode never calls a provider's production API), unless `sandbox` says these
   * settings reach its sandbox there (Orange's `dev` environment on the same host).
   */
  readonly productionApi?: { readonly hosts: readonly string[]; sandbox?(settings: GivenSettings): boolean };
  /** How a provider account added by an operator (modules/provideraccounts) becomes its settings. Absent: no account can be added for it. */
  readonly account?: AccountShape<S>;
}

/**
 * A provider account's side of a connector (docs/spec/provider-accounts.md): the settings an
 * account may set (keys of its description's settings, checked as those are), the credentials
 * it takes (a JSON object, stored encrypted, never shown), and how the two make its settings.
 */
export interface AccountShape<S> {
  /** Keys of the description's non-secret settings an account may set (`baseUrl`, `targetEnvironment`, …). */
  readonly settings: readonly string[];
  readonly credentials: readonly CredentialSpec[];
  /**
   * Settings its provider hands out beside the secrets (CinetPay's `siteId`): taken from the
   * credentials object too, and kept as settings (shown, not sealed).
   */
  readonly settingsAmongCredentials?: readonly string[];
  /**
   * The provider sends an account's webhooks to one address set in its own dashboard, not one
   * given per request (Wave): the console shows each account's address to paste there.
   */
  readonly webhook?: boolean;
  /**
   * The addresses the provider calls an account back at, for the console to show the operator
   * (docs/spec/provider-accounts.md): `webhookPath` is the account's own address under this server
   * when `webhook` is set, `settings` the account's non-secret settings (empty for the platform's).
   * Absent: its one webhook address when `webhook` is set, else none.
   */
  callbacks?(account: { webhookPath: string | undefined; settings: Readonly<Record<string, string | number>> }): readonly AccountCallback[];
  /** The connector's settings: `open` checked by the description, `credentials` by `credentials`. */
  build(open: Readonly<Record<string, string | number>>, credentials: Readonly<Record<string, string>>): S;
}

/** One credential of an account: its JSON name, whether it is needed, and how it is checked (printable ASCII, or a UUID). */
export interface CredentialSpec {
  readonly name: string;
  readonly required: boolean;
  readonly kind?: 'credential' | 'uuid';
  /** Its longest value (default 256): pawaPay's API tokens are JWTs of about 400 characters. */
  readonly maxLength?: number;
}

/** One address a provider calls an account back at (`AccountShape.callbacks`). */
export interface AccountCallback {
  /** What it receives, in the provider's words: `deposits`, `payouts`, `refunds`, `notifications`, `webhooks`. */
  readonly purpose: string;
  /** Under this server's address (the console puts its own origin before it), or null when `url` is given. */
  readonly path: string | null;
  /** A whole address, from the account's settings (CinetPay's notify_url base), or null. */
  readonly url: string | null;
  /** True: the operator sets it once in the provider's dashboard; false: Caisse sends it with each request. */
  readonly setAtProvider: boolean;
}

/** Any connector's definition, whatever its settings and sandbox handle (the registry's list). */
// The list holds definitions of different settings; each is only ever given its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyConnectorDefinition = ConnectorDefinition<any, any>;

/** A connector's part of the providers' sandbox (`npx caisse sandbox`, and the one tests and `start` run). */
export interface SandboxMount<S, H> {
  /** Its base path on the sandbox's port (`/wave`); `''` mounts it at the root, where every path no other mount takes goes. */
  readonly path: string;
  /** Fault switches `caisse sandbox --faults` may turn on for it (a name no mount knows is refused). */
  readonly faults: readonly string[];
  /**
   * The secrets its sandbox and test mode's connector must share (Wave's webhook secret), by name,
   * each with the prefix its value starts with: made once per data directory
   * (`<CAISSE_DATA_DIR>/sandbox-secrets.json`, sandbox/sandbox.secrets.ts) and handed to it in
   * `start` and `settings`. None: its sandbox takes any credentials.
   */
  readonly secrets?: readonly SandboxSecretSpec[];
  start(ctx: SandboxMountContext): Promise<MountedSandbox<H>>;
  /** The connector's settings that point it at its mount: test mode's account. */
  settings(target: SandboxTarget): S;
  /** One line for `caisse sandbox`'s banner: what it takes (credentials, currency) and where its notifications go. */
  help(ctx: { url: string; callbacksUrl: string | undefined; secretsFile: string; production: boolean }): string;
}

/** One secret a sandbox mount declares (`SandboxMount.secrets`). */
export interface SandboxSecretSpec {
  /** Its name among the connector's own secrets (`webhookSecret`). */
  readonly name: string;
  /** What its value starts with (`wave_sandbox_whsec_`), so that a reader knows what it is. */
  readonly prefix: string;
}

/** Where test mode's connector finds its sandbox mount, and where its notifications come back. */
export interface SandboxTarget {
  /** The mount's base URL (the sandbox's URL + its path). */
  baseUrl: string;
  /** This server's callbacks base (`…/callbacks`), the connector's own under its name; undefined: none (it is polled). */
  callbacksUrl?: string;
  /** Its own call bound (its description's `timeoutMs` setting, read from the environment), or its default. */
  timeoutMs?: number;
  /** Its declared secrets by name (`SandboxMount.secrets`), the ones its sandbox uses. */
  secrets: Readonly<Record<string, string>>;
}

export interface SandboxMountContext {
  /**
   * `caisse sandbox --production`: answer as the provider's production API does (refuse the
   * sandbox's values and test-only keys, take production ones), for a live rehearsal.
   */
  production: boolean;
  /** The sandbox's time in ms (its clock plus what `advance` moved it). */
  now: () => number;
  random: RandomBytes;
  /** Approval windows of 5 s instead of 5 min. */
  fast: boolean;
  /** How often final states are reached without a request (0: only on requests and tick()). */
  tickMs: number;
  callbackTimeoutMs?: number;
  log?: (line: string) => void;
  /** The mount's base URL as the payer's browser reaches it (known once the server listens). */
  baseUrl: () => string;
  /** This server's callbacks base (`…/callbacks`), for a provider whose notifications go to an address set once on the account rather than in each request; undefined: it sends none. */
  callbacksUrl: string | undefined;
  /** Its own options (`startSandbox({ options: { [name]: … } })`), in the shape its folder documents. */
  options: unknown;
  /** Its declared secrets by name (`SandboxMount.secrets`), the ones test mode's connector is given. */
  secrets: Readonly<Record<string, string>>;
}

export interface MountedSandbox<H> {
  /** The provider's sandbox itself, for tests (`sandbox.of(definition)`). */
  readonly handle: H;
  /** Answers a request under the mount (`path` without the mount's base); undefined: it answered (or hangs) itself. */
  serve(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined>;
  /** Reaches the final states that are due (called on the sandbox's tick). */
  settle(): void;
  /** Reaches them and waits until their notifications are delivered. */
  tick(): Promise<void>;
  /** Turns on these of its fault switches (from `caisse sandbox --faults`). */
  setFaults(on: readonly string[]): void;
  close(): Promise<void>;
}
