import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id (an ambient const enum the isolated build cannot read).
const ARGON2ID = 2;

export interface PasswordCost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** argon2id at OWASP's minimum: 19 MiB, 2 iterations, 1 lane. */
export const PASSWORD_COST: PasswordCost = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** argon2id's smallest cost (8 KiB, 1 iteration): for test suites, which hash about a thousand passwords a run. */
export const TEST_PASSWORD_COST: PasswordCost = { memoryCost: 8, timeCost: 1, parallelism: 1 };

let cost = PASSWORD_COST;

/**
 * The cost of the hashes made from now on in this process. Only the server suite's harness lowers
 * it (no setting or variable reaches it): a stored hash names its own cost, so hashes of either
 * cost verify.
 */
export function setPasswordCost(next: PasswordCost): void {
  cost = next;
  dummy = undefined;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, ...cost });
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash of a random password, verified against when the account does not exist (same time). */
let dummy: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword('caisse-dummy-password-for-timing');
  return dummy;
}
