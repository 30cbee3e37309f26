import { Pool } from 'undici';

/** An answer with its status and body, or why there is none. Never thrown. */
export type HttpResult = { ok: true; status: number; body: string } | { ok: false; reason: string };

export interface ProviderHttpOptions {
  /** Bound on one call, from connecting to the last byte of the answer. */
  timeoutMs: number;
  /** Keep-alive connections to the provider (default 16). */
  connections?: number;
  /** Larger answers are cut off and reported (default 64 KiB): no provider answer is that big. */
  maxAnswerBytes?: number;
}

/**
 * HTTP to one provider: a keep-alive undici Pool to its origin (TLS and TCP set up once, not per
 * call) and a hard bound on every call. Transport errors come back as a reason, never thrown,
 * and the reason never quotes a header (the credentials travel in headers).
 */
export class ProviderHttp {
  readonly #pool: Pool;
  readonly #basePath: string;
  readonly #timeoutMs: number;
  readonly #maxBytes: number;

  constructor(baseUrl: string, opts: ProviderHttpOptions) {
    const url = new URL(baseUrl);
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#timeoutMs = opts.timeoutMs;
    this.#maxBytes = opts.maxAnswerBytes ?? 64 * 1024;
    this.#pool = new Pool(url.origin, {
      connections: opts.connections ?? 16,
      keepAliveTimeout: 30_000,
      // The per-call signal below bounds the whole call; these bound each phase the same way in
      // case a phase outlives it (the pool reuses sockets across calls).
      connect: { timeout: opts.timeoutMs },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
  }

  async send(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<HttpResult> {
    const signal = AbortSignal.timeout(this.#timeoutMs);
    try {
      const res = await this.#pool.request({
        method,
        path: this.#basePath + path,
        // JSON unless the caller names another type (OAuth token requests are form-encoded).
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        body,
        signal,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > this.#maxBytes) {
          res.body.destroy();
          return { ok: false, reason: `HTTP ${res.statusCode} with an answer larger than ${this.#maxBytes} bytes` };
        }
        chunks.push(chunk);
      }
      return { ok: true, status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') };
    } catch (err) {
      return { ok: false, reason: this.#describe(err) };
    }
  }

  #describe(err: unknown): string {
    const e = err as { name?: string; code?: string; message?: string };
    if (e.name === 'TimeoutError' || /TIMEOUT/.test(e.code ?? '')) return `no answer within ${this.#timeoutMs} ms`;
    if (e.code === 'ECONNREFUSED') return 'connection refused';
    if (e.code === 'ECONNRESET' || e.code === 'UND_ERR_SOCKET') return 'connection reset';
    return `request failed (${e.code ?? e.name ?? 'error'})`;
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** A compiled TypeBox schema (typebox/compile), as far as reading JSON needs it. */
export interface Checker<T> {
  Check(value: unknown): value is T;
  Errors(value: unknown): { instancePath: string; message: string }[];
}

/**
 * Parses a JSON text and checks it against a compiled schema. The reason says what was wrong,
 * naming the text as `what` ("the answer", "the body"); `json` tells bad JSON from a bad shape.
 */
export function readJson<T>(text: string, checker: Checker<T>, what = 'the answer'): { ok: true; value: T } | { ok: false; json: boolean; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, json: false, reason: `${what} is not JSON` };
  }
  if (checker.Check(value)) return { ok: true, value };
  const first = checker.Errors(value)[0];
  return { ok: false, json: true, reason: `${what} does not match the schema (${first ? `${first.instancePath || '/'} ${first.message}` : 'invalid'})` };
}
