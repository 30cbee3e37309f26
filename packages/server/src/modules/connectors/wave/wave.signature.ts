import { createHmac } from 'node:crypto';
import { safeEqual } from '../../../platform/crypto.ts';

/** How far a webhook's timestamp may be from our clock, either way: older ones are replays. */
export const WAVE_SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** The `v1` signature of a Wave webhook: hex HMAC-SHA256, under the webhook secret, of the timestamp followed by the raw body. */
export function waveSignature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret)
    .update(timestamp + body)
    .digest('hex');
}

/** The `Wave-Signature` header value the sandbox sends: `t={unix seconds},v1={signature}`. */
export function waveSignatureHeader(secret: string, nowMs: number, body: string): string {
  const t = String(Math.floor(nowMs / 1000));
  return `t=${t},v1=${waveSignature(secret, t, body)}`;
}

/**
 * Checks a `Wave-Signature` header against the raw body: one of its `v1` values (several during a
 * secret roll) must match in constant time, and its timestamp must be within the tolerance of now.
 */
export function verifyWaveSignature(secret: string, header: string, body: string, nowMs: number): { ok: true } | { ok: false; reason: string } {
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') t = value;
    else if (key === 'v1') v1.push(value);
  }
  if (t === undefined || !/^[0-9]{1,12}$/.test(t) || v1.length === 0) return { ok: false, reason: 'the Wave-Signature header cannot be read' };
  if (Math.abs(nowMs - Number(t) * 1000) > WAVE_SIGNATURE_TOLERANCE_MS)
    return { ok: false, reason: 'the Wave-Signature timestamp is too old or in the future' };
  const expected = waveSignature(secret, t, body);
  return v1.some((s) => safeEqual(s, expected)) ? { ok: true } : { ok: false, reason: 'the Wave-Signature does not match' };
}
