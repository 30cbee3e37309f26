import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { type Clock, systemClock } from '../../../platform/clock.ts';
import { type RandomBytes, systemRandom } from '../../../platform/crypto.ts';
import type { AnyConnectorDefinition, ConnectorDefinition, MountedSandbox } from '../connectors.definition.ts';
import { connectorDefinitions } from '../connectors.registry.ts';
import { SandboxAnswer, writeAnswer } from './sandbox.http.ts';
import { completeSandboxSecrets, keepSandboxSecrets, SANDBOX_SECRETS_FILE, type SandboxSecrets } from './sandbox.secrets.ts';
import { TEST_NUMBERS_HELP } from './test-numbers.ts';

/**
 * One sandbox process for every connector in the registry (docs/spec/providers.md), one base path
 * each on one port, as each connector's definition mounts it (`sandbox.path`; the root takes every
 * path no other mount does). Nothing here names a provider: adding a connector adds its mount.
 */

export interface SandboxOptions {
  port?: number;
  host?: string;
  clock?: Clock;
  random?: RandomBytes;
  /** Approval windows of 5 s instead of 5 min. */
  fast?: boolean;
  /**
   * `--production`: every mount answers as its provider's production API does (refuses the
   * sandbox's values and test-only keys, takes production ones), with the same test numbers and
   * pages: a live rehearsal on one machine (docs/going-live.md).
   */
  production?: boolean;
  /** How often final states are reached without a request (default 200 ms; 0: only on requests and tick()). */
  tickMs?: number;
  /**
   * This server's callbacks base (`…/callbacks`): where a provider whose notifications go to an
   * address set on the account (not sent with each request) sends them, under its name.
   */
  callbacksUrl?: string;
  /** Each mount's own options by its registry name, in the shape its connector's folder documents. */
  options?: Readonly<Record<string, unknown>>;
  /**
   * The secrets shared with test mode's connectors (`sandboxSecrets(dataDir)`); without them (or
   * for a connector they lack), new ones of this sandbox's own (`sandbox.secrets`). A mount's own
   * options may override its own.
   */
  secrets?: SandboxSecrets;
  callbackTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface Sandbox {
  /** The root: the base every mount's path is under. */
  readonly url: string;
  /** Each provider's base URL by its registry name. */
  readonly urls: Readonly<Record<string, string>>;
  /** The secrets it uses (pass them to `sandboxSettings` to pair test mode's connectors with it). */
  readonly secrets: SandboxSecrets;
  /** One connector's sandbox, as its definition's mount hands it to tests. */
  of<H>(definition: ConnectorDefinition<never, H> | AnyConnectorDefinition): H;
  /** Turns these fault switches on in every mount that has them. */
  setFaults(on: readonly string[]): void;
  /** Moves every provider's time forward (on top of the clock). */
  advance(ms: number): void;
  tick(): Promise<void>;
  close(): Promise<void>;
}

interface Mounted {
  name: string;
  prefix: string;
  faults: readonly string[];
  mount: MountedSandbox<unknown>;
}

/** The mount a path falls under: the longest prefix it starts with (the root's is empty). */
function mountOf(mounts: readonly Mounted[], path: string): Mounted | undefined {
  let best: Mounted | undefined;
  for (const m of mounts) {
    const under = m.prefix === '' || path === m.prefix || path.startsWith(`${m.prefix}/`);
    if (under && (best === undefined || m.prefix.length > best.prefix.length)) best = m;
  }
  return best;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const clock = opts.clock ?? systemClock;
  const random = opts.random ?? systemRandom;
  const host = opts.host ?? '127.0.0.1';
  const tickMs = opts.tickMs ?? 200;
  let offset = 0;
  const now = () => clock.now().getTime() + offset;
  let url = '';
  const callbacksUrl = opts.callbacksUrl?.replace(/\/+$/, '');
  const mounts: Mounted[] = [];
  const secrets = completeSandboxSecrets(opts.secrets ?? {}, connectorDefinitions(), random);
  for (const definition of connectorDefinitions()) {
    const { name } = definition.description;
    const prefix = definition.sandbox.path.replace(/\/+$/, '');
    const mount = await definition.sandbox.start({
      now,
      random,
      fast: opts.fast ?? false,
      production: opts.production ?? false,
      tickMs,
      callbackTimeoutMs: opts.callbackTimeoutMs,
      log: opts.log,
      baseUrl: () => url + prefix,
      callbacksUrl,
      options: opts.options?.[name],
      secrets: secrets[name] ?? {},
    });
    mounts.push({ name, prefix, faults: definition.sandbox.faults, mount });
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname.replace(/\/+$/, '') || '/';
    const m = mountOf(mounts, path);
    if (m === undefined) return new SandboxAnswer(404, { code: 'NOT_FOUND', message: `No provider is mounted at ${path}` });
    return m.mount.serve(method, path.slice(m.prefix.length) || '/', req, res);
  }

  const server = createServer((req, res) => {
    route(req, res)
      .catch((err: unknown) => (err instanceof SandboxAnswer ? err : new SandboxAnswer(500, { code: 'INTERNAL_ERROR', message: (err as Error).message })))
      .then((answer) => {
        if (answer === undefined) return;
        writeAnswer(res, answer);
        opts.log?.(`${req.method} ${req.url} ${answer.status}`);
      });
  });
  const ticker = tickMs > 0 ? setInterval(() => mounts.forEach((m) => m.mount.settle()), tickMs) : undefined;
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
    urls: Object.fromEntries(mounts.map((m) => [m.name, url + m.prefix])),
    secrets,
    of<H>(definition: ConnectorDefinition<never, H> | AnyConnectorDefinition): H {
      const m = mounts.find((x) => x.name === definition.description.name);
      if (m === undefined) throw new Error(`connector ${definition.description.name} has no mount in this sandbox`);
      return m.mount.handle as H;
    },
    setFaults(on) {
      for (const m of mounts) {
        const own = on.filter((f) => m.faults.includes(f));
        if (own.length > 0) m.mount.setFaults(own);
      }
    },
    advance(ms) {
      offset += ms;
    },
    async tick() {
      await Promise.all(mounts.map((m) => m.mount.tick()));
    },
    close() {
      closing ??= (async () => {
        if (ticker) clearInterval(ticker);
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await Promise.all(mounts.map((m) => m.mount.close()));
        await closed;
      })();
      return closing;
    },
  };
}

/**
 * The sandbox `caisse start` runs in its own process in development, its notifications sent to
 * `callbacks` (this server's `…/callbacks`), each provider's to its own path there, with the data
 * directory's secrets test mode's connectors are given too.
 */
export function startLocalSandbox(callbacks: string, secrets: SandboxSecrets): Promise<Sandbox> {
  return startSandbox({ port: 0, host: '127.0.0.1', callbacksUrl: callbacks, secrets });
}

/**
 * The data directory's sandbox secrets (`<CAISSE_DATA_DIR>/sandbox-secrets.json`), each
 * registered connector's that declares some, made on first use: what `caisse sandbox` and the
 * gateway's test mode share.
 */
export function sandboxSecrets(dataDir: string, random: RandomBytes = systemRandom): SandboxSecrets {
  return keepSandboxSecrets(dataDir, connectorDefinitions(), random);
}

/** What `caisse sandbox --help` says of the providers it plays and of each one's fault switches, from the registry. */
export function sandboxHelp(): { providers: string; faults: string } {
  const definitions = connectorDefinitions();
  return {
    providers: definitions.map((d) => `${d.description.displayName} (${d.description.name}, at ${d.sandbox.path || '/'})`).join(', '),
    faults: definitions.map((d) => `${d.sandbox.faults.join(',')} (${d.description.name})`).join('; '),
  };
}

/** Every fault switch some mount knows, for `--faults`. */
function knownFaults(): string[] {
  return [...new Set(connectorDefinitions().flatMap((d) => d.sandbox.faults))];
}

/**
 * `caisse sandbox` (alias `momo-sandbox`): every connector's sandbox on one port, on the system
 * clock, until SIGINT or SIGTERM; its secrets are the data directory's, as the gateway's are.
 */
export async function runSandbox(opts: {
  port: number;
  host: string;
  faults: string[];
  fast?: boolean;
  production?: boolean;
  callbacksUrl?: string;
  dataDir: string;
}): Promise<void> {
  const known = knownFaults();
  const unknown = opts.faults.filter((f) => !known.includes(f));
  // commander's error type: the CLI prints it as a usage error, without a stack.
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown fault ${unknown.join(', ')}; known: ${known.join(', ')}`);
  const callbacksUrl = opts.callbacksUrl?.replace(/\/+$/, '');
  const sandbox = await startSandbox({
    port: opts.port,
    host: opts.host,
    fast: opts.fast,
    production: opts.production,
    callbacksUrl,
    secrets: sandboxSecrets(opts.dataDir),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  sandbox.setFaults(opts.faults);
  const definitions = connectorDefinitions();
  const width = Math.max(...definitions.map((d) => d.description.name.length));
  const secretsFile = join(opts.dataDir, SANDBOX_SECRETS_FILE);
  const lines = definitions.map(
    (d) =>
      `  ${d.description.name.padEnd(width)}  ${d.sandbox.help({ url: sandbox.urls[d.description.name] as string, callbacksUrl, secretsFile, production: opts.production ?? false })}`,
  );
  process.stdout.write(
    `Sandbox listening on ${sandbox.url} (CAISSE_SANDBOX_URL=${sandbox.url})\n` +
      (opts.production ? `  production behaviour: sandbox values and test-only keys are refused; point live accounts here to rehearse\n` : '') +
      `${lines.join('\n')}\n` +
      `  numbers by their last three digits (the payer's number; on the payment pages): ${TEST_NUMBERS_HELP}\n` +
      `  approval window ${opts.fast ? '5 s' : '5 min'}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sandbox.close();
}
