import type { Deps } from '../../platform/deps.ts';
import { SECOND } from '../../platform/clock.ts';

/**
 * The payers waiting on their intent's status (`GET /gateway/sessions/{sessionToken}?wait=…`,
 * docs/scaling.md, decision 0083). One notifier for the whole process: a waiter costs a map entry
 * and a slot in a wheel of one-second buckets, never a timer or a query of its own. A waiter is
 * woken when a transaction that changed its intent commits (here, or in another process through
 * PostgreSQL's NOTIFY), at its deadline by the one interval that turns the wheel, or released
 * when its payer hangs up.
 */

/** How a wait ended: the intent changed, its deadline passed, or the payer went away. */
export type WaitOutcome = 'changed' | 'deadline' | 'closed';

export interface WaiterLimits {
  /** Waiters on one intent (a payer with a few tabs open); beyond it, an answer at once. */
  perIntent: number;
  /** Waiters in this process; beyond it, an answer at once (the client reads again later). */
  total: number;
}

export const WAITER_LIMITS: WaiterLimits = { perIntent: 4, total: 10_000 };
/** The longest wait a payer may ask for (seconds): under the 30 s or 60 s idle timeouts of most proxies. */
export const MAX_WAIT_SECONDS = 25;
const TICK_MS = SECOND;

interface Waiter {
  intentId: string;
  bucket: number;
  resolve: (outcome: WaitOutcome) => void;
}

export interface StatusWaiters {
  /**
   * Waits until the intent changes, `deadline` passes or `signal` aborts. Undefined when the
   * limits are reached: the caller answers at once.
   */
  wait(intentId: string, deadline: Date, signal?: AbortSignal): Promise<WaitOutcome> | undefined;
  /** Moves the deadline of a wait `wait` answered (earlier or later); nothing once it has ended. */
  reschedule(waiting: Promise<WaitOutcome>, deadline: Date): void;
  /** After the commit of a change of these intents, in this process: wakes their waiters, here and in the other processes. */
  changed(intentId: string): void;
  /** Wakes the waiters whose deadline has passed (the interval calls it each second; tests after moving the clock). */
  tick(): void;
  /** How many wait, in all and on one intent. */
  size(intentId?: string): number;
  close(): void;
}

export function createStatusWaiters(deps: Pick<Deps, 'clock' | 'wakeups'>, limits: WaiterLimits = WAITER_LIMITS): StatusWaiters {
  const { clock, wakeups } = deps;
  const byIntent = new Map<string, Set<Waiter>>();
  /** The wheel: waiters by the second their deadline falls in. */
  const buckets = new Map<number, Set<Waiter>>();
  const byPromise = new WeakMap<Promise<WaitOutcome>, Waiter>();
  let total = 0;
  let interval: ReturnType<typeof setInterval> | undefined;
  let closed = false;

  function release(w: Waiter, outcome: WaitOutcome): void {
    const set = byIntent.get(w.intentId);
    if (!set?.delete(w)) return;
    if (set.size === 0) byIntent.delete(w.intentId);
    const bucket = buckets.get(w.bucket);
    bucket?.delete(w);
    if (bucket?.size === 0) buckets.delete(w.bucket);
    total--;
    if (total === 0 && interval !== undefined) {
      clearInterval(interval);
      interval = undefined;
    }
    w.resolve(outcome);
  }

  function wakeIntent(intentId: string): void {
    for (const w of [...(byIntent.get(intentId) ?? [])]) release(w, 'changed');
  }

  function wakeAll(): void {
    for (const id of [...byIntent.keys()]) wakeIntent(id);
  }

  // Changes committed by any process: this one's own at once, the others' through NOTIFY.
  // A LISTEN connection made again may have missed some: every waiter reads again.
  const unsubscribe = wakeups?.subscribe('intent_status', (message) => ('reset' in message ? wakeAll() : wakeIntent(message.payload)));

  function tick(): void {
    const now = Math.floor(clock.now().getTime() / TICK_MS);
    for (const [second, bucket] of [...buckets]) if (second <= now) for (const w of [...bucket]) release(w, 'deadline');
  }

  return {
    wait(intentId, deadline, signal) {
      if (closed || signal?.aborted) return undefined;
      const waiting = byIntent.get(intentId);
      if (total >= limits.total || (waiting?.size ?? 0) >= limits.perIntent) return undefined;
      let waiter: Waiter | undefined;
      const promise = new Promise<WaitOutcome>((resolve) => {
        // Rounded up: a waiter never answers before its deadline.
        const bucket = Math.ceil(deadline.getTime() / TICK_MS);
        const onAbort = () => release(w, 'closed');
        const w: Waiter = {
          intentId,
          bucket,
          resolve: (outcome) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(outcome);
          },
        };
        let set = waiting;
        if (!set) byIntent.set(intentId, (set = new Set()));
        set.add(w);
        let inBucket = buckets.get(bucket);
        if (!inBucket) buckets.set(bucket, (inBucket = new Set()));
        inBucket.add(w);
        total++;
        signal?.addEventListener('abort', onAbort, { once: true });
        if (interval === undefined) {
          interval = setInterval(tick, TICK_MS);
          interval.unref();
        }
        waiter = w;
      });
      byPromise.set(promise, waiter as Waiter);
      return promise;
    },

    reschedule(waiting, deadline) {
      const w = byPromise.get(waiting);
      if (!w || !byIntent.get(w.intentId)?.has(w)) return;
      const old = buckets.get(w.bucket);
      old?.delete(w);
      if (old?.size === 0) buckets.delete(w.bucket);
      w.bucket = Math.ceil(deadline.getTime() / TICK_MS);
      let inBucket = buckets.get(w.bucket);
      if (!inBucket) buckets.set(w.bucket, (inBucket = new Set()));
      inBucket.add(w);
    },

    changed(intentId) {
      if (wakeups) wakeups.publish('intent_status', intentId);
      else wakeIntent(intentId);
    },

    tick,

    size: (intentId) => (intentId === undefined ? total : (byIntent.get(intentId)?.size ?? 0)),

    close() {
      closed = true;
      unsubscribe?.();
      wakeAll();
    },
  };
}
