/**
 * The dashboard API client (the operator console's too, with its own base): same-origin fetch with the session cookie, the CSRF token on every
 * state-changing request (POST, PUT, PATCH, DELETE), and RFC 9457 problems turned into `ApiProblem`s.
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter?: number,
    /** The field the problem is about (`settings.baseUrl`), when the server names one. */
    readonly param?: string,
  ) {
    super(message);
    this.name = 'ApiProblem';
  }
}

let csrfToken = '';
/** The API this page talks to: the dashboard's, or the operator console's (`/operator/api`). */
let base = '/dashboard/api';

export function setApiBase(path: string) {
  base = path;
}
let sessionLost: () => void = () => {};

export function setCsrfToken(token: string) {
  csrfToken = token;
}

/** Called when the server says the session is gone (expired, signed out elsewhere). */
export function onSessionLost(fn: () => void) {
  sessionLost = fn;
}

export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  const payload = method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify(body ?? {});
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return send<T>(method, path, headers, payload);
}

/** A file as the whole body (PUT), with its own type: the server reads the type from the content too. */
export function upload<T>(path: string, file: Blob): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-csrf-token': csrfToken, 'content-type': file.type || 'application/octet-stream' };
  return send<T>('PUT', path, headers, file);
}

async function send<T>(method: string, path: string, headers: Record<string, string>, payload: BodyInit | undefined): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiProblem(0, 'connection_error', 'The server could not be reached. Check your connection and try again.');
  }
  if (res.status === 204) return undefined as T;
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const retry = Number(res.headers.get('retry-after'));
    const problem = new ApiProblem(
      res.status,
      String(data.code ?? 'error'),
      String(data.detail ?? data.title ?? `HTTP ${res.status}`),
      Number.isFinite(retry) && retry > 0 ? retry : undefined,
      typeof data.param === 'string' ? data.param : undefined,
    );
    if (problem.code === 'session_required' && path !== '/session') sessionLost();
    throw problem;
  }
  return data as T;
}
