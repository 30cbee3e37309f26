export { Caisse, VERSION, type CaisseOptions } from './client.ts';
export {
  CaisseAPIError,
  CaisseAuthenticationError,
  CaisseConflictError,
  CaisseConnectionError,
  CaisseError,
  CaisseInvalidRequestError,
  CaissePaymentError,
  CaissePermissionError,
  CaisseRateLimitError,
  WebhookSignatureError,
  type CaisseErrorInit,
  type ProblemBody,
  type WebhookSignatureErrorCode,
} from './errors.ts';
export { API_VERSION, BACKOFF, MAX_RETRY_AFTER_SECONDS, type FetchLike, type RequestOptions, type ResponseMeta, type WithResponse } from './http.ts';
export {
  constructEvent,
  DEFAULT_TOLERANCE_SECONDS,
  generateTestHeader,
  generateTestHeaders,
  SIGNATURE_HEADER,
  type ConstructEventOptions,
  type SignatureHeaders,
} from './webhooks.ts';
export type * from './types.ts';
export type { paths } from '@caisse/api-types';
