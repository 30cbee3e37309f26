/**
 * The dashboard's Home (issue 22): the overview's figures and series from real payments, the
 * hourly rollup and the open hour read live, test and live apart, other merchants never counted;
 * every method and connector counted alike (the wallet, MTN MoMo, Orange Money's redirect, Wave);
 * and the header search by the last digits of a customer's phone.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/modules/connectors/index.ts';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes } from './connectors.support.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser, refreshToken, type TestUser } from './flow.support.ts';
import { call, createMerchant, pk, setTotpEnrolled, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let sandbox: Sandbox;
/** Douala (XAF: the wallet, MTN MoMo, Orange Money) and Dakar (XOF: Wave), paid by every method. */
let douala: TestMerchant;
let dakar: TestMerchant;
let a: TestMerchant;
let b: TestMerchant;
let cookieA: string;
let cookieB: string;
const users: Record<string, TestUser> = {};
const paid: Record<string, string[]> = {};

/** Signs in with the password, then enrols the owner in TOTP: live mode needs two-factor sign-in. */
async function login(m: TestMerchant): Promise<string> {
  await setTotpEnrolled(ctx, m.dashboard.email, false);
  const res = await ctx.app.inject({ method: 'POST', url: '/dashboard/api/login', payload: m.dashboard });
  expect(res.statusCode, res.body).toBe(200);
  await setTotpEnrolled(ctx, m.dashboard.email, true);
  return String(res.headers['set-cookie']).split(';')[0] as string;
}

async function get(cookie: string, url: string) {
  const res = await ctx.app.inject({ method: 'GET', url: `/dashboard/api${url}`, headers: { cookie } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer's shape is what the test checks
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

/** One payment through the API (intent, OTP, charge); `declined` when the wallet cannot pay it. */
async function pay(m: TestMerchant, who: string, amount: string, opts: { declined?: boolean; orderId?: string } = {}) {
  const user = users[who] as TestUser;
  await refreshToken(ctx, m, user);
  const intent = await createIntent(ctx, m, { amount, metadata: { orderId: opts.orderId ?? `o-${who}-${amount}` } });
  const token = await authorize(ctx, m, user, intent.id);
  const res = await charge(ctx, user, intent.id, token);
  expect(res.statusCode, res.body).toBe(opts.declined ? 402 : 200);
  (paid[who] ??= []).push(intent.id);
  // One OTP code per user per 30 s: the next payment is a minute later.
  ctx.clock.advance(MINUTE);
  return intent.id;
}

async function rollAll(): Promise<number> {
  let rounds = 0;
  while (await ctx.services.charges.rollUpNext()) rounds++;
  return rounds + 1;
}

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithAllSandboxes());
  a = await createMerchant(ctx, 'Alpha');
  b = await createMerchant(ctx, 'Bravo');
  for (const name of ['u1', 'u2', 'u4']) users[name] = await newUser(ctx, a, { balance: '100000' });
  users.u3 = await newUser(ctx, a, { balance: '10' });
  users.ub = await newUser(ctx, b, { balance: '100000' });
  douala = await createMerchant(ctx, 'Douala shop');
  dakar = await createMerchant(ctx, 'Dakar shop');
  await ctx.services.merchants.setCountry(dakar.merchantId, 'SN');
  users.ud = await newUser(ctx, douala, { balance: '100000' });
  cookieA = await login(a);
  cookieB = await login(b);

  // Yesterday (the previous period of "today"): u1's first payment.
  ctx.clock.set('2026-10-31T09:30:00Z');
  await pay(a, 'u1', '1000');
  // Today 08:xx: u1 again (not new), u2 for the first time, u3 declined (an attempt, no payment).
  ctx.clock.set('2026-11-01T08:15:00Z');
  await pay(a, 'u1', '5000');
  await pay(a, 'u2', '2000');
  await pay(a, 'u3', '500', { declined: true });
  // Bravo's payment never shows in Alpha's figures.
  await pay(b, 'ub', '9999');
  // The open hour, 10:xx.
  ctx.clock.set('2026-11-01T10:20:00Z');
  await pay(a, 'u4', '3000');
  await pay(a, 'u2', '700');
  cookieA = await login(a);
  cookieB = await login(b);
});
afterAll(async () => {
  await expectLedgerClean(ctx);
  await sandbox?.close();
  await ctx?.close();
});

const todayFigures = {
  volume: [{ currency: 'XAF', amount: '10700' }],
  payments: 4,
  attempts: 5,
  successRate: 0.8,
  newCustomers: 2,
};

describe('overview', () => {
  it('today: figures, hourly series and yesterday up to the same time, the same read live or from the rollup', async () => {
    const live = await get(cookieA, '/test/overview?period=today');
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body).toMatchObject({
      object: 'dashboard_overview',
      interval: 'hour',
      from: '2026-11-01T00:00:00.000Z',
      previousFrom: '2026-10-31T00:00:00.000Z',
    });
    expect(live.body.current).toEqual(todayFigures);
    expect(live.body.previous).toEqual({ volume: [{ currency: 'XAF', amount: '1000' }], payments: 1, attempts: 1, successRate: 1, newCustomers: 1 });
    const series = live.body.series as { start: string; payments: number; attempts: number; newCustomers: number; volume: unknown[] }[];
    expect(series).toHaveLength(11);
    expect(series[8]).toEqual({
      start: '2026-11-01T08:00:00.000Z',
      volume: [{ currency: 'XAF', amount: '7000' }],
      payments: 2,
      attempts: 3,
      successRate: 0.6667,
      newCustomers: 1,
    });
    expect(series[10]).toMatchObject({ volume: [{ currency: 'XAF', amount: '3700' }], payments: 2, newCustomers: 1 });
    expect(series[9]).toMatchObject({ volume: [], payments: 0, attempts: 0, successRate: null });

    // The rollup of every closed hour (10:00 is still open): the same answer, now from 720-row-sized reads.
    expect(await rollAll()).toBeGreaterThan(20);
    const rows = await ctx.deps.db.selectFrom('charge_stats_hourly').selectAll().where('merchant_id', '=', a.merchantId).orderBy('hour').execute();
    expect(rows.map((r) => [r.hour.toISOString(), Number(r.succeeded), Number(r.failed), String(r.volume_minor), Number(r.new_customers)])).toEqual([
      ['2026-10-31T09:00:00.000Z', 1, 0, '1000', 1],
      ['2026-11-01T08:00:00.000Z', 2, 1, '7000', 1],
    ]);
    const rolled = await get(cookieA, '/test/overview?period=today');
    expect(rolled.body).toEqual(live.body);
    // Rolling again does nothing: the hour is closed for good.
    expect(await ctx.services.charges.rollUpNext()).toBe(false);
  });

  it('moving the clock closes the open hour: the rollup takes it and new customers stay counted once', async () => {
    ctx.clock.set('2026-11-01T11:30:00Z');
    await rollAll();
    const hour10 = await ctx.deps.db
      .selectFrom('charge_stats_hourly')
      .selectAll()
      .where('merchant_id', '=', a.merchantId)
      .where('hour', '=', new Date('2026-11-01T10:00:00Z'))
      .executeTakeFirstOrThrow();
    expect([Number(hour10.succeeded), Number(hour10.new_customers)]).toEqual([2, 1]);
    cookieA = await login(a);
    const today = await get(cookieA, '/test/overview?period=today');
    expect(today.body.current).toEqual(todayFigures);
    expect(today.body.series).toHaveLength(12);

    const week = await get(cookieA, '/test/overview?period=7d');
    expect(week.body).toMatchObject({ interval: 'day', from: '2026-10-26T00:00:00.000Z' });
    expect(week.body.current).toEqual({
      ...todayFigures,
      volume: [{ currency: 'XAF', amount: '11700' }],
      payments: 5,
      attempts: 6,
      successRate: 0.8333,
      newCustomers: 3,
    });
    const days = week.body.series as { start: string; payments: number }[];
    expect(days.map((d) => d.payments)).toEqual([0, 0, 0, 0, 0, 1, 4]);
    expect((await get(cookieA, '/test/overview?period=30d')).body.series).toHaveLength(30);
  });

  it('live mode never shows test payments; another merchant sees only its own', async () => {
    const live = await get(cookieA, '/live/overview?period=30d');
    expect(live.status).toBe(200);
    expect(live.body.current).toEqual({ volume: [], payments: 0, attempts: 0, successRate: null, newCustomers: 0 });
    cookieB = await login(b);
    const other = await get(cookieB, '/test/overview?period=today');
    expect(other.body.current).toEqual({ volume: [{ currency: 'XAF', amount: '9999' }], payments: 1, attempts: 1, successRate: 1, newCustomers: 1 });
  });

  it('a bad period is a 400, no session a 401', async () => {
    expect((await get(cookieA, '/test/overview?period=year')).status).toBe(400);
    expect((await get('', '/test/overview')).status).toBe(401);
  });
});

describe('search by phone (last digits)', () => {
  it("finds the payments of the merchant's customer whose phone ends with 4 digits or more; fewer digits do not search phones", async () => {
    const u2 = users.u2 as TestUser;
    const last5 = u2.phoneNumber.slice(-5);
    const found = await get(cookieA, `/test/search?q=${last5}`);
    expect(found.status).toBe(200);
    expect((found.body.data as { id: string }[]).map((p) => p.id).sort()).toEqual([...(paid.u2 ?? [])].sort());
    const spaced = await get(cookieA, `/test/search?q=${encodeURIComponent(` ${u2.phoneNumber.slice(-6, -3)} ${u2.phoneNumber.slice(-3)}`)}`);
    expect((spaced.body.data as { id: string }[]).map((p) => p.id).sort()).toEqual([...(paid.u2 ?? [])].sort());
    // The whole number as people write it: with 00, or national with dots (read in the merchant's country).
    const national = u2.phoneNumber.slice(4).replace(/(\d{3})(\d{2})(\d{2})(\d{2})/, '$1.$2.$3.$4');
    for (const q of [`00${u2.phoneNumber.slice(1)}`, national]) {
      const whole = await get(cookieA, `/test/search?q=${encodeURIComponent(q)}`);
      expect((whole.body.data as { id: string }[]).map((p) => p.id).sort(), q).toEqual([...(paid.u2 ?? [])].sort());
    }
    // Three digits: an amount or a metadata value only, never a phone.
    const short = await get(cookieA, `/test/search?q=${u2.phoneNumber.slice(-3)}`);
    expect(short.status).toBe(200);
    expect((short.body.data as { id: string }[]).some((p) => paid.u2?.includes(p.id))).toBe(false);
    // Bravo never had u2 as a customer: nothing, and live mode neither.
    expect((await get(cookieB, `/test/search?q=${last5}`)).body.data).toEqual([]);
    expect((await get(cookieA, `/live/search?q=${last5}`)).body.data).toEqual([]);
  });

  it('still finds by metadata value (an order reference)', async () => {
    const found = await get(cookieA, '/test/search?q=o-u4-3000');
    expect((found.body.data as { id: string }[]).map((p) => p.id)).toEqual(paid.u4);
  });
});

let numbers = 0;
const number = (prefix: string) => `${prefix}${String(++numbers).padStart(2, '0')}000`;

/** Pays an intent directly with a provider through its sandbox, as the checkout does; `page`: a redirect provider's page is approved. */
async function payDirect(
  m: TestMerchant,
  provider: string,
  phoneNumber: string,
  intent: { id: string; sessionToken: string },
  opts: { page?: boolean; expect?: string } = {},
) {
  const res = await call(
    ctx.app,
    'POST',
    '/charge',
    { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
    { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider, phoneNumber } },
  );
  expect(res.statusCode, res.body).toBe(202);
  const next = (res.json() as { nextAction: { type: string; url?: string } | null }).nextAction;
  if (opts.page) {
    expect(next?.type).toBe('redirect');
    const form = new URLSearchParams({ action: 'approve', lang: 'fr', phoneNumber });
    const approved = await fetch(next?.url ?? '', {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    expect(approved.status).toBe(303);
  }
  await ctx.services.attempts.drain();
  ctx.clock.advance(2 * SECOND);
  await sandbox.tick();
  const status = async () => ((await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(m))).json() as { status: string }).status;
  await expect.poll(status, { interval: 20, timeout: 5000 }).toBe(opts.expect ?? 'SUCCEEDED');
}

type Figures = { volume: { currency: string; amount: string }[]; payments: number; attempts: number; newCustomers: number };
const amountIn = (f: Figures, currency: string) => Number(f.volume.find((v) => v.currency === currency)?.amount ?? 0);

describe('every method moves the figures alike', () => {
  beforeAll(() => ctx.clock.set('2026-11-02T09:10:00Z'));
  const methods = [
    {
      method: 'wallet',
      merchant: () => douala,
      currency: 'XAF',
      pay: async (intent: { id: string }) => {
        const user = users.ud as TestUser;
        await refreshToken(ctx, douala, user);
        expect((await charge(ctx, user, intent.id, await authorize(ctx, douala, user, intent.id))).statusCode).toBe(200);
      },
    },
    {
      method: 'mtn_momo',
      merchant: () => douala,
      currency: 'XAF',
      pay: (i: { id: string; sessionToken: string }) => payDirect(douala, 'mtn_momo', number('+2376770'), i),
    },
    {
      method: 'orange_money (its redirect)',
      merchant: () => douala,
      currency: 'XAF',
      pay: (i: { id: string; sessionToken: string }) => payDirect(douala, 'orange_money', number('+2376900'), i, { page: true }),
    },
    {
      method: 'wave',
      merchant: () => dakar,
      currency: 'XOF',
      pay: (i: { id: string; sessionToken: string }) => payDirect(dakar, 'wave', number('+2217700'), i, { page: true }),
    },
  ];

  /** The intent each method paid, by method. */
  const paidWith: Record<string, string> = {};

  it.each(methods)('$method: one more payment, attempt, new customer and its amount, today and in its hour', async ({ method, merchant, currency, pay }) => {
    const m = merchant();
    const cookie = await login(m);
    const before = (await get(cookie, '/test/overview?period=today')).body;
    const intent = await createIntent(ctx, m, { amount: '4500', currency });
    await pay(intent);
    paidWith[method] = intent.id;
    // The period ends at the clock's now, exclusive: read a moment after the payment.
    ctx.clock.advance(SECOND);
    const after = (await get(cookie, '/test/overview?period=today')).body;
    const [was, is] = [before.current as Figures, after.current as Figures];
    expect(is.payments - was.payments).toBe(1);
    expect(is.attempts - was.attempts).toBe(1);
    expect(is.newCustomers - was.newCustomers).toBe(1);
    expect(amountIn(is, currency) - amountIn(was, currency)).toBe(4500);
    expect(amountIn(after.series[9] as Figures, currency) - amountIn(before.series[9] as Figures, currency)).toBe(4500);
  });

  it('a declined mobile-money attempt counts as an attempt; the rollup of the hour says the same as the live read', async () => {
    ctx.clock.set('2026-11-02T09:40:00Z');
    await payDirect(douala, 'mtn_momo', `+2376770${String(++numbers).padStart(2, '0')}105`, await createIntent(ctx, douala), { expect: 'PENDING' });
    ctx.clock.advance(SECOND);
    let cookie = await login(douala);
    const live = (await get(cookie, '/test/overview?period=today')).body;
    expect(live.current).toEqual({ volume: [{ currency: 'XAF', amount: '13500' }], payments: 3, attempts: 4, successRate: 0.75, newCustomers: 3 });
    ctx.clock.set('2026-11-02T10:30:00Z');
    await rollAll();
    cookie = await login(douala);
    const rolled = (await get(cookie, '/test/overview?period=today')).body;
    expect(rolled.current).toEqual(live.current);
    expect(rolled.series[9]).toEqual(live.series[9]);
    const dakarToday = (await get(await login(dakar), '/test/overview?period=today')).body;
    expect(dakarToday.current).toEqual({ volume: [{ currency: 'XOF', amount: '4500' }], payments: 1, attempts: 1, successRate: 1, newCustomers: 1 });
  });

  it("the payments CSV says how each was paid: fee, net, refunded, method, provider, connector, masked payer, provider's reference", async () => {
    const wallet = paidWith.wallet as string;
    const refunded = await call(ctx.app, 'POST', `/gateway/${wallet}/refunds`, sk(douala), { amount: '1000' });
    expect(refunded.statusCode, refunded.body).toBeLessThan(300);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/dashboard/api/test/payments.csv?createdGte=2026-11-02',
      headers: { cookie: await login(douala) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="caisse-payments-test-2026-11-02_2026-11-02.csv"');
    const rows = new Map((parse(res.body, { columns: true }) as Record<string, string>[]).map((r) => [r.id, r]));
    const attempts = await ctx.deps.db.selectFrom('payment_attempts').select(['intent_id', 'provider_transaction_id', 'phone_number']).execute();
    const attemptOf = (id: string) => attempts.find((a) => a.intent_id === id);
    const masked = (phone: string) => `'+237${'•'.repeat(phone.length - 6)}${phone.slice(-2)}`;
    const ud = users.ud as TestUser;
    expect(rows.get(wallet)).toMatchObject({
      amount: '4500',
      status: 'PARTIALLY_REFUNDED',
      amount_refunded: '1000',
      method: 'wallet',
      provider: '',
      connector: '',
      payer: masked(ud.phoneNumber),
      provider_reference: '',
    });
    for (const [method, provider] of [
      ['mtn_momo', 'mtn_momo'],
      ['orange_money (its redirect)', 'orange_money'],
    ] as const) {
      const id = paidWith[method] as string;
      const attempt = attemptOf(id);
      expect(attempt?.provider_transaction_id).toBeTruthy();
      expect(rows.get(id)).toMatchObject({
        status: 'SUCCEEDED',
        amount_refunded: '0',
        method: 'mobile_money',
        provider,
        connector: provider,
        payer: masked(attempt?.phone_number ?? ''),
        provider_reference: attempt?.provider_transaction_id,
      });
    }
    // Fee and net as the payment's own read says them, in major units as every amount of the file.
    for (const id of [wallet, paidWith.mtn_momo as string]) {
      const read = (await call(ctx.app, 'GET', `/gateway/${id}`, sk(douala))).json() as { fee: string; net: string };
      expect([rows.get(id)?.fee, rows.get(id)?.net]).toEqual([read.fee, read.net]);
      expect(read.fee).not.toBeNull();
    }
    // Dakar's Wave payment is Dakar's alone.
    expect(rows.has(paidWith.wave as string)).toBe(false);
  });
});
