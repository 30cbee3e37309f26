import type { Clock } from './clock.ts';
import { type RandomBytes, systemRandom } from './crypto.ts';

/** Every object kind has its prefix; ids sort by creation time. */
export const ID_PREFIXES = {
  merchant: 'mch',
  apiKey: 'key',
  intent: 'pi',
  event: 'evt',
  user: 'usr',
  webhookEndpoint: 'we',
  delivery: 'wd',
  refund: 're',
  charge: 'ch',
  transfer: 'tr',
  account: 'acc',
  message: 'msg',
  otp: 'otp',
  dashboardUser: 'du',
  dashboardSession: 'dss',
  dashboardInvitation: 'dinv',
  auditEntry: 'aud',
  request: 'req',
  topup: 'top',
  payout: 'po',
  balanceTransaction: 'btx',
  paymentLink: 'plink',
  attempt: 'att',
  reserveHold: 'rsv',
  operator: 'op',
  operatorSession: 'ops',
  operatorAuditEntry: 'oaud',
  reconciliationRun: 'recn',
  providerAccount: 'pac',
  manualReturn: 'ret',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += CROCKFORD[(value << (5 - bits)) & 31];
  return out;
}

/**
 * `prefix_` + 26 characters: 48 bits of milliseconds then 80 random bits (the ULID layout), in
 * lower-case Crockford base32, so ids of one kind sort by creation time.
 */
export function newId(kind: IdKind, clock: Clock, random: RandomBytes = systemRandom): string {
  const buf = Buffer.alloc(16);
  buf.writeUIntBE(clock.now().getTime(), 0, 6);
  random(10).copy(buf, 6);
  return `${ID_PREFIXES[kind]}_${base32(buf).slice(0, 26)}`;
}

/**
 * The smallest id of `kind` that can be made at `at` (its random part all zeros): every id of that
 * kind made earlier sorts below it. Lets a query find old rows by the primary key alone.
 */
export function firstIdAt(kind: IdKind, at: Date): string {
  const buf = Buffer.alloc(16);
  buf.writeUIntBE(Math.max(0, at.getTime()), 0, 6);
  return `${ID_PREFIXES[kind]}_${base32(buf).slice(0, 26)}`;
}

export type IdFactory = (kind: IdKind) => string;
export const idFactory =
  (clock: Clock, random: RandomBytes = systemRandom): IdFactory =>
  (kind) =>
    newId(kind, clock, random);
