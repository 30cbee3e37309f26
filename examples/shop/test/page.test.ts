import { describe, expect, it } from 'vitest';
import { OrderBook } from '../src/orders.ts';
import { donePage, donePath, orderPage } from '../src/page.ts';

describe('the pages the payer comes back to', () => {
  it('the order page hands the checkout its way back (returnUrl) and links to the hosted checkout', () => {
    const orders = new OrderBook();
    const order = orders.create('A basket of mangoes', '5000', 'XAF');
    orders.attachIntent(order.id, 'pi_1', 'ps_token');
    const html = orderPage(order, { apiKey: 'pk_test_x', baseUrl: 'http://127.0.0.1:8080', returnUrl: `http://shop.test${donePath(order)}` });
    expect(html).toContain(`"returnUrl":"http://shop.test/orders/${order.id}/done"`);
    expect(html).toContain('href="http://127.0.0.1:8080/checkout/ps_token"');
  });

  it('the success page says paid only once the webhook marked the order paid, and asks again until then', () => {
    const orders = new OrderBook();
    const order = orders.create('A basket of mangoes', '5000', 'XAF');
    const pending = donePage(order);
    expect(pending).toContain('data-status="pending"');
    expect(pending).toContain('Confirming your payment…');
    expect(pending).toContain(`/orders/${order.id}/status`);
    orders.markPaid(order.id, 'evt_1', '2026-11-25T10:00:00.000Z');
    const paid = donePage(order);
    expect(paid).toContain('data-status="paid"');
    expect(paid).toContain('Thank you!');
    expect(paid).not.toContain('<script');
  });
});
