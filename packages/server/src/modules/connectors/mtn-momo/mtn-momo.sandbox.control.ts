import type { IncomingMessage } from 'node:http';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { SandboxAnswer } from '../sandbox/sandbox.http.ts';
import { parseJson, readBody } from './mtn-momo.sandbox.api.ts';
import type { MomoRequests } from './mtn-momo.sandbox.requests.ts';
import { Faults, type MomoSandbox, Override } from './mtn-momo.sandbox.types.ts';

const ClockMove = Type.Object({ advanceMs: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });

const checkFaults = Compile(Faults);
const checkOverride = Compile(Override);
const checkClockMove = Compile(ClockMove);

/** The `/_sandbox/*` routes: what tests (and the reconciliation command) read and bend of the sandbox. */
export async function momoControl(
  method: string,
  path: string,
  req: IncomingMessage,
  sandbox: MomoSandbox,
  requests: MomoRequests,
  now: () => number,
): Promise<SandboxAnswer> {
  if (method === 'GET' && path === '/_sandbox/faults') return new SandboxAnswer(200, sandbox.faults());
  if (method === 'POST' && path === '/_sandbox/faults') return new SandboxAnswer(200, sandbox.setFaults(parseJson(await readBody(req), checkFaults)));
  if (method === 'GET' && path === '/_sandbox/requests') return new SandboxAnswer(200, { data: sandbox.requests() });
  if (method === 'GET' && path === '/_sandbox/stats') return new SandboxAnswer(200, sandbox.stats());
  if (method === 'POST' && path === '/_sandbox/tick') {
    await sandbox.tick();
    return new SandboxAnswer(200, { ok: true });
  }
  if (method === 'POST' && path === '/_sandbox/clock') {
    sandbox.advance(parseJson(await readBody(req), checkClockMove).advanceMs);
    return new SandboxAnswer(200, { now: new Date(now()).toISOString() });
  }
  if (method === 'POST' && path === '/_sandbox/tokens/revoke') return new SandboxAnswer(200, { revoked: sandbox.revokeTokens() });
  const m = /^\/_sandbox\/requests\/([^/]+)(\/override)?$/.exec(path);
  if (m && method === 'GET' && m[2] === undefined) {
    const r = requests.get(m[1] as string);
    return r ? new SandboxAnswer(200, requests.view(r)) : new SandboxAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'No such request.' });
  }
  if (m && method === 'DELETE' && m[2] === undefined) {
    return sandbox.forget(m[1] as string) ? new SandboxAnswer(204) : new SandboxAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'No such request.' });
  }
  if (m && method === 'POST' && m[2] !== undefined) {
    const v = sandbox.override(m[1] as string, parseJson(await readBody(req), checkOverride));
    return v ? new SandboxAnswer(200, v) : new SandboxAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'No such request.' });
  }
  return new SandboxAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'No such sandbox route.' });
}
