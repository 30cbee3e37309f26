// The intents module: payment intents, their state machine, expiry and the sweeper.
export { createIntentsService, type DirectPayments, type IntentsService, merchantView, publicView } from './intents.service.ts';
export { startSweeper } from './intents.sweeper.ts';
export { createStatusWaiters, MAX_WAIT_SECONDS, WAITER_LIMITS } from './intents.waiters.ts';
export {
  CreateIntentBody,
  type DirectPayment,
  DirectPaymentMethod,
  Intent,
  IntentIdParams,
  IntentList,
  MAX_DESCRIPTION_LENGTH,
  MAX_METADATA_KEYS,
  Metadata,
  NextAction,
  PaymentAttempt,
  PaymentEvent,
  PublicIntent,
  Refund,
} from './intents.schema.ts';
export { effectiveStatus, INTENT_STATUSES, type IntentStatus, isDue, statusAfterFailedCharge, statusAfterRefund } from './intents.state.ts';
export type { IntentPatch, IntentRow, Metadata as MetadataMap } from './intents.repository.ts';
export { default as intentsRoutes } from './intents.routes.ts';
