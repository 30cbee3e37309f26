import type { Clock } from '../../platform/clock.ts';
import { MINUTE, SECOND } from '../../platform/clock.ts';
import type { Connector, StatusResult, SubmitResult } from './connectors.types.ts';

/**
 * Whether each provider answers, from its recent outcomes (docs/decisions/0030-orange-money-and-wave-in-attempts.md,
 * "Provider health"): a sliding window in this process's memory, per provider, one per mode. A provider
 * whose recent calls mostly time out, answer 5xx or nonsense is unavailable: new charges are
 * refused at once (503) instead of leaving payers waiting on a prompt that never comes. After a
 * cool-down one charge is let through as a probe; the next outcome decides whether it is back.
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
  provider: string;
  available: boolean;
  /** Outcomes since the process started, by kind (the metric's counts). */
  outcomes: Record<ProviderOutcome, number>;
}

export interface ProviderHealth {
  /**
   * `startedAt` (this health's clock, `now()`): when the call began. While the provider is
   * unavailable, a failure of a call begun before the cool-down ended is old news (a status read
   * that hung through it) and changes nothing; a success still brings it back. Once it is back, a
   * failure of a call begun before it came back is old news too.
   */
  record(provider: string, outcome: ProviderOutcome, startedAt?: number): void;
  /** The clock's time in milliseconds, for a call's `startedAt`. */
  now(): number;
  /** For display: whether the provider is available now (no probe is taken). */
  available(provider: string): boolean;
  /**
   * For a new charge: true when it may go to the provider. After the cool-down the first caller
   * is admitted as the probe; others are refused until an outcome comes in (or another cool-down
   * passes without one).
   */
  admit(provider: string): boolean;
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
  const states = new Map<string, State>();
  const stateOf = (provider: string): State => {
    let s = states.get(provider);
    if (!s) {
      s = { window: [], total: 0, bad: 0, totals: { success: 0, timeout: 0, server_error: 0, unknown: 0 } };
      states.set(provider, s);
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
    record(provider, outcome, startedAt) {
      const s = stateOf(provider);
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
    available: (provider) => isAvailable(states.get(provider)),
    admit(provider) {
      const s = states.get(provider);
      if (s === undefined || !isAvailable(s)) return s === undefined;
      if (s.openedAt !== undefined) s.probeAt = now();
      return true;
    },
    views: () =>
      [...states.entries()].map(([provider, s]) => ({
        provider,
        available: isAvailable(s),
        outcomes: { ...s.totals },
      })),
  };
}

/** The connector, every provider call of which reports its outcome to `health`. */
export function watched(connector: Connector, health: ProviderHealth): Connector {
  const note = async <T extends SubmitResult | StatusResult>(call: () => Promise<T>): Promise<T> => {
    const startedAt = health.now();
    const result = await call();
    const outcome = outcomeOf(result);
    if (outcome !== undefined) health.record(connector.provider, outcome, startedAt);
    return result;
  };
  const refund = connector.refund?.bind(connector);
  return {
    ...connector,
    collect: (request) => note(() => connector.collect(request)),
    disburse: (request) => note(() => connector.disburse(request)),
    status: (kind, reference, known) => note(() => connector.status(kind, reference, known)),
    // A verified callback carries the provider's status read: its outcome counts as well.
    verifyCallback: async (callback) => {
      const startedAt = health.now();
      const verified = await connector.verifyCallback(callback);
      const outcome = verified.ok ? outcomeOf(verified.result) : undefined;
      if (outcome !== undefined) health.record(connector.provider, outcome, startedAt);
      return verified;
    },
    ...(refund ? { refund: (request: Parameters<typeof refund>[0]) => note(() => refund(request)) } : {}),
  };
}
