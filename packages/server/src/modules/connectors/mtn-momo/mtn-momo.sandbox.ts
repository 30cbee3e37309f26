import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '../../../platform/clock.ts';
import { systemRandom } from '../../../platform/crypto.ts';
import { Hangs, SandboxAnswer, writeAnswer } from '../sandbox/sandbox.http.ts';
import { momoApi } from './mtn-momo.sandbox.api.ts';
import { momoControl } from './mtn-momo.sandbox.control.ts';
import { APPROVAL_WINDOW_MS, FAST_APPROVAL_WINDOW_MS } from './mtn-momo.sandbox.outcomes.ts';
import { momoRequests } from './mtn-momo.sandbox.requests.ts';
import { type MomoSandbox, type MomoSandboxOptions, NO_FAULTS, type SandboxFaults } from './mtn-momo.sandbox.types.ts';

/**
 * The MoMo sandbox (docs/spec/money-in.md): a small HTTP server speaking the same subset of MTN's MoMo Open
 * API as the `mtn_momo` connector, for tests, CI and development. The payer's or payee's number
 * decides the outcome (docs/spec/providers.md's test-number table); time comes from an injected clock, so tests move
 * it instead of waiting. Fault switches make it misbehave on purpose, and `/_sandbox/*` routes
 * let tests (and the reconciliation command) read and bend what it holds.
 */

export { APPROVAL_WINDOW_MS, FAST_APPROVAL_WINDOW_MS } from './mtn-momo.sandbox.outcomes.ts';
export {
  type MomoSandbox,
  type MomoSandboxOptions,
  SANDBOX_FAULTS,
  type SandboxCallback,
  type SandboxFaults,
  type SandboxOverride,
  type SandboxRequestView,
} from './mtn-momo.sandbox.types.ts';

export async function startMomoSandbox(opts: MomoSandboxOptions = {}): Promise<MomoSandbox> {
  const baseClock = opts.clock ?? systemClock;
  const random = opts.random ?? systemRandom;
  const log = opts.log ?? (() => {});
  let offset = 0;
  const now = () => baseClock.now().getTime() + offset;
  let faults: SandboxFaults = { ...NO_FAULTS, ...opts.faults };
  const hangs = new Hangs();
  const requests = momoRequests({
    now,
    random,
    approvalWindowMs: opts.fast ? FAST_APPROVAL_WINDOW_MS : APPROVAL_WINDOW_MS,
    callbackTimeoutMs: opts.callbackTimeoutMs ?? 2000,
    log,
    faults: () => faults,
  });
  const momo = momoApi({ opts, now, random, faults: () => faults, requests, hangs });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname.replace(/\/+$/, '') || '/';
    requests.settle();
    if (path.startsWith('/_sandbox/')) return momoControl(method, path, req, api, requests, now);
    return momo.serve(method, path, req, res);
  }

  const server = createServer((req, res) => {
    handle(req, res)
      .catch((err: unknown) => {
        if (err instanceof SandboxAnswer) return err;
        return new SandboxAnswer(500, { code: 'INTERNAL_PROCESSING_ERROR', message: (err as Error).message });
      })
      .then((answer) => {
        if (answer === undefined) return;
        // Numbers that fail at once do so right after the 202, callback included.
        res.once('finish', requests.settle);
        writeAnswer(res, answer);
        log(`${req.method} ${req.url} ${answer.status}`);
      });
  });

  const ticker = (opts.tickMs ?? 200) > 0 ? setInterval(requests.settle, opts.tickMs ?? 200) : undefined;
  ticker?.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const api: MomoSandbox = {
    url,
    port,
    faults: () => ({ ...faults }),
    setFaults(change) {
      faults = { ...faults, ...change };
      return { ...faults };
    },
    requests: () => [...requests.all()].sort((a, b) => a.createdAt - b.createdAt).map(requests.view),
    override: requests.override,
    callBack: requests.callBack,
    forget: requests.forget,
    advance(ms) {
      offset += ms;
    },
    revokeTokens: momo.revokeTokens,
    stats: () => ({ tokensIssued: momo.tokensIssued(), requests: requests.size() }),
    async tick() {
      requests.settle();
      await requests.drain();
    },
    close() {
      closing ??= (async () => {
        if (ticker) clearInterval(ticker);
        hangs.release();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await requests.close();
      })();
      return closing;
    },
  };
  return api;
}
