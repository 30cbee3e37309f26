import type { Clock } from '../../platform/clock.ts';
import { MINUTE, SECOND } from '../../platform/clock.ts';
import type { Connector, StatusResult, SubmitResult } from './connectors.types.ts';

/**
 * Whether each provider account answers for each payment method (operator) it reaches, from its
 * recent outcomes (docs/decisions/0030-orange-money-and-wave-in-attempts.md, "Provider health";
 * docs/decisions/0078-clearing-health-reconciliation-per-provider-account.md): a sliding window in
 * this process's memory per provider account and method, one health per mode. An account whose
 * recent calls for a method mostly time out, answer 5xx or nonsense is unavailable for it: new
 * charges there are refused at once (503) instead of leaving payers waiting on a prompt that never
 * comes, while the connector's other accounts, and an aggregator account's other operators, go on.
 * After a cool-down one charge is let through as a probe; the next outcome decides whether it is back.
 */

/** What one call to a provider told us about the provider (not about the payment). */
export type ProviderOutcome = 'success' | 'timeout' | 'server_error' | 'unknown';
export const PROVIDER_OUTCOMES: readonly ProviderOutcome[] = ['success', 'timeout', 'server_error', 'unknown'];

export interface HealthRules {
  /** How far back outcomes count. */
  windowMs: number;
  /** Fewer outcomes than this in the window decide nothing (one timeout is no outage). */
  minOutcomes: number;
  /** The share of bad outcomes in the window from which the provider is unavailable. */
  failureRatio: number;
  /** How long an unavailable provider is left alone before one request probes it. */
  coolDownMs: number;
}

export const DEFAULT_HEALTH_RULES: HealthRules = { windowMs: 5 * MINUTE, minOutcomes: 5, failureRatio: 0.5, coolDownMs: 30 * SECOND };

/**
 * What a result says about the provider: any answer of its own is a success (FAILED and NOT_FOUND
 * included); UNKNOWN is a timeout, a 5xx, or another answer we could not use. Undefined when the
 * provider was not asked (an invalid request, a status that needs what we do not have).
 */
export function outcomeOf(result: SubmitResult | StatusResult): ProviderOutcome | undefined {
  if (result.status !== 'UNKNOWN') return 'success';
  const reason = result.reason;
  if (/no answer within|HTTP 408/.test(reason)) return 'timeout';
  if (/HTTP 5\d\d/.test(reason)) return 'server_error';
  if (/connection (refused|reset)|request failed|not JSON|does not match the schema|HTTP 429|unexpected HTTP|answer is about|larger than/.test(reason))
    return 'unknown';
  return undefined;
}

export interface ProviderHealthView {
  /** The provider account (`pac_…`). */
  account: string;
  /** The payment method (operator) it was called for. */
  method: string;
  available: boolean;
  /** Outcomes since the process started, by kind (the metric's counts). */
  outcomes: Record<ProviderOutcome, number>;
}

export interface ProviderHealth {
  /**
   * An outcome of a call made with `account` for `method`. `startedAt` (this health's clock,
   * `now()`): when the call began. While unavailable, a failure of a call begun before the
   * cool-down ended is old news (a status read that hung through it) and changes nothing; a
   * success still brings it back. Once it is back, a failure of a call begun before it came back
   * is old news too.
   */
  record(account: string, method: string, outcome: ProviderOutcome, startedAt?: number): void;
  /** The clock's time in milliseconds, for a call's `startedAt`. */
  now(): number;
  /** For display and for choosing: whether the account is available for the method now (no probe is taken). */
  available(account: string, method: string): boolean;
  /**
   * For a new charge: true when it may go to the account for the method. After the cool-down the
   * first caller is admitted as the probe; others are refused until an outcome comes in (or
   * another cool-down passes without one).
   */
  admit(account: string, method: string): boolean;
  views(): ProviderHealthView[];
}

/**
 * The window counts outcomes per second: a provider answering thousands of callbacks a second
 * keeps at most `windowMs / BUCKET_MS` buckets, each outcome an addition, never a pass over the
 * window (outcomes leave it up to a second early).
 */
const BUCKET_MS = SECOND;

interface State {
  /** Oldest first; `at` is the bucket's first millisecond. */
  window: { at: number; total: number; bad: number }[];
  /** The window's sums. */
  total: number;
  bad: number;
  /** Set while unavailable: when it became so (or when the last probe failed). */
  openedAt?: number;
  /** When the probe in flight was let through. */
  probeAt?: number;
  /** When it last came back: a failure of a call begun before is older than that success. */
  restoredAt?: number;
  totals: Record<ProviderOutcome, number>;
}

export function createProviderHealth(clock: Clock, rules: HealthRules = DEFAULT_HEALTH_RULES): ProviderHealth {
  // Keyed by account and method; the key's parts are kept for the views.
  const states = new Map<string, State & { account: string; method: string }>();
  const keyOf = (account: string, method: string) => `${account}\u0000${method}`;
  const stateOf = (account: string, method: string): State => {
    let s = states.get(keyOf(account, method));
    if (!s) {
      s = { account, method, window: [], total: 0, bad: 0, totals: { success: 0, timeout: 0, server_error: 0, unknown: 0 } };
      states.set(keyOf(account, method), s);
    }
    return s;
  };
  const now = () => clock.now().getTime();
  const coolingDown = (s: State) => s.openedAt !== undefined && now() - s.openedAt < rules.coolDownMs;
  // A probe that never reported (refused before the call) stops blocking after a cool-down.
  const probing = (s: State) => s.probeAt !== undefined && now() - s.probeAt < rules.coolDownMs;
  const isAvailable = (s: State | undefined) => s?.openedAt === undefined || (!coolingDown(s) && !probing(s));

  return {
    now,
    record(account, method, outcome, startedAt) {
      const s = stateOf(account, method);
      const t = now();
      s.totals[outcome] += 1;
      const bad = outcome !== 'success';
      // A call that hung since before the provider came back says nothing of it now: left to
      // count, a few status reads begun during an outage would close it again once they time out.
      if (bad && startedAt !== undefined && s.restoredAt !== undefined && startedAt < s.restoredAt) return;
      if (s.openedAt !== undefined) {
        // Unavailable: only an answer after the cool-down (the probe's, or a poll's) decides, and
        // a failure only when its call began after the cool-down.
        if (coolingDown(s)) return;
        if (bad && startedAt !== undefined && startedAt < s.openedAt + rules.coolDownMs) return;
        s.probeAt = undefined;
        if (bad) {
          s.openedAt = t;
          return;
        }
        s.openedAt = undefined;
        s.restoredAt = t;
        s.window = [];
        s.total = 0;
        s.bad = 0;
      }
      while (s.window.length > 0 && t - (s.window[0] as State['window'][number]).at >= rules.windowMs) {
        const old = s.window.shift() as State['window'][number];
        s.total -= old.total;
        s.bad -= old.bad;
      }
      const at = t - (t % BUCKET_MS);
      let bucket = s.window.at(-1);
      if (bucket === undefined || bucket.at !== at) {
        bucket = { at, total: 0, bad: 0 };
        s.window.push(bucket);
      }
      bucket.total += 1;
      s.total += 1;
      if (bad) {
        bucket.bad += 1;
        s.bad += 1;
      }
      if (s.total >= rules.minOutcomes && s.bad / s.total >= rules.failureRatio) s.openedAt = t;
    },
    available: (account, method) => isAvailable(states.get(keyOf(account, method))),
    admit(account, method) {
      const s = states.get(keyOf(account, method));
      if (s === undefined || !isAvailable(s)) return s === undefined;
      if (s.openedAt !== undefined) s.probeAt = now();
      return true;
    },
    views: () =>
      [...states.values()].map((s) => ({
        account: s.account,
        method: s.method,
        available: isAvailable(s),
        outcomes: { ...s.totals },
      })),
  };
}

/**
 * The connector, every provider call of which reports its outcome to `health` under `account`
 * (the provider account its settings make) and the method of the call: the request's `method`
 * (an aggregator's operator), else the connector's own (a direct connector reaches one). A status
 * read or a callback names no method: it counts for the connector's own.
 */
export function watched(connector: Connector, health: ProviderHealth, account: string): Connector {
  const note = async <T extends SubmitResult | StatusResult>(method: string | undefined, call: () => Promise<T>): Promise<T> => {
    const startedAt = health.now();
    const result = await call();
    const outcome = outcomeOf(result);
    if (outcome !== undefined) health.record(account, method ?? connector.provider, outcome, startedAt);
    return result;
  };
  const refund = connector.refund?.bind(connector);
  return {
    ...connector,
    collect: (request) => note(request.method, () => connector.collect(request)),
    disburse: (request) => note(request.method, () => connector.disburse(request)),
    status: (kind, reference, known) => note(undefined, () => connector.status(kind, reference, known)),
    // A verified callback carries the provider's status read: its outcome counts as well.
    verifyCallback: async (callback) => {
      const startedAt = health.now();
      const verified = await connector.verifyCallback(callback);
      const outcome = verified.ok ? outcomeOf(verified.result) : undefined;
      if (outcome !== undefined) health.record(account, connector.provider, outcome, startedAt);
      return verified;
    },
    ...(refund ? { refund: (request: Parameters<typeof refund>[0]) => note(request.method, () => refund(request)) } : {}),
  };
}
