import { randomBytes } from 'node:crypto';

export type OrderStatus = 'pending' | 'paid';

export interface Order {
  id: string;
  item: string;
  amount: string;
  currency: string;
  status: OrderStatus;
  /** The Caisse payment intent of this order, and the token its checkout page hands the browser. */
  intentId?: string;
  sessionToken?: string;
  /** The webhook event that marked the order paid. */
  paidByEvent?: string;
  paidAt?: string;
}

/**
 * The shop's orders, in memory (an example: a real shop keeps them in its database). The only
 * way an order becomes paid is `markPaid`, called by the webhook handler.
 */
export class OrderBook {
  readonly #orders = new Map<string, Order>();

  create(item: string, amount: string, currency: string): Order {
    const order: Order = { id: `ord_${randomBytes(6).toString('hex')}`, item, amount, currency, status: 'pending' };
    this.#orders.set(order.id, order);
    return order;
  }

  get(id: string): Order | undefined {
    return this.#orders.get(id);
  }

  attachIntent(id: string, intentId: string, sessionToken: string): void {
    const order = this.#orders.get(id);
    if (order) Object.assign(order, { intentId, sessionToken });
  }

  markPaid(id: string, eventId: string, at: string): void {
    const order = this.#orders.get(id);
    if (order && order.status !== 'paid') Object.assign(order, { status: 'paid', paidByEvent: eventId, paidAt: at });
  }
}
