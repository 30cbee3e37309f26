import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent, request } from 'undici';
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
