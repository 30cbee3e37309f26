import { randomUUID } from 'node:crypto';
import { API_VERSION } from '@caisse/api-types';
import { CaisseAPIError, CaisseConnectionError, CaisseError, errorFromResponse } from './errors.ts';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpConfig {
  apiKey: string;
  secretKey: string;
  baseUrl: string;
  maxRetries: number;
  timeout: number;
  apiVersion: string;
  fetch: FetchLike;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  userAgent: string;
}

export interface RequestOptions {
  /**
   * Makes a POST safe to repeat: the API replays the first answer for the same key and body
   * (docs/spec/request-rules.md). The SDK makes one per call when none is given and sends it with every retry.
   */
  idempotencyKey?: string;
  /** Retries of this call after the first attempt (default: the client's `maxRetries`). */
  maxRetries?: number;
  /** Milliseconds each attempt may take (default: the client's `timeout`). */
  timeout?: number;
  signal?: AbortSignal;
}

/** What the answer said besides its body: on every returned object, not enumerable. */
export interface ResponseMeta {
  status: number;
  requestId: string | undefined;
  headers: Headers;
  idempotencyKey: string | undefined;
  /** True when the API replayed a stored answer for the Idempotency-Key. */
  idempotentReplayed: boolean;
  /** How many attempts the call took. */
  attempts: number;
}
export type WithResponse<T> = T & { readonly lastResponse: ResponseMeta };

type Query = Record<string, string | number | boolean | undefined | null>;

/**
 * Who a request is made as: the merchant (API key and secret key, the default), the API key
 * alone (a customer signing in), or a customer (API key and the user's access token).
 */
export type Caller = 'merchant' | 'apiKey' | { userToken: string };

/** Exponential backoff: 0.5 s, 1 s, 2 s, … up to 8 s, with jitter in the upper half of each step. */
export const BACKOFF = { initialMs: 500, maxMs: 8_000 } as const;
/** A Retry-After longer than this is not waited for inside a call: the error is thrown. */
export const MAX_RETRY_AFTER_SECONDS = 60;

function isRetryable(error: CaisseError): boolean {
  if (error instanceof CaisseConnectionError) return true;
  if (error.status === undefined) return false;
  if (error.status === 429) return (error.retryAfter ?? 0) <= MAX_RETRY_AFTER_SECONDS;
  // The first request with this Idempotency-Key is still running: ask again shortly.
  if (error.status === 409 && error.code === 'idempotency_request_in_progress') return true;
  return error.status >= 500;
}

function delayMs(attempt: number, error: CaisseError, random: () => number): number {
  const after = error.retryAfter;
  const backoff = Math.min(BACKOFF.maxMs, BACKOFF.initialMs * 2 ** attempt);
  const jittered = backoff / 2 + (random() * backoff) / 2;
  return after === undefined ? jittered : Math.max(after * 1000, jittered);
}

export class HttpClient {
  constructor(private readonly config: HttpConfig) {}

  async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    opts: { query?: Query; body?: unknown; options?: RequestOptions; as?: Caller; headers?: Record<string, string> } = {},
  ): Promise<WithResponse<T>> {
    const options = opts.options ?? {};
    const url = new URL(this.config.baseUrl + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    const idempotencyKey = method === 'POST' ? (options.idempotencyKey ?? randomUUID()) : undefined;
    const as = opts.as ?? 'merchant';
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-api-key': this.config.apiKey,
      ...(as === 'merchant' ? { authorization: `Bearer ${this.config.secretKey}` } : as === 'apiKey' ? {} : { authorization: `Bearer ${as.userToken}` }),
      'pay-version': this.config.apiVersion,
      'user-agent': this.config.userAgent,
      ...opts.headers,
    };
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    // POST, PUT and PATCH bodies are JSON; an operation without parameters sends `{}`.
    const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? JSON.stringify(opts.body ?? {}) : undefined;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const maxRetries = options.maxRetries ?? this.config.maxRetries;
    const timeout = options.timeout ?? this.config.timeout;

    for (let attempt = 0; ; attempt++) {
      const error = await this.attempt<T>(url.toString(), { method, headers, body }, timeout, options.signal, idempotencyKey, attempt);
      if (!(error instanceof CaisseError)) return error;
      if (attempt >= maxRetries || !isRetryable(error) || options.signal?.aborted) throw error;
      await this.config.sleep(delayMs(attempt, error, this.config.random));
    }
  }

  /** One try: the parsed answer, or the error it made (returned, so the caller decides to retry). */
  private async attempt<T>(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string | undefined },
    timeout: number,
    signal: AbortSignal | undefined,
    idempotencyKey: string | undefined,
    attempt: number,
  ): Promise<WithResponse<T> | CaisseError> {
    const timer = AbortSignal.timeout(timeout);
    const combined = signal ? AbortSignal.any([signal, timer]) : timer;
    let response: Response;
    // Called unbound: a platform's own fetch (a browser's, a worker's) throws "Illegal invocation" on any other `this`.
    const send = this.config.fetch;
    try {
      response = await send(url, { ...init, signal: combined });
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      const timedOut = timer.aborted;
      return new CaisseConnectionError({
        code: timedOut ? 'timeout' : 'connection_error',
        message: timedOut
          ? `No answer from Caisse within ${timeout} ms (${init.method} ${new URL(url).pathname})`
          : `Could not reach Caisse at ${new URL(url).origin}: ${(err as Error)?.message ?? String(err)}`,
        idempotencyKey,
        cause: err,
      });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      return new CaisseConnectionError({ code: 'connection_error', message: 'The answer was cut off', idempotencyKey, cause: err });
    }
    let parsed: unknown = undefined;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    if (!response.ok) return errorFromResponse(response.status, response.headers, parsed, idempotencyKey);
    if (parsed === null || typeof parsed !== 'object') {
      return new CaisseAPIError({
        code: 'invalid_response',
        message: `The answer to ${init.method} ${new URL(url).pathname} was not a JSON object`,
        status: response.status,
        requestId: response.headers.get('request-id') ?? undefined,
        headers: response.headers,
        idempotencyKey,
      });
    }
    const meta: ResponseMeta = {
      status: response.status,
      requestId: response.headers.get('request-id') ?? undefined,
      headers: response.headers,
      idempotencyKey,
      idempotentReplayed: response.headers.get('idempotent-replayed') === 'true',
      attempts: attempt + 1,
    };
    Object.defineProperty(parsed, 'lastResponse', { value: meta, enumerable: false });
    return parsed as WithResponse<T>;
  }
}

export { API_VERSION };
