import { CaisseConnectionError, CaisseError } from '@caisse/node';
import { ListenFatalError } from './listen.ts';

/**
 * A failure of `listen` or `trigger` the person running it can act on, said in one line.
 * runCli prints its message without a stack; it knows it by name (this module, and the SDK with
 * it, load only for those two commands).
 */
export class CliError extends Error {
  override name = 'CliError';
}

/** The message of the fetch error whose cause is a refused connection, anywhere in the cause chain. */
function refusedBy(err: unknown): string | undefined {
  for (let e = err as { message?: unknown; cause?: { code?: unknown } } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.cause?.code === 'ECONNREFUSED') return String(e.message);
  }
  return undefined;
}

/** What to tell the person about a failure of listen or trigger: a CliError, or the error itself when it is a bug. */
export function explain(err: unknown): unknown {
  const refused = refusedBy(err);
  if (refused !== undefined) return new CliError(`cannot reach the server (${refused}: connection refused); is it running? (--base-url)`);
  if (err instanceof ListenFatalError || err instanceof CaisseConnectionError) return new CliError(err.message);
  if (err instanceof CaisseError) return new CliError(`the server answered ${err.status ?? ''} ${err.code}: ${err.message}`);
  return err;
}
