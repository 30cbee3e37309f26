import { createHmac, timingSafeEqual } from 'node:crypto';
import { MINUTE, SECOND } from './clock.ts';
import type { RandomBytes } from './crypto.ts';

/** The OTP rules of docs/spec/otp-and-charge.md, in one place. */
export const OTP_RULES = {
  codeLength: 6,
  codeTtlMs: 5 * MINUTE,
  maxWrongAttempts: 5,
  minResendIntervalMs: 30 * SECOND,
  maxSendsPerWindow: 5,
  sendWindowMs: 15 * MINUTE,
  authorizationTtlMs: 10 * MINUTE,
  /** Wrong codes per customer and UTC day; then no code is sent or checked until the next day. */
  maxWrongCodesPerDay: 20,
} as const;

/** A uniformly random 6-digit code (rejection sampling: no modulo bias). */
export function generateCode(random: RandomBytes): string {
  const limit = 4_294_000_000; // largest multiple of 10^6 below 2^32
  for (;;) {
    const n = random(4).readUInt32BE(0);
    if (n < limit) return String(n % 1_000_000).padStart(OTP_RULES.codeLength, '0');
  }
}

/**
 * Codes are kept as HMAC-SHA256 keyed with the master key and salted with the code's id: a
 * leaked table cannot be brute-forced over the 10^6 codes without the key.
 */
export function hashCode(masterKey: Buffer, otpId: string, code: string): Buffer {
  return createHmac('sha256', masterKey).update(`${otpId}:${code}`).digest();
}

export function codeMatches(masterKey: Buffer, otpId: string, code: string, stored: Buffer): boolean {
  const candidate = hashCode(masterKey, otpId, code);
  return candidate.length === stored.length && timingSafeEqual(candidate, stored);
}

export type SendDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * At most one send per 30 s and 5 per 15 min per user. `recentSends` are the send times of the
 * user's codes (any order); the answer says how long to wait when refused.
 */
export function sendDecision(recentSends: Date[], now: Date): SendDecision {
  const t = now.getTime();
  const inWindow = recentSends
    .map((d) => d.getTime())
    .filter((s) => s > t - OTP_RULES.sendWindowMs && s <= t)
    .sort((a, b) => a - b);
  const last = inWindow[inWindow.length - 1];
  let wait = 0;
  if (last !== undefined && t - last < OTP_RULES.minResendIntervalMs) wait = last + OTP_RULES.minResendIntervalMs - t;
  if (inWindow.length >= OTP_RULES.maxSendsPerWindow) {
    const oldest = inWindow[inWindow.length - OTP_RULES.maxSendsPerWindow] as number;
    wait = Math.max(wait, oldest + OTP_RULES.sendWindowMs - t);
  }
  return wait > 0 ? { allowed: false, retryAfterMs: wait } : { allowed: true };
}

/**
 * What a refused send says: the 30-second pause after a send, or the window's count, whichever
 * the wait comes from (a wait longer than the pause can only be the window's).
 */
export function sendRefusalDetail(retryAfterMs: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / SECOND));
  if (retryAfterMs <= OTP_RULES.minResendIntervalMs) return `A code was sent moments ago; ask for another in ${seconds} s`;
  const minutes = Math.ceil(retryAfterMs / MINUTE);
  return `${OTP_RULES.maxSendsPerWindow} codes were sent in the last ${OTP_RULES.sendWindowMs / MINUTE} minutes; ask for another in ${minutes} min`;
}

/** When the next send will be allowed, given the sends so far including one made now. */
export function nextSendAt(recentSends: Date[], now: Date): Date {
  const decision = sendDecision(recentSends, now);
  return new Date(now.getTime() + (decision.allowed ? 0 : decision.retryAfterMs));
}

/** "+237 6•• ••• •89": country code and the last two digits. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/^\+/, '');
  if (digits.length <= 5) return '+•••';
  const shown = digits.slice(-2);
  const cc = digits.length > 9 ? digits.slice(0, digits.length - 9) : digits.slice(0, 1);
  return `+${cc}${'•'.repeat(digits.length - cc.length - 2)}${shown}`;
}

/** "a•••@example.com". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

/** `Retry-After` in whole seconds, at least 1. */
export function retryAfterHeader(ms: number): Record<string, string> {
  return { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) };
}
