import { type Command, InvalidArgumentError } from 'commander';
import { isIPv6 } from 'node:net';
import type { ApiTarget } from '../client.ts';
import { EVENT_TYPES, type EventType, isEventType } from '../event-types.ts';
import { examples, print } from '../support.ts';

interface TargetOptions {
  apiKey?: string;
  secretKey?: string;
  baseUrl?: string;
}

/** The running server and the merchant's test keys, for commands that work over HTTP (listen, trigger). */
function apiTarget(opts: TargetOptions): ApiTarget {
  const apiKey = opts.apiKey ?? process.env.CAISSE_API_KEY;
  const secretKey = opts.secretKey ?? process.env.CAISSE_SECRET_KEY;
  const baseUrl = opts.baseUrl ?? process.env.CAISSE_BASE_URL ?? localServerUrl(process.env);
  if (!apiKey) throw new InvalidArgumentError('give the test API key with --api-key or CAISSE_API_KEY');
  if (!secretKey) throw new InvalidArgumentError('give the test secret key with --secret-key or CAISSE_SECRET_KEY');
  if (!apiKey.startsWith('pk_test_') || !secretKey.startsWith('sk_test_')) {
    throw new InvalidArgumentError('listen and trigger work in test mode only: use pk_test_… and sk_test_… keys');
  }
  httpUrl(baseUrl, '--base-url');
  return { apiKey, secretKey, baseUrl };
}

/**
 * The server this machine runs with the same configuration (PORT, HOST) as `caisse start`: a
 * listener on every address (0.0.0.0, ::, the default in production) is reached on loopback.
 */
export function localServerUrl(env: NodeJS.ProcessEnv): string {
  const port = /^\d{1,5}$/.test(env.PORT ?? '') && Number(env.PORT) > 0 && Number(env.PORT) <= 65535 ? Number(env.PORT) : 8080;
  const host = env.HOST?.trim();
  const address = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${isIPv6(address) ? `[${address}]` : address}:${port}`;
}

function httpUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`${name} is not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`${name} must be an http:// or https:// URL`);
  return value;
}

function eventTypes(value: string): EventType[] {
  const types = value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '' && t !== '*');
  for (const t of types) if (!isEventType(t)) throw new InvalidArgumentError(`unknown event type "${t}"; known: ${EVENT_TYPES.join(', ')}`);
  return types as EventType[];
}

/** Runs listen or trigger: their failures the person can act on become one line (CliError). */
async function overHttp(run: () => Promise<void>): Promise<void> {
  const { explain } = await import('../errors.ts');
  try {
    await run();
  } catch (err) {
    throw explain(err);
  }
}

function targetOptions(command: Command): Command {
  return command
    .option('--api-key <key>', 'test API key pk_test_… (default: CAISSE_API_KEY)')
    .option('--secret-key <key>', 'test secret key sk_test_… (default: CAISSE_SECRET_KEY)')
    .option('--base-url <url>', 'the server (default: CAISSE_BASE_URL, else http://127.0.0.1:PORT as `caisse start` reads PORT and HOST)');
}

/** listen and trigger: a merchant's test events over HTTP (they load their client code, on @caisse/node, only when they run). */
export function registerTestEventsCommands(program: Command): void {
  examples(
    targetOptions(
      program
        .command('listen')
        .description("forward this merchant's test events, as they happen, to a local URL, signed like webhooks with a secret it prints")
        .option('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/webhooks')
        .option('--events <types>', `comma-separated event types (default: all of ${EVENT_TYPES.join(', ')})`, eventTypes)
        .option('--print-secret', 'print the signing secret and exit'),
    ),
    'npx caisse listen --forward-to http://localhost:3000/webhooks --events payment.completed,payment.failed',
    'npx caisse listen --print-secret     # the whsec_… your handler verifies with',
  ).action(async (opts: TargetOptions & { forwardTo?: string; events?: EventType[]; printSecret?: boolean }) => {
    const target = apiTarget(opts);
    const { forwardingSecret, listen } = await import('../listen.ts');
    if (opts.printSecret) {
      process.stdout.write(`${forwardingSecret(target.secretKey)}\n`);
      return;
    }
    if (opts.forwardTo === undefined) throw new InvalidArgumentError('give --forward-to <url>');
    const forwardTo = httpUrl(opts.forwardTo, '--forward-to');
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    process.once('SIGTERM', () => stop.abort());
    await overHttp(() => listen({ ...target, forwardTo, events: opts.events, signal: stop.signal, say: (line) => process.stdout.write(`${line}\n`) }));
  });

  examples(
    targetOptions(
      program
        .command('trigger <event>')
        .description(`make a real test payment over HTTP that produces this event (${EVENT_TYPES.join(', ')})`)
        .option(
          '--method <method>',
          'pay from a test wallet (wallet) or directly with a provider that prompts the phone, by its registry name (npx caisse providers list); payment.processing: the first such provider',
        )
        .option('--json', 'print JSON'),
    ),
    'npx caisse trigger payment.completed',
    'npx caisse trigger payment.completed --method <provider>',
    'npx caisse trigger payment.failed --json',
  ).action(async (event: string, opts: TargetOptions & { json?: boolean; method?: string }) => {
    if (!isEventType(event)) throw new InvalidArgumentError(`unknown event type "${event}"; known: ${EVENT_TYPES.join(', ')}`);
    const json = opts.json === true;
    const target = apiTarget(opts);
    const [{ createCaisse }, { trigger, triggerMethods }] = await Promise.all([import('../client.ts'), import('../trigger.ts')]);
    const method = triggerMethods().find((m) => m === opts.method);
    if (opts.method !== undefined && method === undefined)
      throw new InvalidArgumentError(`unknown method "${opts.method}"; known: ${triggerMethods().join(', ')}`);
    await overHttp(async () => {
      const result = await trigger(createCaisse(target), event, json ? undefined : (line) => process.stdout.write(`${line}\n`), undefined, method);
      if (json) print(result, true);
      else {
        for (const e of result.events) process.stdout.write(`produced ${e.type} ${e.id} for ${result.payoutId ?? result.intentId}\n`);
        process.stdout.write(`intent ${result.intentId} is ${result.intentStatus}\n`);
        if (result.expiresAt) process.stdout.write(`payment.expired for ${result.intentId} will come shortly after ${result.expiresAt}\n`);
      }
    });
  });
}
