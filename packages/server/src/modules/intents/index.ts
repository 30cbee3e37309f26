// The intents module: payment intents, their state machine, expiry and the sweeper.
export {
  createIntentsService,
  type DirectPayments,
  type IntentCreator,
  type IntentsService,
  merchantView,
  publicView,
  SWEEP_BATCH_SIZE,
} from './intents.service.ts';
export { startSweeper, SWEEP_INTERVAL_MS } from './intents.sweeper.ts';
export { createStatusWaiters, MAX_WAIT_SECONDS, type StatusWaiters, type WaiterLimits, WAITER_LIMITS, type WaitOutcome } from './intents.waiters.ts';
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
export {
  assertMove,
  effectiveStatus,
  findMove,
  INTENT_STATUSES,
  INTENT_TRANSITIONS,
  type IntentStatus,
  isDue,
  MAX_CHARGE_ATTEMPTS,
  type Move,
  statusAfterFailedCharge,
  statusAfterRefund,
} from './intents.state.ts';
export type { IntentPatch, IntentRow, Metadata as MetadataMap, MetadataValue } from './intents.repository.ts';
export { default as intentsRoutes } from './intents.routes.ts';
