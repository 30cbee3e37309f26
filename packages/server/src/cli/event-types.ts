import type { EventType } from '@caisse/node';

/**
 * The event types `caisse listen --events` and `caisse trigger` accept, in the order the help
 * lists them. `EventType` is the generated API type (@caisse/api-types, through @caisse/node):
 * `satisfies` fails the typecheck when the API gains a type this list lacks, or loses one it has.
 */
const KNOWN = {
  'payment.processing': true,
  'payment.completed': true,
  'payment.failed': true,
  'payment.expired': true,
  'payment.canceled': true,
  'payment.refunded': true,
  'refund.failed': true,
  'payout.paid': true,
  'payout.failed': true,
} as const satisfies Record<EventType, true>;

export type { EventType };

export const EVENT_TYPES = Object.keys(KNOWN) as readonly EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(KNOWN, value);
}
