import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR } from '../src/platform/clock.ts';
import { createWebhooksService } from '../src/modules/webhooks/webhooks.service.ts';
import { call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { makeEvent } from './webhooks.receiver.ts';

/** Webhook endpoints and events over HTTP: CRUD, secrets, URL rules, limits, scoping. */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;
const live = (x: TestMerchant) => ({ apiKey: x.live.apiKey, secretKey: x.live.secretKey });

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Alpha');
  other = await createMerchant(ctx, 'Beta');
});
afterAll(() => ctx.close());

function expectProblem(res: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(body).toMatchObject({ status, code, type: `/errors/${code}` });
  return body;
}

describe('webhook endpoints', () => {
  it('creates an endpoint with a whsec_ secret of 32 random bytes, shown at creation and on reveal', async () => {
    const res = await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 'https://shop.example.com/hooks', description: 'orders' });
    expect(res.statusCode).toBe(201);
    const ep = res.json();
    expect(ep).toMatchObject({
      object: 'webhook_endpoint',
      url: 'https://shop.example.com/hooks',
      enabledEvents: ['*'],
      enabled: true,
      livemode: false,
      description: 'orders',
      disabledReason: null,
    });
    expect(ep.id).toMatch(/^we_[0-9a-z]{26}$/);
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(ep.secret.slice(6), 'base64')).toHaveLength(32);

    const got = await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}`, sk(m));
    expect(got.statusCode).toBe(200);
    expect(got.json()).not.toHaveProperty('secret');
    const revealed = await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}/secret`, sk(m));
    expect(revealed.json()).toEqual({ object: 'webhook_endpoint_secret', endpointId: ep.id, secret: ep.secret, rollingSecrets: [] });
  });

  it('stores the secret encrypted, never in clear, and never logs it', async () => {
    const ep = (await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 'https://shop.example.com/enc' })).json();
    const rows = await ctx.deps.db.selectFrom('webhook_endpoint_secrets').selectAll().where('endpoint_id', '=', ep.id).execute();
    expect(rows).toHaveLength(1);
    const stored = (rows[0] as { secret_encrypted: Buffer }).secret_encrypted;
    expect(stored.toString('latin1')).not.toContain(ep.secret.slice(6, 20));
    expect(stored.toString('base64')).not.toContain(ep.secret.slice(6, 20));
    expect(ctx.logs.join('')).not.toContain(ep.secret.slice(6));
  });

  it('chooses event types; unknown types are refused', async () => {
    const res = await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), {
      url: 'https://shop.example.com/t',
      enabledEvents: ['payment.failed', 'payment.completed', 'payment.failed'],
    });
    expect(res.json().enabledEvents).toEqual(['payment.failed', 'payment.completed']);
    const star = await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 'https://shop.example.com/t', enabledEvents: ['*'] });
    expect(star.json().enabledEvents).toEqual(['*']);
    const bad = expectProblem(
      await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 'https://shop.example.com/t', enabledEvents: ['payment.exploded'] }),
      400,
      'validation_error',
    );
    expect(String(bad.param)).toMatch(/^enabledEvents/);
    const patched = await call(ctx.app, 'PATCH', `/webhook-endpoints/${res.json().id}`, sk(m), { enabledEvents: ['nope'] });
    expectProblem(patched, 400, 'validation_error');
    expectProblem(await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 'https://shop.example.com/t', colour: 'red' }), 400, 'parameter_unknown');
  });

  it('refuses bad URLs with url_invalid', async () => {
    const cases: [TestMerchant | 'live', string][] = [
      [m, 'not a url'],
      [m, '/relative/path'],
      [m, 'ftp://shop.example.com/x'],
      [m, 'https://user:pass@shop.example.com/x'],
      [m, 'https://user@shop.example.com/x'],
      [m, 'https://shop.example.com/x#frag'],
      [m, 'http://10.0.0.1/x'],
      [m, 'http://192.168.1.20/x'],
      [m, 'http://169.254.169.254/latest/meta-data'],
      [m, 'http://[fd00::1]/x'],
      [m, 'http://0.0.0.0/x'],
      ['live', 'http://shop.example.com/x'],
      ['live', 'https://127.0.0.1/x'],
      ['live', 'https://localhost/x'],
      ['live', 'https://api.localhost/x'],
      ['live', 'https://[::1]/x'],
      ['live', 'https://[::ffff:127.0.0.1]/x'],
      ['live', 'https://2130706433/x'],
      ['live', 'https://10.1.2.3/x'],
      ['live', 'https://172.16.0.1/x'],
      ['live', 'https://100.64.0.1/x'],
      ['live', `https://shop.example.com/${'x'.repeat(2100)}`],
      // Issue 20: IPv6 forms that embed a private IPv4 address, and the gateway's own port.
      ['live', 'https://[::127.0.0.1]/'],
      ['live', 'https://[::a9fe:a9fe]/'],
      ['live', 'https://[::a00:1]/'],
      ['live', 'https://[64:ff9b::a00:1]/'],
      [m, `http://127.0.0.1:${ctx.deps.config.port}/readyz`],
      [m, `http://localhost:${ctx.deps.config.port}/readyz`],
    ];
    for (const [who, url] of cases) {
      const creds = who === 'live' ? live(m) : sk(who);
      const body = expectProblem(await call(ctx.app, 'POST', '/webhook-endpoints', creds, { url }), 400, 'url_invalid');
      expect(body.param, url).toBe('url');
    }
    expectProblem(await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 42 }), 400, 'url_invalid');
    expectProblem(await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), {}), 400, 'validation_error');
  });

  it('live mode takes public https URLs; test mode takes loopback when allowed (development default)', async () => {
    const l = await call(ctx.app, 'POST', '/webhook-endpoints', live(m), { url: 'https://93.184.216.34/hooks' });
    expect(l.statusCode).toBe(201);
    expect(l.json().livemode).toBe(true);
    expect((await call(ctx.app, 'POST', '/webhook-endpoints', live(m), { url: 'https://hooks.shop.example/x' })).statusCode).toBe(201);
    expect(ctx.deps.config.webhooks.allowLoopback).toBe(true);
    expect((await call(ctx.app, 'POST', '/webhook-endpoints', sk(other), { url: 'http://127.0.0.1:9/x' })).statusCode).toBe(201);
    expect((await call(ctx.app, 'POST', '/webhook-endpoints', sk(other), { url: 'http://localhost:9/x' })).statusCode).toBe(201);
  });

  it('test mode refuses loopback when the server does not allow it', async () => {
    const svc = createWebhooksService({ ...ctx.deps, config: { ...ctx.deps.config, webhooks: { ...ctx.deps.config.webhooks, allowLoopback: false } } });
    const owner = { merchantId: other.merchantId, mode: 'test' as const };
    await expect(svc.createEndpoint(owner, { url: 'http://127.0.0.1:9/x' })).rejects.toMatchObject({ code: 'url_invalid' });
    await expect(svc.createEndpoint(owner, { url: 'http://localhost:9/x' })).rejects.toMatchObject({ code: 'url_invalid' });
  });

  it('a host name that resolves to a private address is refused', async () => {
    const resolver = async (host: string) =>
      host === 'internal.shop.example' ? [{ address: '10.0.0.7', family: 4 as const }] : [{ address: '93.184.216.34', family: 4 as const }];
    const svc = createWebhooksService(ctx.deps, { resolver });
    const owner = { merchantId: other.merchantId, mode: 'live' as const };
    await expect(svc.createEndpoint(owner, { url: 'https://internal.shop.example/x' })).rejects.toMatchObject({ code: 'url_invalid' });
    const ep = await svc.createEndpoint(owner, { url: 'https://public.shop.example/x' });
    await expect(svc.updateEndpoint(owner, ep.id, { url: 'https://internal.shop.example/y' })).rejects.toMatchObject({ code: 'url_invalid' });
  });

  it('allows 16 endpoints per merchant and mode; the 17th is 422 limit_exceeded', async () => {
    const x = await createMerchant(ctx, 'Limits');
    const made = await Promise.all(
      Array.from({ length: 16 }, (_, i) => call(ctx.app, 'POST', '/webhook-endpoints', sk(x), { url: `https://shop.example.com/${i}` })),
    );
    expect(made.map((r) => r.statusCode)).toEqual(Array(16).fill(201));
    const body = expectProblem(await call(ctx.app, 'POST', '/webhook-endpoints', sk(x), { url: 'https://shop.example.com/17' }), 422, 'limit_exceeded');
    expect(body.limit).toBe(16);
    // The other mode has its own 16.
    expect((await call(ctx.app, 'POST', '/webhook-endpoints', live(x), { url: 'https://shop.example.com/live' })).statusCode).toBe(201);
    // Deleting one makes room.
    expect((await call(ctx.app, 'DELETE', `/webhook-endpoints/${made[0]?.json().id}`, sk(x))).json()).toMatchObject({ deleted: true });
    expect((await call(ctx.app, 'POST', '/webhook-endpoints', sk(x), { url: 'https://shop.example.com/again' })).statusCode).toBe(201);
  });

  it('concurrent creations never pass the limit', async () => {
    const x = await createMerchant(ctx, 'Race');
    const res = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(ctx.app, 'POST', '/webhook-endpoints', sk(x), { url: `https://shop.example.com/${i}` })),
    );
    expect(res.filter((r) => r.statusCode === 201)).toHaveLength(16);
    expect(res.filter((r) => r.statusCode === 422)).toHaveLength(4);
  });

  it('lists with a cursor, updates, disables, deletes', async () => {
    const x = await createMerchant(ctx, 'Lister');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await call(ctx.app, 'POST', '/webhook-endpoints', sk(x), { url: `https://shop.example.com/${i}` })).json().id);
      ctx.clock.advance(1);
    }
    const p1 = (await call(ctx.app, 'GET', '/webhook-endpoints?limit=2', sk(x))).json();
    expect(p1.data.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[3]]);
    expect(p1.hasMore).toBe(true);
    const p3 = (await call(ctx.app, 'GET', `/webhook-endpoints?limit=2&startingAfter=${ids[1]}`, sk(x))).json();
    expect(p3).toEqual({ data: [expect.objectContaining({ id: ids[0] })], hasMore: false });
    expectProblem(await call(ctx.app, 'GET', '/webhook-endpoints?limit=0', sk(x)), 400, 'validation_error');
    expectProblem(await call(ctx.app, 'GET', '/webhook-endpoints?limit=101', sk(x)), 400, 'validation_error');

    const patched = await call(ctx.app, 'PATCH', `/webhook-endpoints/${ids[0]}`, sk(x), {
      url: 'https://other.example.com/h',
      enabled: false,
      description: null,
    });
    expect(patched.json()).toMatchObject({ url: 'https://other.example.com/h', enabled: false, disabledReason: 'manual', description: null });
    const enabled = await call(ctx.app, 'PATCH', `/webhook-endpoints/${ids[0]}`, sk(x), { enabled: true });
    expect(enabled.json()).toMatchObject({ enabled: true, disabledReason: null });
    expectProblem(await call(ctx.app, 'PATCH', `/webhook-endpoints/${ids[0]}`, sk(x), { url: 'https://a:b@x.example.com/' }), 400, 'url_invalid');

    expect((await call(ctx.app, 'DELETE', `/webhook-endpoints/${ids[0]}`, sk(x))).json()).toEqual({ id: ids[0], object: 'webhook_endpoint', deleted: true });
    expectProblem(await call(ctx.app, 'GET', `/webhook-endpoints/${ids[0]}`, sk(x)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'DELETE', `/webhook-endpoints/${ids[0]}`, sk(x)), 404, 'not_found');
  });

  it("another merchant's or mode's endpoint is 404 not_found on every route", async () => {
    const ep = (await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 'https://shop.example.com/mine' })).json();
    for (const creds of [sk(other), live(m)]) {
      expectProblem(await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}`, creds), 404, 'not_found');
      expectProblem(await call(ctx.app, 'PATCH', `/webhook-endpoints/${ep.id}`, creds, { enabled: false }), 404, 'not_found');
      expectProblem(await call(ctx.app, 'DELETE', `/webhook-endpoints/${ep.id}`, creds), 404, 'not_found');
      expectProblem(await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}/secret`, creds), 404, 'not_found');
      expectProblem(await call(ctx.app, 'POST', `/webhook-endpoints/${ep.id}/roll-secret`, creds), 404, 'not_found');
      expectProblem(await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}/deliveries`, creds), 404, 'not_found');
    }
    const listed = (await call(ctx.app, 'GET', '/webhook-endpoints?limit=100', live(m))).json();
    expect(listed.data.map((e: { id: string }) => e.id)).not.toContain(ep.id);
  });

  it('needs the secret key', async () => {
    expectProblem(await call(ctx.app, 'GET', '/webhook-endpoints', pk(m)), 401, 'secret_key_required');
    expectProblem(await call(ctx.app, 'POST', '/webhook-endpoints', pk(m), { url: 'https://shop.example.com/' }), 401, 'secret_key_required');
    expectProblem(await call(ctx.app, 'GET', '/events', pk(m)), 401, 'secret_key_required');
  });

  it('rolls the secret: the old one keeps signing for 24 h, then only the new one', async () => {
    const ep = (await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url: 'https://shop.example.com/roll' })).json();
    const rolled = await call(ctx.app, 'POST', `/webhook-endpoints/${ep.id}/roll-secret`, sk(m));
    expect(rolled.statusCode).toBe(200);
    const fresh = rolled.json().secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(ep.secret);
    const during = (await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}/secret`, sk(m))).json();
    expect(during.secret).toBe(fresh);
    expect(during.rollingSecrets).toEqual([{ secret: ep.secret, expiresAt: new Date(ctx.clock.now().getTime() + 24 * HOUR).toISOString() }]);
    ctx.clock.advance(24 * HOUR);
    const after = (await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}/secret`, sk(m))).json();
    expect(after).toMatchObject({ secret: fresh, rollingSecrets: [] });
    // expiresIn: 0 stops the old secret at once.
    const now = await call(ctx.app, 'POST', `/webhook-endpoints/${ep.id}/roll-secret`, sk(m), { expiresIn: 0 });
    expect((await call(ctx.app, 'GET', `/webhook-endpoints/${ep.id}/secret`, sk(m))).json()).toMatchObject({ secret: now.json().secret, rollingSecrets: [] });
    expectProblem(await call(ctx.app, 'POST', `/webhook-endpoints/${ep.id}/roll-secret`, sk(m), { expiresIn: -1 }), 400, 'validation_error');
  });
});

describe('events API', () => {
  it('lists events newest first with a cursor and a type filter, reads one as delivered', async () => {
    const x = await createMerchant(ctx, 'Eventful');
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(await makeEvent(ctx, x.merchantId, { type: i % 2 === 0 ? 'payment.completed' : 'payment.failed' }));
      ctx.clock.advance(1);
    }
    await makeEvent(ctx, x.merchantId, { mode: 'live' });
    const all = (await call(ctx.app, 'GET', '/events', sk(x))).json();
    expect(all.data.map((e: { id: string }) => e.id)).toEqual(made.map((e) => e.id).reverse());
    expect(all.hasMore).toBe(false);
    const p1 = (await call(ctx.app, 'GET', '/events?limit=2', sk(x))).json();
    expect(p1.hasMore).toBe(true);
    const p2 = (await call(ctx.app, 'GET', `/events?limit=2&startingAfter=${p1.data[1].id}`, sk(x))).json();
    expect(p2.data.map((e: { id: string }) => e.id)).toEqual([made[2]?.id, made[1]?.id]);
    const failed = (await call(ctx.app, 'GET', '/events?type=payment.failed', sk(x))).json();
    expect(failed.data.map((e: { type: string }) => e.type)).toEqual(['payment.failed', 'payment.failed']);
    expectProblem(await call(ctx.app, 'GET', '/events?type=payment.nope', sk(x)), 400, 'validation_error');

    const one = await call(ctx.app, 'GET', `/events/${made[0]?.id}`, sk(x));
    expect(one.json()).toEqual(made[0]);
    const row = await ctx.deps.db
      .selectFrom('events')
      .select('payload')
      .where('id', '=', made[0]?.id as string)
      .executeTakeFirstOrThrow();
    expect(one.body).toBe(row.payload);
    expect(one.json().data.paymentIntent.metadata).toEqual(made[0]?.data.paymentIntent.metadata);

    expectProblem(await call(ctx.app, 'GET', `/events/${made[0]?.id}`, sk(m)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', `/events/${made[0]?.id}`, live(x)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'POST', `/events/${made[0]?.id}/resend`, sk(m)), 404, 'not_found');
    expectProblem(await call(ctx.app, 'GET', '/events/evt_nope', sk(x)), 404, 'not_found');
    expect((await call(ctx.app, 'GET', '/events', live(x))).json().data).toHaveLength(1);
  });
});
