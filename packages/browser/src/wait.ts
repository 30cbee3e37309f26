// Waiting for a payment to settle: long-polled reads of the intent, shared by the callers
// waiting on one intent at once, with a backoff for servers that do not hold reads.
import { type CaisseError, retryAfterSeconds } from '@caisse/api-types';
import type { Send } from './http.ts';
import type { PayerIntent, WaitOptions } from './types.ts';

/** One wait for an intent's payment and the callers sharing it. */
interface SharedWait {
  promise: Promise<PayerIntent>;
  listeners: Set<(intent: PayerIntent) => void>;
  callers: number;
  abort: AbortController;
}

/** `promise`'s outcome, or the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(err);
      },
    );
  });
}

/** Reads the intent until it is no longer PROCESSING (see CaisseClient.waitForPayment). */
async function pollPayment(
  send: Send,
  sessionToken: string,
  { signal, onUpdate, intervalMs = 1000, maxIntervalMs = 5000, timers = globalThis, waitSeconds = 25 }: WaitOptions,
): Promise<PayerIntent> {
  const path = `/gateway/sessions/${encodeURIComponent(sessionToken)}`;
  // Until a server shows it does not hold reads; 0 turns the long-poll off.
  let longPoll = waitSeconds > 0;
  let delay = intervalMs;
  for (;;) {
    signal?.throwIfAborted();
    let pause = delay;
    try {
      let held: string | null = null;
      let retryAfter: number | undefined;
      const query = longPoll ? `?status=PROCESSING&wait=${Math.min(Math.floor(waitSeconds), 25)}` : '';
      const intent = await send<PayerIntent>('GET', path + query, undefined, {}, 0, {
        signal,
        onHeaders: (headers) => {
          held = headers.get('caisse-wait');
          retryAfter = retryAfterSeconds(headers);
        },
      });
      onUpdate?.(intent);
      if (intent.status !== 'PROCESSING') return intent;
      if (longPoll && held === 'held') pause = 0;
      else if (longPoll && held === 'busy') pause = Math.max(delay, (retryAfter ?? 0) * 1000);
      // Answered at once without a word about the wait: a server that does not hold reads.
      else longPoll = false;
    } catch (err) {
      signal?.throwIfAborted();
      const s = (err as CaisseError).status;
      // A server that refuses the wait's parameters: read as before, at once.
      if (longPoll && s === 400) {
        longPoll = false;
        continue;
      }
      if (s !== undefined && s < 500 && s !== 429) throw err;
    }
    if (pause === 0) {
      delay = intervalMs;
      continue;
    }
    delay = Math.min(delay * 1.5, maxIntervalMs);
    await new Promise<void>((resolve, reject) => {
      const stop = () => {
        timers.clearTimeout(handle);
        reject(signal?.reason);
      };
      const handle = timers.setTimeout(() => {
        signal?.removeEventListener('abort', stop);
        resolve();
      }, pause);
      signal?.addEventListener('abort', stop, { once: true });
    });
  }
}

/** A client's waits for payments, one per intent however many callers wait on it. */
export function paymentWaits(send: Send): (sessionToken: string, options: WaitOptions) => Promise<PayerIntent> {
  const waits = new Map<string, SharedWait>();
  return async (sessionToken, options) => {
    const { signal, onUpdate } = options;
    signal?.throwIfAborted();
    // Callers waiting on one intent at once (a checkout's payment and mobile-money steps) share
    // one wait, so the payer holds one request: its reads go to every caller; it stops once the
    // last caller stopped. The first caller's timing options run it.
    let shared = waits.get(sessionToken);
    if (shared === undefined) {
      const abort = new AbortController();
      const listeners = new Set<(intent: PayerIntent) => void>();
      const running = pollPayment(send, sessionToken, {
        ...options,
        signal: abort.signal,
        onUpdate: (intent) => {
          for (const listener of listeners) listener(intent);
        },
      });
      const entry: SharedWait = { promise: running, listeners, callers: 0, abort };
      const forget = () => {
        if (waits.get(sessionToken) === entry) waits.delete(sessionToken);
      };
      running.then(forget, forget);
      waits.set(sessionToken, entry);
      shared = entry;
    }
    const entry = shared;
    entry.callers += 1;
    if (onUpdate !== undefined) entry.listeners.add(onUpdate);
    try {
      return await untilAborted(entry.promise, signal);
    } finally {
      if (onUpdate !== undefined) entry.listeners.delete(onUpdate);
      entry.callers -= 1;
      if (entry.callers === 0) {
        if (waits.get(sessionToken) === entry) waits.delete(sessionToken);
        entry.abort.abort(signal?.reason);
      }
    }
  };
}
