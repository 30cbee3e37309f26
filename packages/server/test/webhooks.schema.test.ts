import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Intent } from '../src/modules/intents/intents.schema.ts';
import { createDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { EVENT_TYPES } from '../src/modules/events/index.ts';
import { Event } from '../src/modules/webhooks/webhooks.schema.ts';
import { PaymentEvent } from '../src/modules/intents/index.ts';
import { Payout } from '../src/modules/payouts/index.ts';
import { validatorCompiler } from '../src/platform/http/validation.ts';
import { authorize, charge, createIntent, newUser } from './flow.support.ts';
import { call, createMerchant, createTestContext, sk, type TestContext, type TestMerchant } from './harness.ts';
import { type Receiver, startReceiver } from './webhooks.receiver.ts';

/**
 * The event schema (webhooks.schema.ts `Event`, its `data.paymentIntent` the intent's own schema)
 * is what receivers really get: the events of a real payment, delivered over HTTP, validate
 * against it with the server's own validator, carry exactly the intent's fields, and GET /events
 * answers the very bytes delivered. The OpenAPI document (and so the SDK types) says the same.
 */
let ctx: TestContext;
let m: TestMerchant;
let receiver: Receiver;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Schema');
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

const validateEvent = validatorCompiler({ schema: Event, method: 'POST', url: '/hooks', httpPart: 'body' });

describe('the event schema', () => {
  it('every delivered event validates, carries the intent as GET /gateway/{id} reads it, and reads back byte for byte', async () => {
    expect((await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: receiver.url })).statusCode).toBe(201);
    const user = await newUser(ctx, m, { balance: '20000' });
    const paid = await createIntent(ctx, m, { metadata: { orderId: 'A-1', gift: true, quantity: 2, note: 'crème brûlée ✓ "quoted"' } });
    expect((await charge(ctx, user, paid.id, await authorize(ctx, m, user, paid.id))).statusCode).toBe(200);
    expect((await call(ctx.app, 'POST', `/gateway/${paid.id}/refunds`, sk(m), { amount: '1000' })).statusCode).toBe(201);
    const canceled = await createIntent(ctx, m, { description: undefined, metadata: undefined });
    expect((await call(ctx.app, 'POST', `/gateway/${canceled.id}/cancel`, sk(m))).statusCode).toBe(200);
    await createDispatcher(ctx.deps, { timeoutMs: 2000 }).runOnce();

    const bodies = receiver.received.map((r) => r.body);
    const events = bodies.map((b) => JSON.parse(b) as { id: string; type: string; data: { paymentIntent: Record<string, unknown> & { id: string } } });
    expect(events.map((e) => e.type).sort()).toEqual(['payment.canceled', 'payment.completed', 'payment.refunded']);
    for (const [i, event] of events.entries()) {
      const result = validateEvent(event) as { error?: Error };
      expect(result.error, JSON.stringify(event)).toBeUndefined();
      // Exactly the schema's fields, the intent's in the schema's order: nothing more, nothing less.
      expect(Object.keys(event).sort()).toEqual(Object.keys(PaymentEvent.properties).sort());
      expect(Object.keys(event.data)).toEqual(['paymentIntent']);
      // Wallet payments: without the fields only a direct mobile-money payment has.
      expect(Object.keys(event.data.paymentIntent)).toEqual(Object.keys(Intent.properties).filter((k) => k !== 'paymentMethod' && k !== 'nextAction'));
      const read = await call(ctx.app, 'GET', `/events/${event.id}`, sk(m));
      expect(read.statusCode).toBe(200);
      expect(read.body).toBe(bodies[i]);
    }
    // The last event of each intent carries the intent as the merchant reads it now.
    const last = (id: string) => events.filter((e) => e.data.paymentIntent.id === id).at(-1)?.data.paymentIntent;
    expect(last(paid.id)).toEqual((await call(ctx.app, 'GET', `/gateway/${paid.id}`, sk(m))).json());
    expect(last(paid.id)).toMatchObject({ status: 'PARTIALLY_REFUNDED', amountRefunded: '1000', metadata: { gift: true, quantity: 2 } });
    expect(last(canceled.id)).toEqual((await call(ctx.app, 'GET', `/gateway/${canceled.id}`, sk(m))).json());

    // The check can fail: an intent without its amount, or an unknown type, does not validate.
    const first = events[0] as (typeof events)[number];
    const { amount: _dropped, ...noAmount } = first.data.paymentIntent;
    expect((validateEvent({ ...first, data: { paymentIntent: noAmount } }) as { error?: Error }).error).toBeDefined();
    expect((validateEvent({ ...first, type: 'payment.teleported' }) as { error?: Error }).error).toBeDefined();
  });

  it('the OpenAPI document gives data.paymentIntent the intent schema, data.payout the payout schema, and type the event types', async () => {
    const doc = (await call(ctx.app, 'GET', '/openapi.json')).json();
    for (const union of [
      doc.paths['/events/{id}'].get.responses['200'].content['application/json'].schema,
      doc.paths['/events'].get.responses['200'].content['application/json'].schema.properties.data.items,
    ]) {
      const [schema, payout] = union.anyOf;
      expect(Object.keys(payout.properties.data.properties.payout.properties)).toEqual(Object.keys(Payout.properties));
      const intent = schema.properties.data.properties.paymentIntent;
      expect(Object.keys(intent.properties)).toEqual(Object.keys(Intent.properties));
      expect(intent.required).toEqual(expect.arrayContaining(['id', 'amount', 'currency', 'status', 'metadata']));
      for (const t of EVENT_TYPES) expect(JSON.stringify(schema.properties.type)).toContain(t);
    }
  });
});
