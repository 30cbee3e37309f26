/**
 * Every failure the SDK reports is a CaisseError (@caisse/api-types: the same class
 * @caisse/browser throws), of the subclass for its status: `code` is the API's stable error code
 * (or the SDK's own for network and signature failures), `status` the HTTP status, `requestId`
 * the `request-id` the server gave the answer (quote it to support), `param` the offending field.
 */
import { CaisseError, errorInit } from '@caisse/api-types';

export { CaisseError };
export type { CaisseErrorInit, ProblemBody } from '@caisse/api-types';

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
  const Type = BY_STATUS[status] ?? (status >= 400 && status < 500 ? CaisseInvalidRequestError : CaisseAPIError);
  return new Type({ ...errorInit(status, headers, body), idempotencyKey });
}
