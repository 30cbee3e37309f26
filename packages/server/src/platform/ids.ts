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

/**
 * Makes the ids of objects. Within one millisecond, a kind's next id is the last one's random part
 * plus one unit of its 25th character (ULID's monotonic mode): objects made in the same millisecond
 * by one process still list in the order they were made ("newest first" lists, events of one
 * transaction), and the last character stays free for ids derived from one (deliveries by rank).
 */
export function idFactory(clock: Clock, random: RandomBytes = systemRandom): IdFactory {
  const last = new Map<IdKind, { ms: number; tail: Buffer }>();
  return (kind) => {
    const ms = clock.now().getTime();
    const prev = last.get(kind);
    const tail = prev?.ms === ms ? increment(prev.tail) : undefined;
    const next = tail ?? Buffer.from(random(10));
    last.set(kind, { ms, tail: next });
    const buf = Buffer.alloc(16);
    buf.writeUIntBE(ms, 0, 6);
    next.copy(buf, 6);
    return `${ID_PREFIXES[kind]}_${base32(buf).slice(0, 26)}`;
  };
}

/** The 26th character holds the random part's last 3 bits (and 2 bits of padding). */
const LAST_CHARACTER = 8;

/** `tail` + `step` as a big-endian number; undefined when it would overflow (a fresh random part then). */
function increment(tail: Buffer, step = LAST_CHARACTER): Buffer | undefined {
  const out = Buffer.from(tail);
  let carry = step;
  for (let i = out.length - 1; i >= 0 && carry > 0; i--) {
    const sum = (out[i] as number) + carry;
    out[i] = sum & 0xff;
    carry = sum >> 8;
  }
  return carry > 0 ? undefined : out;
}
