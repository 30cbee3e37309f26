import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { Agent, request } from 'undici';
import { type Clock, systemClock } from '../../../platform/clock.ts';
import { type RandomBytes, systemRandom } from '../../../platform/crypto.ts';
import { type MomoSandbox, type MomoSandboxOptions, startMomoSandbox } from '../momo-sandbox.ts';
import { createOrangeSandbox, type OrangeSandbox } from '../orange-money/orange-money.sandbox.ts';
import { createWaveSandbox, type WaveSandbox } from '../wave/wave.sandbox.ts';
import { SandboxAnswer, writeAnswer } from './sandbox.http.ts';
import { newSandboxSecrets, SANDBOX_SECRETS_FILE, type SandboxSecrets, sandboxSecrets } from './sandbox.secrets.ts';
import { TEST_NUMBERS_HELP } from './test-numbers.ts';

/**
 * One sandbox process for every provider (docs/spec/providers.md), one base path each on one port:
 * Orange Money under `/orange-money`, Wave under `/wave`, and MTN MoMo at the root (where
 * `CAISSE_MOMO_SANDBOX_URL` has always pointed). The MoMo sandbox keeps its own server on a
 * loopback port; this one forwards to it, so it runs unchanged.
 */

export const SANDBOX_PATHS = { orange_money: '/orange-money', wave: '/wave' } as const;

export interface SandboxOptions {
  port?: number;
  host?: string;
  clock?: Clock;
  random?: RandomBytes;
  /** Approval windows of 5 s instead of 5 min. */
  fast?: boolean;
  /** How often final states are reached without a request (default 200 ms; 0: only on requests and tick()). */
  tickMs?: number;
  momo?: Partial<MomoSandboxOptions>;
  orange?: { credentials?: { clientId: string; clientSecret: string; merchantKey: string }; tokenTtlSeconds?: number };
  wave?: { apiKey?: string; webhookUrl?: string; webhookSecret?: string };
  /**
   * The secrets shared with test mode's connectors (`sandboxSecrets(dataDir)`); without them, new
   * ones of this sandbox's own (`sandbox.secrets`). `wave.webhookSecret` overrides.
   */
  secrets?: SandboxSecrets;
  callbackTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface Sandbox {
  /** The root: MTN MoMo's base URL. */
  readonly url: string;
  readonly urls: { mtn_momo: string; orange_money: string; wave: string };
  readonly momo: MomoSandbox;
  readonly orange: OrangeSandbox;
  readonly wave: WaveSandbox;
  /** The secrets it uses (pass them to `sandboxSettings` to pair test mode's connectors with it). */
  readonly secrets: SandboxSecrets;
  /** Moves every provider's time forward (on top of the clock). */
  advance(ms: number): void;
  tick(): Promise<void>;
  close(): Promise<void>;
}

const MOUNTS: { prefix: string; key: 'orange' | 'wave' }[] = [
  { prefix: SANDBOX_PATHS.orange_money, key: 'orange' },
  { prefix: SANDBOX_PATHS.wave, key: 'wave' },
];

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const clock = opts.clock ?? systemClock;
  const random = opts.random ?? systemRandom;
  const host = opts.host ?? '127.0.0.1';
  let offset = 0;
  const now = () => clock.now().getTime() + offset;
  let url = '';
  const secrets = { ...(opts.secrets ?? newSandboxSecrets(random)), ...(opts.wave?.webhookSecret ? { waveWebhookSecret: opts.wave.webhookSecret } : {}) };
  const common = { now, random, fast: opts.fast, callbackTimeoutMs: opts.callbackTimeoutMs, log: opts.log };
  const momo = await startMomoSandbox({ clock: { now: () => new Date(now()) }, random, tickMs: opts.tickMs, fast: opts.fast, log: opts.log, ...opts.momo });
  const providers = {
    orange: createOrangeSandbox({ ...common, ...opts.orange, baseUrl: () => url + SANDBOX_PATHS.orange_money }),
    wave: createWaveSandbox({
      ...common,
      apiKey: opts.wave?.apiKey,
      webhookUrl: opts.wave?.webhookUrl,
      webhookSecret: secrets.waveWebhookSecret,
      baseUrl: () => url + SANDBOX_PATHS.wave,
    }),
  };
  const agent = new Agent({ keepAliveTimeout: 1000 });

  /** Everything that is not another provider's goes to the MoMo sandbox as it came, and back. */
  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection'));
    const aborted = new AbortController();
    res.once('close', () => aborted.abort());
    try {
      const answer = await request(momo.url + (req.url ?? '/'), {
        method: (req.method ?? 'GET') as 'GET',
        headers: headers as Record<string, string>,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req,
        dispatcher: agent,
        signal: aborted.signal,
      });
      const type = answer.headers['content-type'];
      res.writeHead(answer.statusCode, typeof type === 'string' ? { 'content-type': type } : {});
      for await (const chunk of answer.body) res.write(chunk);
      res.end();
    } catch {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined | 'forwarded'> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname.replace(/\/+$/, '') || '/';
    for (const m of MOUNTS) {
      if (path === m.prefix || path.startsWith(`${m.prefix}/`)) return providers[m.key].handle(method, path.slice(m.prefix.length) || '/', req, res);
    }
    await forward(req, res);
    return 'forwarded';
  }

  const server = createServer((req, res) => {
    route(req, res)
      .catch((err: unknown) => (err instanceof SandboxAnswer ? err : new SandboxAnswer(500, { code: 'INTERNAL_ERROR', message: (err as Error).message })))
      .then((answer) => {
        if (answer === undefined || answer === 'forwarded') return;
        writeAnswer(res, answer);
        opts.log?.(`${req.method} ${req.url} ${answer.status}`);
      });
  });
  const ticker = (opts.tickMs ?? 200) > 0 ? setInterval(() => Object.values(providers).forEach((p) => p.settle()), opts.tickMs ?? 200) : undefined;
  ticker?.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    urls: { mtn_momo: url, orange_money: url + SANDBOX_PATHS.orange_money, wave: url + SANDBOX_PATHS.wave },
    momo,
    orange: providers.orange,
    wave: providers.wave,
    secrets,
    advance(ms) {
      offset += ms;
    },
    async tick() {
      await Promise.all([momo.tick(), providers.orange.tick(), providers.wave.tick()]);
    },
    close() {
      closing ??= (async () => {
        if (ticker) clearInterval(ticker);
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await Promise.all([providers.orange.close(), providers.wave.close()]);
        await closed;
        await momo.close();
        await agent.close();
      })();
      return closing;
    },
  };
}

/**
 * The sandbox `caisse start` runs in its own process in development, its notifications sent to
 * `callbacks` (this server's `…/callbacks`), each provider's to its own path there. `callbackUrl`
 * is MoMo's, the one `createModeConnectors` takes (the others' go beside it).
 */
export async function startLocalSandbox(callbacks: string, secrets: SandboxSecrets): Promise<{ sandbox: Sandbox; callbackUrl: string }> {
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', secrets, wave: { webhookUrl: `${callbacks}/wave` } });
  return { sandbox, callbackUrl: `${callbacks}/mtn_momo` };
}

const MOMO_FAULTS = ['answer500', 'hang', 'dropCallbacks', 'duplicateCallbacks', 'badJson', 'badSchema'] as const;
const SHARED_FAULTS = ['answer500', 'hang', 'dropCallbacks'] as const;

/**
 * `caisse sandbox` (alias `momo-sandbox`): every provider's sandbox on one port, on the system
 * clock, until SIGINT or SIGTERM; its secrets are the data directory's, as the gateway's are.
 */
export async function runSandbox(opts: {
  port: number;
  host: string;
  faults: string[];
  fast?: boolean;
  callbacksUrl?: string;
  dataDir: string;
}): Promise<void> {
  // Wave pushes signed webhooks (the others' callbacks carry their URL in each request).
  const waveWebhookUrl = opts.callbacksUrl === undefined ? undefined : `${opts.callbacksUrl.replace(/\/+$/, '')}/wave`;
  const unknown = opts.faults.filter((f) => !(MOMO_FAULTS as readonly string[]).includes(f));
  // commander's error type: the CLI prints it as a usage error, without a stack.
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown fault ${unknown.join(', ')}; known: ${MOMO_FAULTS.join(', ')}`);
  const on = Object.fromEntries(opts.faults.map((f) => [f, true]));
  const sandbox = await startSandbox({
    port: opts.port,
    host: opts.host,
    fast: opts.fast,
    momo: { faults: on },
    secrets: sandboxSecrets(opts.dataDir),
    wave: { webhookUrl: waveWebhookUrl },
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const shared = Object.fromEntries(SHARED_FAULTS.filter((f) => on[f]).map((f) => [f, true]));
  sandbox.orange.setFaults(shared);
  sandbox.wave.setFaults(shared);
  process.stdout.write(
    `Sandbox listening on ${sandbox.url}\n` +
      `  mtn_momo      ${sandbox.urls.mtn_momo}  (CAISSE_MOMO_SANDBOX_URL; any API user, API key and subscription keys)\n` +
      `  orange_money  ${sandbox.urls.orange_money}  (environment dev, currency OUV; any client id, secret and merchant key)\n` +
      `  wave          ${sandbox.urls.wave}  (any API key starting with wave_; webhooks ${waveWebhookUrl ? `to ${waveWebhookUrl}, signed with the secret in ${join(opts.dataDir, SANDBOX_SECRETS_FILE)}` : 'off: --callbacks-url'})\n` +
      `  numbers by their last three digits (the payer's number; on the Orange and Wave payment pages): ${TEST_NUMBERS_HELP}\n` +
      `  approval window ${opts.fast ? '5 s' : '5 min'}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sandbox.close();
}
