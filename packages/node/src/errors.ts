/**
 * Every failure the SDK reports is a CaisseError: `code` is the API's stable error code (or the
 * SDK's own for network and signature failures), `status` the HTTP status, `requestId` the
 * `request-id` the server gave the answer (quote it to support), `param` the offending field.
 */

/** An RFC 9457 problem body as the API sends it (contract §6). */
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
  requestId?: string;
  param?: string;
  raw?: ProblemBody;
  headers?: Headers;
  idempotencyKey?: string;
  cause?: unknown;
}

export class CaisseError extends Error {
  override name = 'CaisseError';
  /** Stable error code, e.g. `amount_invalid`, `secret_key_invalid`, `connection_error`. */
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

  constructor(init: CaisseErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.param = init.param;
    this.errors = init.raw?.errors;
    this.raw = init.raw;
    this.headers = init.headers;
    this.idempotencyKey = init.idempotencyKey;
  }
}

/** 400, 404, 405, 413, 415, 422: the request itself is wrong; retrying it will not help. */
export class CaisseInvalidRequestError extends CaisseError {
  override name = 'CaisseInvalidRequestError';
}
/** 401: a missing, wrong, revoked or expired key. */
export class CaisseAuthenticationError extends CaisseError {
  override name = 'CaisseAuthenticationError';
}
/** 402: the payment could not be made (`insufficient_funds`). */
export class CaissePaymentError extends CaisseError {
  override name = 'CaissePaymentError';
}
/** 403: not allowed (`https_required`, `user_mismatch`, `origin_not_allowed`). */
export class CaissePermissionError extends CaisseError {
  override name = 'CaissePermissionError';
}
/** 409: the object is not in a state that allows this (`intent_state_invalid`, `intent_expired`, …). */
export class CaisseConflictError extends CaisseError {
  override name = 'CaisseConflictError';
}
/** 429: too many requests; `retryAfter` says how many seconds to wait. */
export class CaisseRateLimitError extends CaisseError {
  override name = 'CaisseRateLimitError';
  get retryAfter(): number | undefined {
    return retryAfterSeconds(this.headers);
  }
}
/** 5xx, or an answer that is not the API's. */
export class CaisseAPIError extends CaisseError {
  override name = 'CaisseAPIError';
}
/** No answer: the network failed or the request timed out (`code` is `connection_error` or `timeout`). */
export class CaisseConnectionError extends CaisseError {
  override name = 'CaisseConnectionError';
}

export type WebhookSignatureErrorCode =
  | 'signature_header_missing'
  | 'signature_header_invalid'
  | 'timestamp_outside_tolerance'
  | 'signature_mismatch'
  | 'payload_invalid';

/** `webhooks.constructEvent` refused the delivery: answer it with a 400 and do not process it. */
export class WebhookSignatureError extends CaisseError {
  override name = 'WebhookSignatureError';
  declare readonly code: WebhookSignatureErrorCode;
  constructor(code: WebhookSignatureErrorCode, message: string) {
    super({ code, message });
  }
}

/** Seconds from a `Retry-After` header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(headers: Headers | undefined, now = Date.now()): number | undefined {
  const raw = headers?.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

const BY_STATUS: Record<number, typeof CaisseError> = {
  400: CaisseInvalidRequestError,
  401: CaisseAuthenticationError,
  402: CaissePaymentError,
  403: CaissePermissionError,
  404: CaisseInvalidRequestError,
  405: CaisseInvalidRequestError,
  409: CaisseConflictError,
  413: CaisseInvalidRequestError,
  415: CaisseInvalidRequestError,
  422: CaisseInvalidRequestError,
  429: CaisseRateLimitError,
};

/** The typed error for an answer that is not 2xx. */
export function errorFromResponse(status: number, headers: Headers, body: unknown, idempotencyKey: string | undefined): CaisseError {
  const problem: ProblemBody | undefined = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as ProblemBody) : undefined;
  const code = typeof problem?.code === 'string' ? problem.code : status >= 500 ? 'api_error' : `http_${status}`;
  const message =
    (typeof problem?.detail === 'string' && problem.detail) ||
    (typeof problem?.title === 'string' && problem.title) ||
    `The Caisse API answered ${status} without an error body`;
  const Type = BY_STATUS[status] ?? (status >= 400 && status < 500 ? CaisseInvalidRequestError : CaisseAPIError);
  return new Type({
    code,
    message,
    status,
    requestId: headers.get('request-id') ?? (typeof problem?.requestId === 'string' ? problem.requestId : undefined),
    param: typeof problem?.param === 'string' ? problem.param : undefined,
    raw: problem,
    headers,
    idempotencyKey,
  });
}
