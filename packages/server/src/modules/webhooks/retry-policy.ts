import { DAY, HOUR, SECOND } from '../../platform/clock.ts';

/**
 * When to try a failed delivery again (docs/spec/webhooks.md): exponential backoff with jitter, the first
 * retry within a minute, for about 3 days; a `Retry-After` from the receiver replaces the backoff.
 */
export const RETRY_WINDOW_MS = 3 * DAY;
/** An endpoint whose attempts have all failed for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * DAY;
export const FIRST_RETRY_MS = 30 * SECOND;
export const MAX_BACKOFF_MS = 6 * HOUR;
/** A receiver's Retry-After is honoured between these bounds. */
export const MIN_RETRY_AFTER_MS = 1 * SECOND;
export const MAX_RETRY_AFTER_MS = 1 * DAY;

/**
 * Backoff after the `attempts`-th failed attempt: 30 s doubled each time, capped at 6 h, times a
 * jitter factor in [0.8, 1.2) drawn from `unit` (a number in [0, 1)). The first retry comes
 * 24–36 s after the first failure; about 20 attempts fit in the 3-day window.
 */
export function backoffMs(attempts: number, unit: number): number {
  const exp = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
  return Math.round(exp * (0.8 + 0.4 * unit));
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: Date): number | undefined {
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  // An HTTP date names its day and month; without a letter, Date.parse would read "-5" as a year.
  else if (!/[A-Za-z]/.test(text)) return undefined;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, MIN_RETRY_AFTER_MS), MAX_RETRY_AFTER_MS);
}

/**
 * The next attempt after a failure, or null when the delivery has had its 3 days and fails for
 * good. The last retry is pulled in to the window's end, so a delivery always gets a try at about
 * the 3-day mark.
 */
export function nextAttemptAt(opts: { now: Date; createdAt: Date; attempts: number; unit: number; retryAfterMs?: number }): Date | null {
  const deadline = opts.createdAt.getTime() + RETRY_WINDOW_MS;
  const now = opts.now.getTime();
  if (now >= deadline) return null;
  const delay = opts.retryAfterMs ?? backoffMs(opts.attempts, opts.unit);
  return new Date(Math.min(now + delay, deadline));
}
