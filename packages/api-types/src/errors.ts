/**
 * The one error type of the Caisse clients: @caisse/node and @caisse/browser both throw a
 * CaisseError (@caisse/node a subclass per status), built the same way from the same answers.
 * It uses nothing of Node.js or of the DOM beyond `Headers`, so it runs in both.
 */

/** An RFC 9457 problem body as the API sends it (docs/spec/request-rules.md). */
export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  param?: string;
  errors?: { param: string; message: string }[];
  requestId?: string;
  [extra: string]: unknown;
}

export interface CaisseErrorInit {
  code: string;
  message: string;
  status?: number;
  /** Default: the problem body's `requestId`. */
  requestId?: string;
  /** Default: the problem body's `param`. */
  param?: string;
  raw?: ProblemBody;
  headers?: Headers;
  idempotencyKey?: string;
  /** Seconds to wait before trying again. Default: the `Retry-After` of `headers`. */
  retryAfter?: number;
  cause?: unknown;
}

/** Seconds from a `Retry-After` header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(headers: Headers | undefined, now = Date.now()): number | undefined {
  const raw = headers?.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Every failure a Caisse client reports: `code` is the API's stable error code (or the client's
 * own, e.g. `connection_error`), `status` the HTTP status, `requestId` the `request-id` the
 * server gave the answer (quote it to support), `param` the offending field.
 */
export class CaisseError extends Error {
  override name = 'CaisseError';
  /** Stable error code, e.g. `amount_invalid`, `insufficient_funds`, `connection_error`. */
  readonly code: string;
  /** HTTP status of the answer; undefined when no answer arrived. */
  readonly status: number | undefined;
  /** The answer's `request-id`. */
  readonly requestId: string | undefined;
  /** The request field the error is about, when there is one. */
  readonly param: string | undefined;
  /** `errors: [{param, message}]` of a `validation_error`. */
  readonly errors: { param: string; message: string }[] | undefined;
  /** The whole problem body, with any extra members (`attemptsRemaining`, `intentStatus`, …). */
  readonly raw: ProblemBody | undefined;
  readonly headers: Headers | undefined;
  /** The Idempotency-Key the request was sent with (POST only): retry with it to be safe. */
  readonly idempotencyKey: string | undefined;
  /** Seconds to wait before trying again (`Retry-After`, on a 429), when the API said. */
  readonly retryAfter: number | undefined;

  constructor(init: CaisseErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId ?? text(init.raw?.requestId);
    this.param = init.param ?? text(init.raw?.param);
    this.errors = Array.isArray(init.raw?.errors) ? init.raw.errors : undefined;
    this.raw = init.raw;
    this.headers = init.headers;
    this.idempotencyKey = init.idempotencyKey;
    this.retryAfter = init.retryAfter ?? retryAfterSeconds(init.headers);
  }
}

/**
 * What a CaisseError says about an answer that is not 2xx: its problem body, `code` (the
 * problem's, else `api_error` for a 5xx and `http_<status>` otherwise), the problem's `detail`
 * (or `title`) as the message, and the `request-id`.
 */
export function errorInit(status: number, headers: Headers, body: unknown): CaisseErrorInit {
  const raw = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as ProblemBody) : undefined;
  return {
    code: text(raw?.code) ?? (status >= 500 ? 'api_error' : `http_${status}`),
    message: text(raw?.detail) ?? text(raw?.title) ?? `The Caisse API answered ${status} without an error body`,
    status,
    requestId: headers.get('request-id') ?? undefined,
    raw,
    headers,
  };
}
