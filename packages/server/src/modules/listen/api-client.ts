/**
 * A small HTTP client of the Caisse API for the command line's `listen` and `trigger` and for
 * the crash, outage and soak tests: the merchant's test keys, JSON in and out, problems as
 * errors carrying their code.
 */

export interface ApiTarget {
  /** e.g. http://127.0.0.1:8080 (no trailing slash needed). */
  baseUrl: string;
  apiKey: string;
  secretKey: string;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A non-2xx answer; `code` is the RFC 9457 problem's code when there is one. */
export class ApiRequestError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly body: unknown,
  ) {
    const detail = (body as { detail?: unknown } | null)?.detail;
    super(`${method} ${path}: ${status}${code ? ` ${code}` : ''}${typeof detail === 'string' ? `: ${detail}` : ''}`);
    this.name = 'ApiRequestError';
  }
}

/** Who a request is made as: the secret key (default), the API key alone, or a user's access token. */
export type As = 'sk' | 'pk' | { token: string };

export interface RequestOptions {
  body?: unknown;
  as?: As;
  headers?: Record<string, string>;
  /** Per-request deadline (default: the client's). */
  timeoutMs?: number;
}

export interface ApiClient {
  target: ApiTarget;
  /** Any answer, 2xx or not. Rejects only when no answer came (connection refused, reset, timeout). */
  request<T = unknown>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  /** A 2xx answer's body; anything else throws ApiRequestError. */
  call<T = unknown>(method: string, path: string, opts?: RequestOptions): Promise<T>;
}

export function createApiClient(target: ApiTarget, opts: { timeoutMs?: number } = {}): ApiClient {
  const base = target.baseUrl.replace(/\/+$/, '');
  const defaultTimeout = opts.timeoutMs ?? 30_000;

  async function request<T>(method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse<T>> {
    const as = o.as ?? 'sk';
    const headers: Record<string, string> = { 'x-api-key': target.apiKey, ...o.headers };
    if (as === 'sk') headers.authorization = `Bearer ${target.secretKey}`;
    else if (as !== 'pk') headers.authorization = `Bearer ${as.token}`;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
      signal: AbortSignal.timeout(o.timeoutMs ?? defaultTimeout),
      redirect: 'manual',
    });
    const text = await res.text();
    let body: unknown = text;
    if (text !== '' && /json/.test(res.headers.get('content-type') ?? '')) {
      try {
        body = JSON.parse(text);
      } catch {
        /* leave the text */
      }
    }
    return { status: res.status, headers: res.headers, body: body as T };
  }

  async function call<T>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    const res = await request<T>(method, path, o);
    if (res.status >= 200 && res.status < 300) return res.body;
    const code = (res.body as { code?: unknown } | null)?.code;
    throw new ApiRequestError(method, path, res.status, typeof code === 'string' ? code : undefined, res.body);
  }

  return { target, request, call };
}
