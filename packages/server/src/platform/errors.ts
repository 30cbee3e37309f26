/**
 * The one catalogue of error codes (docs/spec/request-rules.md). Services throw `ApiError(code, …)`; the HTTP
 * error handler turns it into an RFC 9457 problem. A code has exactly one meaning and status.
 */
export const ERRORS = {
  // 400
  validation_error: { status: 400, title: 'The request is not valid' },
  request_malformed: { status: 400, title: 'The request is not valid HTTP' },
  parameter_unknown: { status: 400, title: 'Unknown parameter' },
  parameter_missing: { status: 400, title: 'A required parameter is missing' },
  amount_invalid: { status: 400, title: 'The amount is not valid for its currency' },
  currency_unsupported: { status: 400, title: 'The currency is not supported' },
  metadata_invalid: { status: 400, title: 'The metadata is not valid' },
  json_invalid: { status: 400, title: 'The body is not valid JSON' },
  version_unknown: { status: 400, title: 'Unknown API version' },
  document_invalid: { status: 400, title: 'The document is not a PDF, JPEG or PNG file of at most 5 MB' },
  verification_link_invalid: { status: 400, title: 'The e-mail verification link is not valid or has expired' },
  otp_incorrect: { status: 400, title: 'The code is incorrect' },
  otp_expired: { status: 400, title: 'The code has expired' },
  phone_invalid: { status: 400, title: 'The phone number is not valid' },
  cardholder_invalid: { status: 400, title: "A card holder's detail is missing or not valid" },
  password_weak: { status: 400, title: 'The password is too weak' },
  url_invalid: { status: 400, title: 'The URL is not allowed' },
  provider_unsupported: { status: 400, title: 'The payment provider is not supported' },
  payment_method_unsupported: { status: 400, title: 'The merchant does not offer this payment method' },
  pre_authorisation_code_required: { status: 400, title: 'The operator takes a code the payer makes beforehand: send preAuthorisationCode' },
  operator_unsupported: { status: 400, title: "No payment method here reaches the phone number's operator" },
  destination_unsupported: { status: 400, title: 'The provider cannot send money to this destination' },
  amount_out_of_bounds: { status: 400, title: "The amount is outside the provider's bounds" },
  description_invalid: { status: 400, title: "The description breaks the provider's message rules" },
  short_name_invalid: { status: 400, title: 'The short name is not 4 to 22 ASCII letters, digits and spaces' },
  provider_settings_invalid: { status: 400, title: "A provider account's setting is not valid" },
  route_invalid: { status: 400, title: 'The route names a connector that does not serve this method there' },

  return_url_invalid: { status: 400, title: 'The return URL is not an https URL' },
  callback_invalid: { status: 400, title: 'The provider callback could not be authenticated' },
  reset_token_invalid: { status: 400, title: 'The password reset link is not valid' },
  // 401
  session_token_missing: { status: 401, title: 'The x-session-token header is missing' },
  session_token_invalid: { status: 401, title: "The session token is not this intent's" },
  api_key_missing: { status: 401, title: 'The x-api-key header is missing' },
  api_key_invalid: { status: 401, title: 'The API key is not valid' },
  secret_key_required: { status: 401, title: 'This operation requires a secret key' },
  secret_key_invalid: { status: 401, title: 'The secret key is not valid' },
  access_token_missing: { status: 401, title: 'The access token is missing' },
  access_token_invalid: { status: 401, title: 'The access token is not valid' },
  otp_token_missing: { status: 401, title: 'The x-otp-token header is missing' },
  otp_token_invalid: { status: 401, title: 'The authorization token is not valid' },
  invalid_credentials: { status: 401, title: 'The login or the password is incorrect' },
  session_required: { status: 401, title: 'Sign in to the dashboard' },
  metrics_token_invalid: { status: 401, title: 'The metrics token is missing or wrong' },
  admin_token_invalid: { status: 401, title: 'The admin token is missing or wrong' },
  totp_code_invalid: { status: 401, title: 'The two-factor code is not valid' },
  totp_code_reused: { status: 401, title: 'The two-factor code was already used' },
  login_challenge_invalid: { status: 401, title: 'The sign-in step has expired or is not valid' },
  // 402
  insufficient_funds: { status: 402, title: 'Insufficient funds' },
  // 403
  https_required: { status: 403, title: 'HTTPS is required' },
  user_mismatch: { status: 403, title: 'The access token is for another user' },
  origin_not_allowed: { status: 403, title: 'This origin is not allowed for the API key' },
  phone_not_verified: { status: 403, title: 'The phone number is not verified' },
  customer_locked: { status: 403, title: 'The customer account is locked' },
  csrf_token_invalid: { status: 403, title: 'The CSRF token is missing or wrong' },
  metrics_local_only: { status: 403, title: 'Metrics are served to this machine only' },
  totp_required: { status: 403, title: 'Two-factor sign-in is required' },
  totp_code_required: { status: 403, title: 'A fresh two-factor code is required' },
  permission_denied: { status: 403, title: 'Your team role or restricted key does not allow this' },
  merchant_frozen: { status: 403, title: 'The merchant account is frozen' },
  merchant_not_approved: { status: 403, title: 'The merchant is not approved for live mode yet' },
  email_not_verified: { status: 403, title: 'The e-mail address is not verified yet' },
  customer_limit_exceeded: { status: 403, title: "The customer's e-money limit does not allow this" },
  four_eyes_required: { status: 403, title: 'Another operator must make this decision' },
  payment_method_not_allowed: { status: 403, title: 'The platform does not allow this payment method for the merchant' },
  // 404
  not_found: { status: 404, title: 'Not found' },
  invitation_not_found: { status: 404, title: 'No such invitation' },
  // 405, 406, 408, 413, 415, 431
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  not_acceptable: { status: 406, title: 'The answer cannot be given in a type the Accept header allows' },
  request_timeout: { status: 408, title: 'The request was not received in time' },
  payload_too_large: { status: 413, title: 'The body is too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported content type' },
  headers_too_large: { status: 431, title: 'The request line or headers are too large' },
  // 409
  intent_state_invalid: { status: 409, title: 'The intent is not in a state that allows this' },
  intent_expired: { status: 409, title: 'The intent has expired' },
  attempt_in_progress: { status: 409, title: 'A payment attempt of this intent is still waiting for the provider' },
  refund_unsupported: { status: 409, title: 'The provider cannot refund this payment' },
  refund_supported: { status: 409, title: 'This payment can be refunded through Caisse' },
  refund_in_progress: { status: 409, title: 'A refund of this payment is still waiting for the provider' },
  idempotency_request_in_progress: { status: 409, title: 'A request with this Idempotency-Key is still running' },
  already_exists: { status: 409, title: 'It already exists' },
  endpoint_disabled: { status: 409, title: 'The webhook endpoint is disabled' },
  phone_already_verified: { status: 409, title: 'The phone number is already verified' },
  balance_insufficient: { status: 409, title: 'The available balance is too low' },
  payout_state_invalid: { status: 409, title: 'The payout cannot change from its current state' },
  return_state_invalid: { status: 409, title: 'The late payment was already marked returned' },
  totp_state_invalid: { status: 409, title: 'Two-factor sign-in is not in a state that allows this' },
  last_owner: { status: 409, title: 'A team keeps at least one owner' },
  profile_state_invalid: { status: 409, title: 'The business profile is not in a state that allows this' },
  // 410
  invitation_used: { status: 410, title: 'The invitation was already used' },
  invitation_expired: { status: 410, title: 'The invitation has expired' },
  invitation_revoked: { status: 410, title: 'The invitation was revoked' },
  // 422
  idempotency_key_reused: { status: 422, title: 'The Idempotency-Key was used with another request' },
  refund_exceeds_amount: { status: 422, title: 'The refund exceeds what is left to refund' },
  limit_exceeded: { status: 422, title: 'A limit on the number of objects was reached' },
  email_missing: { status: 422, title: 'The user has no e-mail address on file' },
  // 429
  rate_limited: { status: 429, title: 'Too many requests' },
  otp_rate_limited: { status: 429, title: 'Too many codes requested' },
  otp_attempts_exceeded: { status: 429, title: 'Too many wrong codes' },
  otp_daily_limit: { status: 429, title: 'Too many wrong codes today' },
  login_locked: { status: 429, title: 'Too many failed logins' },
  // 5xx
  internal_error: { status: 500, title: 'Internal error' },
  unavailable: { status: 503, title: 'Service unavailable' },
  provider_unavailable: { status: 503, title: 'The payment provider is not configured or not reachable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface ApiErrorOptions {
  param?: string;
  errors?: { param: string; message: string }[];
  /** Extra members of the problem body (e.g. `attemptsRemaining`). */
  extra?: Record<string, unknown>;
  /** Response headers (e.g. `Retry-After`). */
  headers?: Record<string, string>;
}

/**
 * Not a failure: an outcome that answers the request itself, thrown out of a handler (an
 * Idempotency-Key whose stored answer is replayed once the handler learns the key was another's).
 */
export class AnswerError extends Error {
  constructor(readonly answer: (reply: never) => unknown) {
    super('answered');
    this.name = 'AnswerError';
  }
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(detail ?? ERRORS[code].title);
    this.name = 'ApiError';
    this.status = ERRORS[code].status;
  }
}

/** The one refusal of live mode to a merchant whose business profile an operator has not approved. */
export function merchantNotApproved(): ApiError {
  return new ApiError(
    'merchant_not_approved',
    'Live mode opens once the platform operator has approved your business profile: submit it from the dashboard (Business profile); test mode works meanwhile',
  );
}

/** The one refusal of a frozen merchant's new money movements (the API's routes and the dashboard's). */
export function merchantFrozen(): ApiError {
  return new ApiError(
    'merchant_frozen',
    'This merchant account is frozen by the platform operator: new payments and payouts are refused until it is unfrozen; contact the operator',
  );
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  param?: string;
  errors?: { param: string; message: string }[];
  requestId: string;
  [extra: string]: unknown;
}

export function toProblem(err: ApiError, requestId: string): Problem {
  const { title, status } = ERRORS[err.code];
  return {
    ...err.options.extra,
    type: `/errors/${err.code}`,
    title,
    status,
    detail: err.detail ?? title,
    code: err.code,
    ...(err.options.param !== undefined ? { param: err.options.param } : {}),
    ...(err.options.errors !== undefined ? { errors: err.options.errors } : {}),
    requestId,
  };
}
