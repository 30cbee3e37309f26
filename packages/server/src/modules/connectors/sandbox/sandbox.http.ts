import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent, request } from 'undici';
import type { RandomBytes } from '../../../platform/crypto.ts';
import { type Checker, readJson } from '../connectors.http.ts';
import type { NotificationLog } from './redirect-payments.ts';

/** An answer a sandbox route gives (also thrown, to answer early). `body` as JSON unless a string. */
export class SandboxAnswer {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

const MAX_BODY = 64 * 1024;

export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export async function readRequestBody(req: IncomingMessage, tooLarge: unknown): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new SandboxAnswer(413, tooLarge);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON body read with its schema, or the provider's 400 (`invalid(reason, json)` makes its body). */
export function parseWith<T>(text: string, checker: Checker<T>, invalid: (reason: string, json: boolean) => unknown): T {
  const read = readJson(text === '' ? '{}' : text, checker, 'the body');
  if (read.ok) return read.value;
  throw new SandboxAnswer(400, invalid(read.reason, read.json));
}

export function writeAnswer(res: ServerResponse, answer: SandboxAnswer): void {
  const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  const type = typeof answer.body === 'string' && answer.body.startsWith('<!doctype') ? 'text/html; charset=utf-8' : 'application/json';
  res.writeHead(answer.status, { ...(text === '' ? {} : { 'content-type': type }), ...answer.headers });
  res.end(text);
}

/** Parses `a=1&b=2` (the payment page's form). */
export function formFields(text: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text));
}

/** Requests a sandbox takes and never answers (the `hang` fault), cut when it closes. */
export class Hangs {
  readonly #open = new Set<ServerResponse>();

  hold(res: ServerResponse): undefined {
    this.#open.add(res);
    res.once('close', () => this.#open.delete(res));
    return undefined;
  }

  release(): void {
    for (const res of this.#open) res.destroy();
  }
}

/** Sends a provider's notifications (POST, JSON) over one keep-alive agent, each bounded, never retried: the receiver polls instead. */
export class Notifier {
  readonly #agent = new Agent({ keepAliveTimeout: 1000 });

  constructor(
    private readonly now: () => number,
    private readonly timeoutMs = 2000,
  ) {}

  async post(url: string, headers: Record<string, string>, body: string): Promise<NotificationLog> {
    const entry: NotificationLog = { at: new Date(this.now()).toISOString() };
    try {
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        dispatcher: this.#agent,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await res.body.dump();
      entry.httpStatus = res.statusCode;
    } catch (err) {
      entry.error = (err as { code?: string; name?: string }).code ?? (err as Error).name;
    }
    return entry;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

/** Passes requests as they came to a sandbox that runs its own server (a mount kept unchanged behind the shared port), and its answers back. */
export class Forwarder {
  readonly #agent = new Agent({ keepAliveTimeout: 1000 });

  constructor(private readonly target: string) {}

  async forward(req: IncomingMessage, res: ServerResponse, path: string): Promise<undefined> {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection'));
    const aborted = new AbortController();
    res.once('close', () => aborted.abort());
    try {
      const answer = await request(this.target + path, {
        method: (req.method ?? 'GET') as 'GET',
        headers: headers as Record<string, string>,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req,
        dispatcher: this.#agent,
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
    return undefined;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

/** The fault switches of the redirect providers' sandboxes (`--faults` turns them on). */
export const REDIRECT_SANDBOX_FAULTS = ['answer500', 'hang', 'dropCallbacks'] as const;

export interface SandboxFaultSwitches {
  /** Every API route answers 500 (nothing is stored). */
  answer500: boolean;
  /** Every API route takes the request and never answers. */
  hang: boolean;
  /** Final states are reached without sending the notification. */
  dropCallbacks: boolean;
}

/** The credentials Caisse's test mode sends its sandboxes (each mount's `settings`): test-only, refused by the production behaviour. */
export const TEST_ONLY_CREDENTIAL = 'sandbox';

export interface ProviderSandboxOptions {
  now: () => number;
  random: RandomBytes;
  /** The approval window is 5 s instead of 5 min. */
  fast?: boolean;
  /** Answer as the provider's production API does (`caisse sandbox --production`): sandbox values and test-only keys refused. */
  production?: boolean;
  /** This provider's base URL as the payer's browser reaches it (known once the server listens). */
  baseUrl: () => string;
  callbackTimeoutMs?: number;
  log?: (line: string) => void;
}
