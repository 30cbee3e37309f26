import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { RandomBytes } from '../../platform/crypto.ts';
import { timingSafeEqual } from 'node:crypto';

/**
 * Session tokens (`ps_…`): the intent's id without its `pi_` prefix (26 characters), then 32
 * random bytes (256 bits) in base62 (43 characters). Like Stripe's client secrets, a token names
 * its intent: it is read by the primary key and its SHA-256 compared with the stored one, so no
 * index over random hashes is needed (such an index is written at a random page on every insert
 * and on every update of the intent, which a large table pays for in cache misses).
 * The id is no secret (events carry it); the 256 random bits are.
 */
export const SESSION_TOKEN_PREFIX = 'ps_';
const ID_LENGTH = 26;
const SECRET_BYTES = 32;
const SHAPE = /^ps_([0-9a-hjkmnp-tv-z]{26})[0-9A-Za-z]{43}$/;

export function newSessionToken(intentId: string, random: RandomBytes): string {
  const idPart = intentId.slice('pi_'.length);
  if (idPart.length !== ID_LENGTH) throw new Error(`unexpected intent id ${intentId}`);
  return SESSION_TOKEN_PREFIX + idPart + randomToken(random, SECRET_BYTES);
}

/** The intent a well-formed session token names, or undefined for any other text. */
export function intentIdOfSessionToken(token: string): string | undefined {
  const match = SHAPE.exec(token);
  return match ? `pi_${match[1]}` : undefined;
}

/** Whether `token` is the one whose SHA-256 was stored, in constant time. */
export function sessionTokenMatches(token: string, storedHash: Buffer): boolean {
  const hash = sha256(token);
  return hash.length === storedHash.length && timingSafeEqual(hash, storedHash);
}
