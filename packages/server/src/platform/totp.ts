import { Secret, TOTP } from 'otpauth';
import type { RandomBytes } from './crypto.ts';

/**
 * Time-based one-time passwords (RFC 6238) through `otpauth`: SHA-1, 6 digits, 30-second steps,
 * which every authenticator app reads from the otpauth:// URI. A code is accepted one step either
 * side of now (clock drift, a code typed as it rolls over); the caller refuses a step it already
 * accepted, so each code works once.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
/** 160 bits, RFC 4226's recommended secret length. */
const SECRET_BYTES = 20;

function totp(secretBase32: string, account: { issuer: string; label: string } = { issuer: 'Caisse', label: '' }): TOTP {
  return new TOTP({ ...account, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** A new secret, base32 (what the URI carries and a person can type). */
export function newTotpSecret(random: RandomBytes): string {
  const bytes = random(SECRET_BYTES);
  return new Secret({ buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer }).base32;
}

/** The otpauth:// URI an authenticator app scans: `issuer:label`, the secret and the parameters. */
export function totpUri(secretBase32: string, issuer: string, label: string): string {
  return totp(secretBase32, { issuer, label }).toString();
}

/** The URI as a QR code an authenticator app scans: an SVG `data:` URL for an <img>. */
export async function totpQrCode(uri: string): Promise<string> {
  // Loaded on the first enrolment: a rare request, and qrcode with its PNG encoder stays out of the heap until then.
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The time step of an instant. */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The step a code is valid for within ±TOTP_WINDOW steps of `now`, or null. */
export function matchTotp(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secretBase32).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : totpStep(now) + delta;
}
