import { Agent } from 'undici';
import { type AdminArgs, type AdminCommand, type AdminFile, type AdminResult, adminPath } from '../admin.ts';
import { ApiError, ERRORS, type ErrorCode } from '../platform/errors.ts';

/** The running server could not be reached at the address its admin.json gives (it died, or the file is stale). */
export class AdminUnreachableError extends Error {
  override name = 'AdminUnreachableError';
}

/**
 * Asks the server running on this data directory to run an operator command (src/admin.ts), as
 * the CLI would on the database itself. Its problem answers come back as the same ApiError.
 */
export async function callAdmin<C extends AdminCommand>(server: AdminFile, name: C, args: AdminArgs<C>): Promise<AdminResult<C>> {
  // A server that terminates TLS itself has a certificate for its public name, not for 127.0.0.1;
  // the token, not the certificate, is what authenticates this loopback call.
  const dispatcher = server.url.startsWith('https:') ? new Agent({ connect: { rejectUnauthorized: false } }) : undefined;
  let res: Response;
  try {
    res = await fetch(`${server.url}${adminPath(name)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
      ...(dispatcher ? { dispatcher } : {}),
    } as RequestInit);
  } catch (err) {
    throw new AdminUnreachableError(`cannot reach the server at ${server.url}: ${(err as Error).message}`);
  } finally {
    await dispatcher?.close();
  }
  const body = (await res.json().catch(() => ({}))) as { code?: string; detail?: string };
  if (res.ok) return body as AdminResult<C>;
  const code = (body.code !== undefined && body.code in ERRORS ? body.code : 'internal_error') as ErrorCode;
  throw new ApiError(code, body.detail ?? `the server answered ${res.status}`);
}
