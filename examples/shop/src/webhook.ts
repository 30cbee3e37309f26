import { type CaisseEvent, constructEvent, WebhookSignatureError } from '@caisse/node';
import type { OrderBook } from './orders.ts';

export interface WebhookResult {
  status: number;
  body: string;
}

/**
 * Handles one delivery to /webhooks/caisse. The signature is checked on the raw bytes before
 * anything else; the order is found from the intent's `metadata.orderId` and marked paid only
 * when the event's intent, amount and currency are the order's. Deliveries are at least once:
 * an event already handled (same id) is acknowledged again without effect.
 */
export function handleWebhook(
  orders: OrderBook,
  secret: string,
  rawBody: Buffer,
  signature: string | undefined,
  seen: Set<string>,
  log: (line: string) => void,
): WebhookResult {
  let event: CaisseEvent;
  try {
    event = constructEvent(rawBody, signature, secret);
  } catch (err) {
    if (err instanceof WebhookSignatureError) {
      log(`webhook refused: ${err.code}`);
      return { status: 400, body: `invalid signature: ${err.code}` };
    }
    throw err;
  }
  if (seen.has(event.id)) return { status: 200, body: 'already handled' };
  seen.add(event.id);

  const intent = event.data.paymentIntent;
  const orderId = intent.metadata?.orderId;
  const order = typeof orderId === 'string' ? orders.get(orderId) : undefined;
  if (event.type === 'payment.completed') {
    if (!order) {
      log(`payment.completed ${event.id} for an unknown order ${String(orderId)}`);
    } else if (order.intentId !== intent.id || order.amount !== intent.amount || order.currency !== intent.currency) {
      log(`payment.completed ${event.id} does not match order ${order.id}: not marked paid`);
    } else {
      orders.markPaid(order.id, event.id, event.createdAt);
      log(`order ${order.id} paid (${event.id})`);
    }
  } else if (event.type === 'payment.failed') {
    log(`payment.failed for order ${String(orderId)}: ${intent.lastError?.message ?? 'no reason given'}; the customer may try again`);
  } else {
    log(`${event.type} for order ${String(orderId)}`);
  }
  return { status: 200, body: 'ok' };
}
