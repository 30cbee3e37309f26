/**
 * Errors that mean "no database to talk to right now", not a fault of the request or of the code:
 * the primary died, is being replaced, or the pooler has no server for us (docs/operations.md).
 * The API answers them 503 `unavailable` with Retry-After; workers log them as warnings and try
 * again at their next round.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * SQLSTATEs: class 08 (connection exception; PgBouncer sends 08P01 when it has no server),
 * 57P01–57P03 (the server is shutting down, crashed or still starting), 25006 (a read-only
 * transaction: a standby not promoted yet), 53300 (too many connections).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '25006', '53300']);
/** What node-postgres throws when its connection is gone or never came. */
const PG_MESSAGES = ['Connection terminated', 'timeout exceeded when trying to connect', 'is not queryable', 'Query read timeout'];

/** Seconds a client should wait before retrying: a failover takes a few. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SQLSTATES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))) return true;
  if (typeof e.message === 'string' && PG_MESSAGES.some((m) => (e.message as string).includes(m))) return true;
  // Node's connect to a name with several addresses fails with an AggregateError of each.
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isDatabaseUnavailable);
}

/** The level a background failure is logged at: a database away is expected during a failover. */
export function failureLevel(err: unknown): 'warn' | 'error' {
  return isDatabaseUnavailable(err) ? 'warn' : 'error';
}
