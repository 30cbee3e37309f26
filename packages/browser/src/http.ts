// The browser client's HTTP: the gateway's address, the headers every call carries, and the
// retries of a request that got no answer, a 5xx or a short 429.
import { API_VERSION, CaisseError, errorInit } from '@caisse/api-types';
import type { CaisseClientOptions } from './types.ts';

/** Per request: `onHeaders`, the headers of a successful answer; `signal` abandons the request (a held read). */
export interface SendOptions {
  onHeaders?: (headers: Headers) => void;
  signal?: AbortSignal;
}

/** One call to the API, retried up to `maxRetries` times (the client's setting when left out). */
export type Send = <T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  extra?: Record<string, string>,
  maxRetries?: number,
  options?: SendOptions,
) => Promise<T>;

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function baseUrlOf(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new TypeError(
      'baseUrl is required: the address of your Caisse gateway, e.g. new CaisseClient({ apiKey, baseUrl: "https://pay.example.com" }) (there is no default host)',
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`baseUrl is not a URL: "${raw}"`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
    throw new TypeError('The gateway must be reached over https (plain http only on localhost)');
  }
  return url.href.replace(/\/+$/, '');
}

/** A random Idempotency-Key (128 bits, hex). */
const newKey = (): string => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The client's way to the API; throws a TypeError for a base URL the browser must not use. */
export function transport(options: CaisseClientOptions): Send {
  const { apiKey } = options;
  const baseUrl = baseUrlOf(options.baseUrl);
  // Called unbound, never as a method: window.fetch throws "Illegal invocation" on any other `this`.
  const fetchFn = options.fetch ?? fetch.bind(globalThis);
  const defaultRetries = options.maxRetries ?? 2;
  return async <T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
    maxRetries = defaultRetries,
    { onHeaders, signal }: SendOptions = {},
  ): Promise<T> => {
    const headers: Record<string, string> = { 'x-api-key': apiKey, 'pay-version': API_VERSION, ...extra };
    if (method === 'POST') {
      headers['content-type'] = 'application/json';
      // One key for every attempt: a retried charge can never pay twice.
      headers['idempotency-key'] ??= newKey();
    }
    for (let attempt = 0; ; attempt++) {
      let error: CaisseError;
      try {
        // credentials: 'omit' — the API needs no cookie, and none is ever sent or stored.
        const response = await fetchFn(baseUrl + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          credentials: 'omit',
          ...(signal && { signal }),
        });
        // 204: done, nothing to read (a password set or changed).
        if (response.status === 204) return undefined as T;
        const data = await response.json().catch(() => undefined);
        if (response.ok && data && typeof data === 'object') {
          onHeaders?.(response.headers);
          return data as T;
        }
        error = new CaisseError({ ...errorInit(response.status, response.headers, data), idempotencyKey: headers['idempotency-key'] });
      } catch (err) {
        error = new CaisseError({ code: 'connection_error', message: `Could not reach Caisse: ${(err as Error)?.message ?? err}`, cause: err });
      }
      const s = error.status;
      const retryable = s === undefined || s >= 500 || (s === 429 && (error.retryAfter ?? 0) <= 10);
      if (attempt >= maxRetries || !retryable) throw error;
      await wait(Math.max((error.retryAfter ?? 0) * 1000, 300 * 2 ** attempt));
    }
  };
}
