import { Caisse } from '@caisse/node';

/**
 * The Caisse API as the command line's `listen` and `trigger` (and the crash, outage and soak
 * runs) reach it: @caisse/node with the merchant's test keys.
 */

export interface ApiTarget {
  /** e.g. http://127.0.0.1:8080 (no trailing slash needed). */
  baseUrl: string;
  apiKey: string;
  secretKey: string;
}

/**
 * A @caisse/node client for the target. No retries: each request is made once and its failure
 * is the caller's to count or retry (the crash test retries a lost charge itself, with its
 * Idempotency-Key). Plain http is accepted on any host, as the test keys these commands take
 * allow (a server in another container).
 */
export function createCaisse(target: ApiTarget, opts: { timeoutMs?: number } = {}): Caisse {
  return new Caisse({
    apiKey: target.apiKey,
    secretKey: target.secretKey,
    baseUrl: target.baseUrl,
    maxRetries: 0,
    timeout: opts.timeoutMs ?? 30_000,
    allowInsecureHttp: true,
  });
}
