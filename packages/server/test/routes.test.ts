/**
 * Routes (docs/spec/routes.md, decision 0077): a test-only connector that serves `mtn_momo` in CM
 * (the echo connector made an aggregator by `serves`) beside MTN's own; the default route, a route
 * set to it, the retry on the next route after a timed-out attempt, the late success returned
 * through the first attempt's own connector, and the one that cannot return it: to return by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/admin.ts';
import {
  type Connector,
  type ConnectorDefinition,
  MTN_MOMO_CONNECTOR,
  PAWAPAY_CONNECTOR,
  type PaymentRequest,
  connectorsServing,
  registerConnector,
  type Sandbox,
  watched,
} from '../src/modules/connectors/index.ts';
import type { MomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { ApiError } from '../src/platform/errors.ts';
import { appWithAllSandboxes, testConnectorDeps, withTestConnector } from './connectors.support.ts';
import { ECHO_CONNECTOR } from './fixtures/echo-connector/index.ts';
import type { EchoSettings } from './fixtures/echo-connector/echo.connector.ts';
import type { EchoSandbox } from './fixtures/echo-connector/echo.sandbox.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser } from './flow.support.ts';
import { operatorConsole } from './operators.support.ts';
import { call, createMerchant, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

const NAME = 'echo_routes';
/** What the routed connector was asked to collect (its method and country included). */
const asked: PaymentRequest[] = [];
/** While true, the routed connector's status reads say nothing (the provider never answers). */
let holding = false;

/**
 * The echo connector as an aggregator reaching MTN MoMo in Cameroon. Its callbacks are a test's
 * hint (`callbacks.handle`), confirmed by its status read like any other.
 */
const ROUTED: ConnectorDefinition<EchoSettings, EchoSandbox> = {
  ...ECHO_CONNECTOR,
  description: { ...ECHO_CONNECTOR.description, name: NAME, displayName: 'Echo Routes', serves: [{ method: 'mtn_momo', countries: ['CM'] }] },
  create(settings, deps): Connector {
    const inner = ECHO_CONNECTOR.create(settings, deps);
    return {
      ...inner,
      provider: NAME,
      async collect(request) {
        asked.push(request);
        return inner.collect(request);
      },
      status: async (kind, reference, known) => (holding ? { status: 'UNKNOWN', reason: 'held by the test' } : inner.status(kind, reference, known)),
      async verifyCallback(callback) {
        const reference = String((callback.body as { reference?: string }).reference ?? '');
        return { ok: true, kind: 'collection', reference, claimed: 'SUCCESSFUL', result: await inner.status('collection', reference) };
      },
    };
  },
  sandbox: { ...ECHO_CONNECTOR.sandbox, path: '/echo-routes' },
};

/** A test-only connector that also sends money (its sandbox's payments stand for transfers): a payout route may take it. */
const PAYING = 'echo_payouts';
const PAYING_CONNECTOR: ConnectorDefinition<EchoSettings, EchoSandbox> = {
  ...ECHO_CONNECTOR,
  description: {
    ...ECHO_CONNECTOR.description,
    name: PAYING,
    displayName: 'Echo Payouts',
    capabilities: { collect: true, disburse: true, refund: false },
    serves: [{ method: 'mtn_momo', countries: ['CM'] }],
  },
  create(settings, deps): Connector {
    const inner = ECHO_CONNECTOR.create(settings, deps);
    return { ...inner, provider: PAYING, disburse: (request) => inner.collect(request) };
  },
  sandbox: { ...ECHO_CONNECTOR.sandbox, path: '/echo-payouts' },
};

let unregister: () => void;
let unregisterPaying: () => void;
let ctx: TestContext;
let sandbox: Sandbox;
let momo: MomoSandbox;
let m: TestMerchant;

beforeAll(async () => {
  // Before the app and the sandbox: both loop over the registry when they start.
  unregister = registerConnector(ROUTED);
  unregisterPaying = registerConnector(PAYING_CONNECTOR);
  ({ ctx, sandbox } = await appWithAllSandboxes({ start: new Date('2026-11-23T10:00:00.000Z') }));
  momo = sandbox.of(MTN_MOMO_CONNECTOR);
  m = await createMerchant(ctx, 'Routes shop');
  await ctx.services.merchants.setFees(m.merchantId, 150, {});
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
  unregister?.();
  unregisterPaying?.();
});

let numbers = 0;
/** A new MTN Cameroon number ending in `suffix` (each test its own, so the prompt limits stay apart). */
const mtn = (suffix = '000') => `+2376772${String(++numbers).padStart(2, '0')}${suffix}`;

type Attempt = { id: string; provider: string; connector: string; providerAccount: string; status: string; failureCode: string | null; late: boolean };
type Intent = { status: string; attempts: Attempt[] };
const read = async (id: string) => (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as Intent;
const pay = (intent: { id: string; sessionToken: string }, phoneNumber: string) =>
  call(
    ctx.app,
    'POST',
    '/charge',
    { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
    { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber } },
  );
/**
 * The default route of MTN MoMo in Cameroon: MTN's own connector, the registry's aggregators that
 * reach it there, then the two test-only ones registered here (last in the registry).
 */
const DEFAULTS = () => ['mtn_momo', ...connectorsServing('mtn_momo', 'CM').filter((n) => !['mtn_momo', NAME, PAYING].includes(n)), NAME, PAYING];

const route = (connectors: string[] | null, kind: 'payment' | 'payout' = 'payment') =>
  runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country: 'CM', kind, method: 'mtn_momo', connectors });

/** Lets the provider calls started in the background finish, moves time, delivers what the sandbox decided and polls. */
async function later(ms = 2 * SECOND) {
  await ctx.services.callbacks.drain();
  ctx.clock.advance(ms);
  await sandbox.tick();
  await ctx.services.callbacks.pollDue();
  await ctx.services.callbacks.drain();
}

describe('routes', () => {
  it('routes list --json shows the defaults: the operator’s own connector, then the aggregator; never an aggregator as a method', async () => {
    const list = await runAdminCommand(ctx.services, 'routes.list', { mode: 'test' });
    expect(list).toContainEqual(
      expect.objectContaining({
        mode: 'test',
        country: 'CM',
        kind: 'payment',
        method: 'mtn_momo',
        connectors: DEFAULTS(),
        defaultConnectors: DEFAULTS(),
        overridden: false,
      }),
    );
    // The aggregator is a way to reach methods, not a method: no route of its own, none where it does not serve.
    expect(list.filter((r) => r.method === NAME)).toEqual([]);
    expect(list.find((r) => r.country === 'SN' && r.method === 'wave')?.connectors?.[0]).toBe('wave');
    expect(list.find((r) => r.country === 'SN' && r.method === 'wave')?.connectors).not.toContain(NAME);
    // Payouts: only connectors that can send money (the first aggregator here only collects).
    const payout = list.find((r) => r.country === 'CM' && r.kind === 'payout' && r.method === 'mtn_momo');
    expect(payout?.connectors[0]).toBe('mtn_momo');
    expect(payout?.connectors).toContain(PAYING);
    expect(payout?.connectors).not.toContain(NAME);

    const intent = await createIntent(ctx, m);
    const res = await call(ctx.app, 'GET', `/payment-methods?sessionToken=${encodeURIComponent(intent.sessionToken)}`, pk(m));
    const providers = (res.json() as { data: { type: string; provider?: string }[] }).data.map((d) => d.provider).filter(Boolean);
    expect(providers.filter((p) => p === 'mtn_momo')).toHaveLength(1);
    expect(providers).not.toContain(NAME);
    expect(providers).not.toContain(PAYING);
  });

  it('routes set refuses an unknown connector or one that does not serve the method there, saying which', async () => {
    const refused = async (connectors: string[], kind: 'payment' | 'payout' = 'payment') => {
      const err = await route(connectors, kind).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      return { code: (err as ApiError).code, message: (err as ApiError).message };
    };
    expect(await refused(['nope'])).toMatchObject({ code: 'route_invalid', message: expect.stringContaining('Unknown connector "nope"') });
    expect(await refused(['mtn_momo', 'wave'])).toMatchObject({
      code: 'route_invalid',
      message: expect.stringContaining('wave does not serve mtn_momo in CM'),
    });
    expect(await refused([NAME], 'payout')).toMatchObject({ code: 'route_invalid', message: expect.stringContaining('cannot send money out') });
    expect(await refused([])).toMatchObject({ code: 'route_invalid' });
    // Nothing was stored.
    expect((await runAdminCommand(ctx.services, 'routes.list', { mode: 'test' })).filter((r) => r.overridden)).toEqual([]);
  });

  it('a route set to the test-only connector takes the next attempt, with the method and country; its refund goes back through it', async () => {
    expect(await route([NAME])).toMatchObject({ connectors: [NAME], overridden: true, updatedBy: 'cli' });
    const intent = await createIntent(ctx, m, { amount: '2500' });
    const phone = mtn();
    const res = await pay(intent, phone);
    expect(res.statusCode, res.body).toBe(202);
    expect((res.json() as Intent).attempts).toEqual([
      expect.objectContaining({ provider: 'mtn_momo', connector: NAME, providerAccount: `pac_sandbox_${NAME}`, status: 'PENDING' }),
    ]);
    await later();
    await later();
    expect(await read(intent.id)).toMatchObject({ status: 'SUCCEEDED', attempts: [{ connector: NAME }] });
    expect(asked.at(-1)).toMatchObject({ phoneNumber: phone, method: 'mtn_momo', country: 'CM', amount: 2500n });
    // MTN's own API was never asked.
    expect(momo.requests().filter((r) => r.partyId === phone.slice(1))).toEqual([]);
    // A refund goes through the payment's own connector, which cannot send money back: refused,
    // though MTN's own API could.
    const refund = await call(ctx.app, 'POST', `/gateway/${intent.id}/refunds`, sk(m), {});
    expect(refund.json()).toMatchObject({ status: 409, code: 'refund_unsupported', detail: expect.stringContaining('Echo Routes') });
    await expectLedgerClean(ctx);
    expect(await route(null)).toMatchObject({ connectors: DEFAULTS(), overridden: false });
  });

  it('a timed-out attempt lets the retry take the next route; its late success is returned through its own connector', async () => {
    const phone = mtn('102');
    // MTN's own connector, then the test-only one (the registry's aggregators would come between).
    await route(['mtn_momo', NAME]);
    const intent = await createIntent(ctx, m, { expiresIn: 3600 });
    expect((await pay(intent, phone)).statusCode).toBe(202);
    await later();
    // MTN never answers: after 15 minutes the lifecycle gives up (a definite failure).
    await later(16 * MINUTE);
    expect(await read(intent.id)).toMatchObject({
      status: 'PENDING',
      attempts: [{ connector: 'mtn_momo', status: 'FAILED', failureCode: 'approval_timeout' }],
    });
    // The retry takes the next route.
    const retry = await pay(intent, phone);
    expect(retry.statusCode, retry.body).toBe(202);
    expect((retry.json() as Intent).attempts.map((a) => a.connector)).toEqual(['mtn_momo', NAME]);
    await later();
    await later();
    expect(await read(intent.id)).toMatchObject({ status: 'SUCCEEDED' });
    // Then MTN says the payer approved the first one after all: it goes back through MTN.
    const [first] = momo.requests().filter((r) => r.kind === 'collection' && r.partyId === phone.slice(1));
    momo.override(first?.referenceId ?? '', { status: 'SUCCESSFUL' });
    expect(momo.callBack(first?.referenceId ?? '')).toBe(true);
    await later();
    const [back] = momo.requests().filter((r) => r.kind === 'disbursement' && r.partyId === phone.slice(1));
    expect(back).toMatchObject({ amount: '5000' });
    momo.override(back?.referenceId ?? '', { status: 'SUCCESSFUL' });
    await later();
    await later();
    const refunds = await ctx.deps.db.selectFrom('mobile_money_refunds').selectAll().where('intent_id', '=', intent.id).execute();
    expect(refunds).toMatchObject([
      { reason: 'late_payment', late: true, status: 'SUCCEEDED', connector: 'mtn_momo', provider_account: 'pac_sandbox_mtn_momo' },
    ]);
    expect(await read(intent.id)).toMatchObject({
      status: 'SUCCEEDED',
      attempts: [
        { late: true, status: 'SUCCEEDED' },
        { late: false, status: 'SUCCEEDED' },
      ],
    });
    await expectLedgerClean(ctx);
    await route(null);
  });

  it('a late success its connector cannot send back is shown to operators as to return by hand, then marked returned', async () => {
    await route([NAME, 'mtn_momo']);
    const phone = mtn();
    const intent = await createIntent(ctx, m, { expiresIn: 3600 });
    holding = true;
    const started = await pay(intent, phone);
    expect(started.statusCode, started.body).toBe(202);
    await later(16 * MINUTE);
    expect(await read(intent.id)).toMatchObject({ status: 'PENDING', attempts: [{ connector: NAME, status: 'FAILED', failureCode: 'approval_timeout' }] });
    // The retry takes the next route, MTN's own API, and pays.
    expect((await pay(intent, phone)).statusCode).toBe(202);
    await later();
    await later();
    expect(await read(intent.id)).toMatchObject({ status: 'SUCCEEDED', attempts: [{ connector: NAME }, { connector: 'mtn_momo', status: 'SUCCEEDED' }] });
    // The aggregator then reports the first one paid.
    holding = false;
    const reference = asked.find((r) => r.phoneNumber === phone)?.reference ?? '';
    expect(await ctx.services.callbacks.handle(NAME, 'collection', reference, { url: '/', body: { reference } })).toBe(true);
    await later();
    expect(await ctx.deps.db.selectFrom('mobile_money_refunds').select('id').where('intent_id', '=', intent.id).execute()).toEqual([]);
    expect(await ctx.services.refunds.openManualReturns()).toEqual([{ mode: 'test', n: 1 }]);
    await expectLedgerClean(ctx);

    const ops = operatorConsole(ctx);
    const admin = await ops.operator('admin');
    const listed = await ops.send('GET', '/operator/api/late-payments', admin);
    expect(listed.statusCode, listed.body).toBe(200);
    const [open] = (listed.json() as { data: { id: string; status: string }[] }).data;
    expect(open).toMatchObject({
      status: 'TO_RETURN',
      connector: NAME,
      providerAccount: `pac_sandbox_${NAME}`,
      amount: '5000',
      phoneNumber: phone,
      intentId: intent.id,
    });
    const support = await ops.operator('support');
    expect((await ops.send('POST', `/operator/api/late-payments/${open?.id}/returned`, support, { note: 'sent' })).statusCode).toBe(403);
    const marked = await ops.send('POST', `/operator/api/late-payments/${open?.id}/returned`, admin, { note: 'Sent back from the aggregator dashboard' });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({ status: 'RETURNED', returnedBy: admin.id });
    expect((await ops.send('POST', `/operator/api/late-payments/${open?.id}/returned`, admin, { note: 'again' })).json()).toMatchObject({
      status: 409,
      code: 'return_state_invalid',
    });
    expect(await ctx.services.refunds.openManualReturns()).toEqual([]);
    const audit = (await ops.send('GET', `/operator/api/audit?targetId=${open?.id}`, admin)).json() as { data: { action: string }[] };
    expect(audit.data.map((a) => a.action)).toEqual(['late_payment.returned']);
    await expectLedgerClean(ctx);
    await route(null);
  });

  it('the console lists routes to every role and lets providers:manage set one, audited', async () => {
    const ops = operatorConsole(ctx);
    const support = await ops.operator('support');
    const listed = await ops.send('GET', '/operator/api/routes?mode=test', support);
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json() as { data: { method: string; country: string; connectors: string[] }[] }).data).toContainEqual(
      expect.objectContaining({ country: 'CM', method: 'mtn_momo', connectors: DEFAULTS() }),
    );
    const body = { mode: 'test', country: 'CM', method: 'mtn_momo', connectors: [NAME, 'mtn_momo'] };
    expect((await ops.send('PUT', '/operator/api/routes', support, body)).statusCode).toBe(403);
    const admin = await ops.operator('admin');
    const set = await ops.send('PUT', '/operator/api/routes', admin, body);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ connectors: [NAME, 'mtn_momo'], overridden: true, updatedBy: admin.id });
    expect((await ops.send('PUT', '/operator/api/routes', admin, { ...body, connectors: ['wave'] })).json()).toMatchObject({
      status: 400,
      code: 'route_invalid',
    });
    const back = await ops.send('PUT', '/operator/api/routes', admin, { ...body, connectors: null });
    expect(back.json()).toMatchObject({ connectors: DEFAULTS(), overridden: false });
    const audit = (await ops.send('GET', '/operator/api/audit?targetId=test:CM:payment:mtn_momo', admin)).json() as { data: { action: string }[] };
    expect(audit.data.map((a) => a.action)).toEqual(['route.set', 'route.set']);
  });

  it('a method whose own connector is not set up here is still offered once, and reached through the aggregator', async () => {
    const registry = ctx.services.connectors.forMode('test');
    const original = registry.get;
    registry.get = (name) => (name === 'mtn_momo' ? undefined : original(name));
    await route(['mtn_momo', NAME]);
    try {
      const intent = await createIntent(ctx, m, { amount: '3000' });
      const res = await call(ctx.app, 'GET', `/payment-methods?sessionToken=${encodeURIComponent(intent.sessionToken)}`, pk(m));
      const methods = (res.json() as { data: { provider?: string; available?: boolean }[] }).data.filter((d) => d.provider === 'mtn_momo');
      expect(methods).toEqual([expect.objectContaining({ provider: 'mtn_momo', name: 'MTN MoMo', available: true })]);
      const charged = await pay(intent, mtn());
      expect(charged.statusCode, charged.body).toBe(202);
      expect((charged.json() as Intent).attempts).toEqual([expect.objectContaining({ provider: 'mtn_momo', connector: NAME })]);
      await later();
      await later();
      expect(await read(intent.id)).toMatchObject({ status: 'SUCCEEDED' });
    } finally {
      registry.get = original;
      await route(null);
    }
    await expectLedgerClean(ctx);
  });

  it('a payout takes the first route of its destination’s method; back to the default, MTN’s own', async () => {
    const payer = await createMerchant(ctx, 'Routes payouts');
    await ctx.services.merchants.setSettlementDelay(payer.merchantId, 0);
    const user = await newUser(ctx, payer, { balance: '100000' });
    const intent = await createIntent(ctx, payer, { amount: '20000' });
    expect((await charge(ctx, user, intent.id, await authorize(ctx, payer, user, intent.id))).statusCode).toBe(200);
    await ctx.services.balances.settleDue();
    const send = () =>
      call(ctx.app, 'POST', '/payouts', sk(payer), { amount: '1000', currency: 'XAF', destination: { provider: 'mtn_momo', phoneNumber: mtn() } });

    expect(await route([PAYING], 'payout')).toMatchObject({ kind: 'payout', connectors: [PAYING], overridden: true });
    const routed = await send();
    expect(routed.statusCode, routed.body).toBe(202);
    expect(routed.json()).toMatchObject({ destination: { provider: 'mtn_momo' }, connector: PAYING, providerAccount: `pac_sandbox_${PAYING}` });
    await later();
    await later();
    expect((await call(ctx.app, 'GET', `/payouts/${(routed.json() as { id: string }).id}`, sk(payer))).json()).toMatchObject({ status: 'PAID' });

    await route(null, 'payout');
    const direct = await send();
    expect(direct.json()).toMatchObject({ connector: 'mtn_momo', providerAccount: 'pac_sandbox_mtn_momo' });
    await later();
    await expectLedgerClean(ctx);
  });
});

describe('routes to pawaPay', () => {
  it('routes set --connectors pawapay: the next MTN attempt in Cameroon goes through pawaPay, which pays it', async () => {
    expect(await route(['pawapay'])).toMatchObject({ connectors: ['pawapay'], overridden: true });
    const intent = await createIntent(ctx, m, { amount: '1500' });
    const phone = mtn();
    const res = await pay(intent, phone);
    expect(res.statusCode, res.body).toBe(202);
    expect((res.json() as Intent).attempts).toEqual([
      expect.objectContaining({ provider: 'mtn_momo', connector: 'pawapay', providerAccount: 'pac_sandbox_pawapay', status: 'PENDING' }),
    ]);
    await later();
    await later();
    expect(await read(intent.id)).toMatchObject({ status: 'SUCCEEDED', attempts: [{ connector: 'pawapay', status: 'SUCCEEDED' }] });
    // pawaPay was asked for MTN Cameroon; MTN's own API never was.
    expect(
      sandbox
        .of(PAWAPAY_CONNECTOR)
        .payments('deposit')
        .filter((d) => d.phoneNumber === phone.slice(1)),
    ).toEqual([expect.objectContaining({ provider: expect.objectContaining({ code: 'MTN_MOMO_CMR' }), amount: '1500', status: 'COMPLETED' })]);
    expect(momo.requests().filter((r) => r.partyId === phone.slice(1))).toEqual([]);
    await expectLedgerClean(ctx);
    await route(null);
  });

  it("MTN's own API hangs: within a minute new MTN attempts go through pawaPay, never two in flight for one intent", async () => {
    await route(['mtn_momo', 'pawapay']);
    const health = ctx.services.connectors.forMode('test').health;
    if (health === undefined) throw new Error('test mode is watched');
    // Earlier tests' MTN outcomes fall out of the health window.
    ctx.clock.advance(6 * MINUTE);
    // Test mode's MTN account on the same sandbox, cut off after 150 ms instead of 10 s, and
    // watched under the same account: a hung call counts as a timeout without a long wait.
    const quick = watched(
      MTN_MOMO_CONNECTOR.create(
        { ...MTN_MOMO_CONNECTOR.sandbox.settings({ baseUrl: sandbox.urls.mtn_momo as string, secrets: {} }), timeoutMs: 150 },
        testConnectorDeps(ctx),
      ),
      health,
      'pac_sandbox_mtn_momo',
    );
    await withTestConnector(ctx, quick, async () => {
      momo.setFaults({ hang: true });
      try {
        const from = ctx.clock.now().getTime();
        const taken: string[] = [];
        const hung: string[] = [];
        let through: { intent: { id: string }; phone: string } | undefined;
        for (let i = 0; i < 10 && through === undefined; i++) {
          const intent = await createIntent(ctx, m);
          const phone = mtn();
          const res = await pay(intent, phone);
          expect(res.statusCode, res.body).toBe(202);
          const connector = (res.json() as Intent).attempts.at(-1)?.connector as string;
          taken.push(connector);
          // The charge's provider call runs in the background: MTN's hangs until it is cut off.
          await ctx.services.callbacks.drain();
          if (connector === 'pawapay') through = { intent, phone };
          else {
            hung.push(intent.id);
            // The payer tries again on the same intent: refused while its MTN attempt waits, not sent elsewhere.
            expect((await pay(intent, mtn())).json()).toMatchObject({ code: 'attempt_in_progress' });
            ctx.clock.advance(5 * SECOND);
          }
        }
        // Five timeouts, all bad: MTN's account is unavailable for MTN MoMo; pawaPay's is not.
        expect(taken).toEqual(['mtn_momo', 'mtn_momo', 'mtn_momo', 'mtn_momo', 'mtn_momo', 'pawapay']);
        expect(ctx.clock.now().getTime() - from).toBeLessThan(MINUTE);
        expect(health.available('pac_sandbox_mtn_momo', 'mtn_momo')).toBe(false);
        expect(health.available('pac_sandbox_pawapay', 'mtn_momo')).toBe(true);
        // The intents MTN left hanging still have their one attempt, waiting.
        for (const id of hung) expect(await read(id)).toMatchObject({ status: 'PROCESSING', attempts: [{ connector: 'mtn_momo', status: 'PENDING' }] });

        // The next ones too, while MTN is down; pawaPay pays them.
        const next = await createIntent(ctx, m);
        expect(((await pay(next, mtn())).json() as Intent).attempts).toEqual([
          expect.objectContaining({ connector: 'pawapay', providerAccount: 'pac_sandbox_pawapay' }),
        ]);
        await later();
        await later();
        for (const id of [through?.intent.id, next.id])
          expect(await read(id as string)).toMatchObject({ status: 'SUCCEEDED', attempts: [{ connector: 'pawapay', status: 'SUCCEEDED' }] });
        expect(
          sandbox
            .of(PAWAPAY_CONNECTOR)
            .payments('deposit')
            .filter((d) => d.phoneNumber === through?.phone.slice(1)),
        ).toHaveLength(1);
        // Never two attempts in flight for one intent.
        const pending = await ctx.deps.db
          .selectFrom('payment_attempts')
          .select(['intent_id'])
          .where('status', '=', 'PENDING')
          .where('intent_id', 'in', [...hung, next.id])
          .execute();
        expect(new Set(pending.map((p) => p.intent_id)).size).toBe(pending.length);
      } finally {
        momo.setFaults({ hang: false });
      }
    });
    await route(null);
  });
});
