import { generateTestHeader } from '@caisse/node';
import { describe, expect, it } from 'vitest';
import { OrderBook } from '../src/orders.ts';
import { handleWebhook } from '../src/webhook.ts';

const SECRET = 'whsec_' + Buffer.alloc(32, 9).toString('base64');

function setup() {
  const orders = new OrderBook();
  const order = orders.create('A basket of mangoes', '5000', 'XAF');
  orders.attachIntent(order.id, 'pi_1', 'ps_1');
  const lines: string[] = [];
  const seen = new Set<string>();
  const deliver = (event: object, opts: { secret?: string; header?: string | undefined; tamper?: (s: string) => string } = {}) => {
    const body = JSON.stringify(event);
    const header = 'header' in opts ? opts.header : generateTestHeader({ payload: body, secret: opts.secret ?? SECRET });
    return handleWebhook(orders, SECRET, Buffer.from(opts.tamper ? opts.tamper(body) : body), header, seen, (l) => lines.push(l));
  };
  return { orders, order, deliver, lines };
}

const completed = (orderId: string, over: Record<string, unknown> = {}) => ({
  id: 'evt_1',
  object: 'event',
  type: 'payment.completed',
  createdAt: '2026-11-01T10:00:00.000Z',
  livemode: false,
  apiVersion: '2026-11-01',
  data: { paymentIntent: { id: 'pi_1', amount: '5000', currency: 'XAF', status: 'SUCCEEDED', metadata: { orderId }, ...over } },
});

describe('the shop webhook', () => {
  it('marks the order named in metadata paid on a verified payment.completed, once', () => {
    const { orders, order, deliver } = setup();
    expect(deliver(completed(order.id)).status).toBe(200);
    expect(orders.get(order.id)).toMatchObject({ status: 'paid', paidByEvent: 'evt_1' });
    // A redelivery of the same event is acknowledged and changes nothing.
    expect(deliver(completed(order.id))).toEqual({ status: 200, body: 'already handled' });
  });

  it('refuses a wrong secret, a tampered body or a missing signature with 400, and the order stays pending', () => {
    const { orders, order, deliver } = setup();
    expect(deliver(completed(order.id), { secret: 'whsec_other' }).status).toBe(400);
    expect(deliver(completed(order.id), { tamper: (b) => b.replace('5000', '5') }).status).toBe(400);
    expect(deliver(completed(order.id), { header: undefined }).status).toBe(400);
    expect(orders.get(order.id)?.status).toBe('pending');
  });

  it('does not mark paid when the intent, amount or currency is not the order’s', () => {
    const { orders, order, deliver } = setup();
    expect(deliver({ ...completed(order.id, { id: 'pi_other' }), id: 'evt_a' }).status).toBe(200);
    expect(deliver({ ...completed(order.id, { amount: '50' }), id: 'evt_b' }).status).toBe(200);
    expect(deliver({ ...completed(order.id, { currency: 'EUR' }), id: 'evt_c' }).status).toBe(200);
    expect(orders.get(order.id)?.status).toBe('pending');
  });

  it('logs payment.failed and leaves the order open for another try', () => {
    const { orders, order, deliver, lines } = setup();
    const failed = {
      ...completed(order.id, { status: 'PENDING', lastError: { code: 'insufficient_funds', message: 'Insufficient funds' } }),
      type: 'payment.failed',
    };
    expect(deliver(failed).status).toBe(200);
    expect(orders.get(order.id)?.status).toBe('pending');
    expect(lines.at(-1)).toContain('payment.failed');
  });
});
