/**
 * The world of the connector tests: a MoMo sandbox as a real HTTP server on 127.0.0.1 (random
 * port), a callback receiver, and an `mtn_momo` connector pointing at them, all on one
 * ManualClock so that tests move time instead of waiting.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type Connector, type Sandbox, sandboxSecrets, startSandbox } from '../src/modules/connectors/index.ts';
import { createMtnMomoConnector, type MtnMomoSettings } from '../src/modules/connectors/mtn-momo/mtn-momo.connector.ts';
import { type MomoSandbox, type MomoSandboxOptions, startMomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { createLogger } from '../src/platform/logger.ts';
import { createTestContext, type TestContext } from './harness.ts';

export const CREDENTIALS = {
  apiUser: '0efc4721-b2ec-409c-bcd4-429b4cb8e8e5',
  apiKey: 'apikey0secret0value0aaaa',
  collectionKey: 'collection0secret0value0bbbb',
  disbursementKey: 'disbursement0secret0value0cccc',
};

export const CALLBACK_KEY = Buffer.alloc(32, 7);

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** Records every request and answers 200, like our callback route will. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface World {
  clock: ManualClock;
  sandbox: MomoSandbox;
  receiver: Receiver;
  settings: MtnMomoSettings;
  connector: Connector;
  /** Every log line the connectors of this world wrote. */
  logs: string[];
  /** Another connector on the same sandbox, clock and logs, with other settings. */
  connectorWith(change: Partial<MtnMomoSettings>): Connector;
  close(): Promise<void>;
}

export async function startWorld(opts: { sandbox?: Partial<MomoSandboxOptions>; settings?: Partial<MtnMomoSettings> } = {}): Promise<World> {
  const clock = new ManualClock('2026-11-23T08:00:00.000Z');
  // tickMs 0: final states are reached only when a request comes in or the test calls tick().
  const sandbox = await startMomoSandbox({ clock, credentials: CREDENTIALS, tickMs: 0, ...opts.sandbox });
  const receiver = await startReceiver();
  const logs: string[] = [];
  const logger = createLogger({
    level: 'debug',
    stream: new Writable({
      write(chunk, _enc, cb) {
        logs.push(String(chunk));
        cb();
      },
    }),
  });
  const settings: MtnMomoSettings = {
    baseUrl: sandbox.url,
    targetEnvironment: 'sandbox',
    ...CREDENTIALS,
    callbackUrl: `${receiver.url}/connectors/mtn_momo/callbacks`,
    timeoutMs: 2000,
    ...opts.settings,
  };
  const connectors: Connector[] = [];
  const connectorWith = (change: Partial<MtnMomoSettings>) => {
    const c = createMtnMomoConnector({ ...settings, ...change }, { clock, logger, callbackKey: CALLBACK_KEY });
    connectors.push(c);
    return c;
  };
  const connector = connectorWith({});
  return {
    clock,
    sandbox,
    receiver,
    settings,
    connector,
    logs,
    connectorWith,
    async close() {
      await Promise.all(connectors.map((c) => c.close()));
      await sandbox.close();
      await receiver.close();
    },
  };
}

/** A port nobody listens on now (the app listens on it once built, for the sandbox's callbacks). */
export async function freePort(): Promise<number> {
  const { createServer: createTcpServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const probe = createTcpServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The app listening on 127.0.0.1 with its test-mode connector pointed at a MoMo sandbox that
 * calls it back; both on one ManualClock (starting at `start` when given). Close the sandbox
 * before the app: its callbacks' connections to the app, which Node's close does not end by
 * itself (seen: three, no request running), would hold the app's close up for 60 s.
 */
export async function appWithSandbox(opts: { start?: Date; env?: Record<string, string> } = {}): Promise<{ ctx: TestContext; sandbox: MomoSandbox }> {
  const port = await freePort();
  const clock = new ManualClock(opts.start);
  const sandbox = await startMomoSandbox({ clock, tickMs: 0 });
  const ctx = await createTestContext({
    clock,
    env: { CAISSE_SANDBOX_CALLBACKS_URL: `http://127.0.0.1:${port}/callbacks`, CAISSE_SANDBOX_URL: sandbox.url, ...opts.env },
  });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  return { ctx, sandbox };
}

/**
 * The app listening on 127.0.0.1 with test mode on every provider's sandbox (`startSandbox`: MTN
 * MoMo, Orange Money, Wave: every connector in the registry), which calls it back (Wave's webhooks to /callbacks/wave); both on
 * one ManualClock. Sandbox time moves with the clock: advance it, then `sandbox.tick()`. Close
 * the sandbox first, as with `appWithSandbox`.
 */
export async function appWithAllSandboxes(opts: { start?: Date; env?: Record<string, string> } = {}): Promise<{ ctx: TestContext; sandbox: Sandbox }> {
  const port = await freePort();
  const clock = new ManualClock(opts.start);
  const callbacks = `http://127.0.0.1:${port}/callbacks`;
  // One data directory for both, as for `caisse sandbox` and the gateway: they share its sandbox secrets.
  const dataDir = mkdtempSync(join(tmpdir(), 'caisse-sandbox-'));
  const sandbox = await startSandbox({ clock, tickMs: 0, callbacksUrl: callbacks, secrets: sandboxSecrets(dataDir) });
  const ctx = await createTestContext({
    clock,
    env: { CAISSE_DATA_DIR: dataDir, CAISSE_SANDBOX_CALLBACKS_URL: callbacks, CAISSE_SANDBOX_URL: sandbox.url, ...opts.env },
  });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  return { ctx, sandbox };
}

/**
 * Runs `body` with test mode's connector of the same provider replaced by `connector` (another
 * account's settings on the same sandbox), then puts the original back and closes it.
 */
export async function withTestConnector<T>(ctx: TestContext, connector: Connector, body: () => Promise<T>): Promise<T> {
  const registry = ctx.services.connectors.forMode('test');
  const original = registry.get;
  registry.get = (provider) => (provider === connector.provider ? connector : original(provider));
  try {
    return await body();
  } finally {
    registry.get = original;
    await connector.close();
  }
}

/** Silent connector dependencies on the app's clock (callbacks signed with CALLBACK_KEY: none expected). */
export function testConnectorDeps(ctx: TestContext) {
  const logger = createLogger({ level: 'silent', stream: new Writable({ write: (_c, _e, cb) => cb() }) });
  return { clock: ctx.clock, logger, callbackKey: CALLBACK_KEY };
}

/**
 * Runs `body` with test mode's MTN MoMo account replaced by one on the same MoMo sandbox but with a
 * collection key only (as a live account configured without CAISSE_MOMO_DISBURSEMENT_KEY).
 */
export function withCollectionOnlyMomo<T>(ctx: TestContext, sandboxUrl: string, body: () => Promise<T>): Promise<T> {
  const { disbursementKey: _none, ...settings } = { ...CREDENTIALS, baseUrl: sandboxUrl, targetEnvironment: 'sandbox' } satisfies MtnMomoSettings;
  return withTestConnector(ctx, createMtnMomoConnector(settings, testConnectorDeps(ctx)), body);
}

/**
 * Adds (in-process) a CinetPay test account on the sandbox for `countries`, taking `cardCurrencies`
 * by card (decision 0098: USD only where the account says CinetPay enabled it), signed with the
 * sandbox's own secret key so its notifications verify. The returned function disables it.
 */
export async function withCinetPayAccount(
  ctx: TestContext,
  sandbox: Sandbox,
  countries: string[],
  cardCurrencies = 'XAF,XOF,USD',
): Promise<{ id: string; disable: () => Promise<void> }> {
  const secretKey = sandboxSecrets(ctx.deps.config.dataDir as string).cinetpay?.secretKey as string;
  const account = await ctx.services.providerAccounts.add({
    connector: 'cinetpay',
    mode: 'test',
    countries,
    settings: {
      baseUrl: sandbox.urls.cinetpay as string,
      transferBaseUrl: sandbox.urls.cinetpay as string,
      siteId: '105905',
      callbackUrl: `${ctx.deps.config.sandbox.callbacksUrl}/cinetpay`,
      cardCurrencies,
    },
    credentials: { apiKey: 'cinetpay_usd_enabled_key', secretKey },
  });
  return { id: account.id, disable: async () => void (await ctx.services.providerAccounts.disable(account.id)) };
}
