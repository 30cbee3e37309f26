import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { purgeExpired } from '../src/modules/retention/index.ts';
import { charge, authorize, createIntent, expectLedgerClean, newUser, payAt, problem, through, walletMinor } from './flow.support.ts';
import { call, createMerchant, createTestContext, dashboardBrowserOf, dashboardCall, sk, type TestContext, type TestMerchant } from './harness.ts';

/**
 * The operator console's API (issue 34) on the ManualClock: sign-in with TOTP always, roles,
 * the freeze of a merchant and its effect on the API, the platform's money, the audit log.
 */
let ctx: TestContext;
let shop: TestMerchant;
let other: TestMerchant;

interface Browser {
  cookie: string;
  csrf: string;
}

beforeAll(async () => {
  ctx = await createTestContext();
  shop = await createMerchant(ctx, 'Frozen Shop');
  other = await createMerchant(ctx, 'Open Shop');
});
afterAll(() => ctx.close());

function send(method: 'GET' | 'POST', url: string, who?: Browser, body?: unknown): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = who ? { cookie: who.cookie, 'x-csrf-token': who.csrf } : {};
  return ctx.app.inject({ method, url, headers, ...(body !== undefined ? { payload: body as object } : {}) });
}

function browserOf(res: LightMyRequestResponse): Browser {
  expect(res.statusCode, res.body).toBe(200);
  return { cookie: String(res.headers['set-cookie']).split(';')[0] as string, csrf: res.json().csrfToken };
}

function codeAt(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: ctx.clock.now().getTime() + steps * 30 * SECOND });
}

/** An operator made as the CLI makes one, enrolled: its e-mail, password, TOTP secret and a signed-in browser. */
async function operator(role: 'admin' | 'compliance' | 'finance' | 'support') {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@ops.example`;
  const { password } = await ctx.services.operators.createFromCli(email, role);
  const enrolling = browserOf(await send('POST', '/operator/api/login', undefined, { email, password }));
  const { secret } = (await send('POST', '/operator/api/totp', enrolling, {})).json();
  const confirmed = await send('POST', '/operator/api/totp/confirm', enrolling, { code: codeAt(secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  // The next sign-in's code must be of a later step: each code works once.
  ctx.clock.advance(30 * SECOND);
  return { email, password, secret, browser: enrolling };
}

describe('sign-in: TOTP is mandatory', () => {
  it('an operator without TOTP can only enrol; once enrolled, sign-in needs the current code', async () => {
    const email = 'first-admin@ops.example';
    const created = await ctx.services.operators.createFromCli(email);
    expect(created).toMatchObject({ email, role: 'admin', totpEnabled: false });
    expect(created.password.length).toBeGreaterThanOrEqual(16);

    problem(await send('POST', '/operator/api/login', undefined, { email, password: 'wrong-password' }), 401, 'invalid_credentials');
    const enrolling = browserOf(await send('POST', '/operator/api/login', undefined, { email, password: created.password }));
    expect((await send('GET', '/operator/api/session', enrolling)).json()).toMatchObject({
      totpEnrolmentRequired: true,
      permissions: ['account'],
      role: 'admin',
    });
    // Nothing else answers before enrolment, whatever the role.
    problem(await send('GET', '/operator/api/merchants', enrolling), 403, 'totp_required');
    problem(await send('GET', '/operator/api/money', enrolling), 403, 'totp_required');

    const { secret, uri, qrCode } = (await send('POST', '/operator/api/totp', enrolling, {})).json();
    expect(uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    // The URI as a QR code, as the dashboard's enrolment shows it.
    expect(Buffer.from(String(qrCode).replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8')).toMatch(/^<svg[^>]*>.*<path/s);
    problem(await send('POST', '/operator/api/totp/confirm', enrolling, { code: codeAt(secret, 3) }), 400, 'otp_incorrect');
    const confirmed = await send('POST', '/operator/api/totp/confirm', enrolling, { code: codeAt(secret) });
    expect(confirmed.json()).toMatchObject({ totpEnrolmentRequired: false });
    expect((await send('GET', '/operator/api/merchants', enrolling)).statusCode).toBe(200);

    ctx.clock.advance(30 * SECOND);
    problem(await send('POST', '/operator/api/login', undefined, { email, password: created.password }), 403, 'totp_code_required');
    problem(await send('POST', '/operator/api/login', undefined, { email, password: created.password, code: codeAt(secret, 4) }), 401, 'totp_code_invalid');
    const code = codeAt(secret);
    const signedIn = browserOf(await send('POST', '/operator/api/login', undefined, { email, password: created.password, code }));
    expect((await send('GET', '/operator/api/session', signedIn)).json()).toMatchObject({
      totpEnrolmentRequired: false,
      permissions: expect.arrayContaining(['merchants:freeze']),
    });
    // The same code does not open a second session.
    problem(await send('POST', '/operator/api/login', undefined, { email, password: created.password, code }), 401, 'totp_code_reused');
    // No secret in the database in plain text, no session token either.
    const row = await ctx.deps.db.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.totp_secret_encrypted?.toString('latin1')).not.toContain(secret);
  });

  it('operator and dashboard sessions never open each other', async () => {
    const { browser } = await operator('support');
    const dashboard = dashboardBrowserOf(await dashboardCall(ctx.app, 'POST', '/dashboard/api/login', undefined, shop.dashboard));
    problem(await dashboardCall(ctx.app, 'GET', '/dashboard/api/session', browser), 401, 'session_required');
    problem(await send('GET', '/operator/api/session', dashboard), 401, 'session_required');
    // The operator's cookie under the dashboard's name does not help either: other token shape, other table.
    const renamed = { cookie: browser.cookie.replace(/^[^=]+=/, 'caisse_session='), csrf: browser.csrf };
    problem(await dashboardCall(ctx.app, 'GET', '/dashboard/api/session', renamed), 401, 'session_required');
  });

  it('sign-ins are limited per client address, whatever the e-mail', async () => {
    const limited = await createTestContext({ env: { CAISSE_RATE_LIMIT_IP: '2' } });
    try {
      const attempt = (n: number) =>
        limited.app.inject({ method: 'POST', url: '/operator/api/login', payload: { email: `nobody${n}@ops.example`, password: 'wrong-password' } });
      expect((await attempt(1)).statusCode).toBe(401);
      expect((await attempt(2)).statusCode).toBe(401);
      problem(await attempt(3), 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });

  it('a POST without the CSRF token, or from another site, is refused', async () => {
    const { browser } = await operator('compliance');
    problem(
      await send('POST', `/operator/api/merchants/${other.merchantId}/freeze`, { cookie: browser.cookie, csrf: 'nope' }, { reason: 'test' }),
      403,
      'csrf_token_invalid',
    );
    const crossSite = await ctx.app.inject({
      method: 'POST',
      url: `/operator/api/merchants/${other.merchantId}/freeze`,
      headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrf, 'sec-fetch-site': 'cross-site' },
      payload: { reason: 'test' },
    });
    problem(crossSite, 403, 'csrf_token_invalid');
  });

  it('an idle session ends after 15 minutes, and retention deletes it', async () => {
    const { browser } = await operator('support');
    ctx.clock.advance(16 * MINUTE);
    problem(await send('GET', '/operator/api/session', browser), 401, 'session_required');
    expect((await purgeExpired(ctx.deps, ctx.services)).operatorSessions).toBeGreaterThanOrEqual(1);
    const left = await ctx.deps.db.selectFrom('operator_sessions').select('id').where('expires_at', '<=', ctx.clock.now()).execute();
    expect(left).toEqual([]);
  });
});

describe('roles', () => {
  it('each role gets what its table grants and a 403 naming the missing permission otherwise', async () => {
    const support = (await operator('support')).browser;
    const finance = (await operator('finance')).browser;
    const body = problem(await send('POST', `/operator/api/merchants/${shop.merchantId}/freeze`, support, { reason: 'looks wrong' }), 403, 'permission_denied');
    expect(body).toMatchObject({ role: 'support', permission: 'merchants:freeze' });
    expect((await send('GET', `/operator/api/merchants/${shop.merchantId}`, support)).statusCode).toBe(200);
    problem(await send('GET', '/operator/api/money', support), 403, 'permission_denied');
    problem(await send('GET', '/operator/api/audit', finance), 403, 'permission_denied');
    expect((await send('GET', '/operator/api/money', finance)).statusCode).toBe(200);
    problem(await send('POST', '/operator/api/operators', finance, { email: 'x@ops.example', role: 'admin' }), 403, 'permission_denied');
    // The refused freeze changed nothing.
    expect((await send('GET', `/operator/api/merchants/${shop.merchantId}`, support)).json().frozen).toBeNull();
  });

  it('an admin invites an operator, who signs in with the password given once and enrols', async () => {
    const admin = (await operator('admin')).browser;
    const invited = await send('POST', '/operator/api/operators', admin, { email: 'invited@ops.example', role: 'finance' });
    expect(invited.statusCode, invited.body).toBe(201);
    const { password } = invited.json();
    const session = browserOf(await send('POST', '/operator/api/login', undefined, { email: 'invited@ops.example', password }));
    expect((await send('GET', '/operator/api/session', session)).json()).toMatchObject({ role: 'finance', totpEnrolmentRequired: true });
    problem(await send('POST', '/operator/api/operators', admin, { email: 'INVITED@ops.example', role: 'support' }), 409, 'already_exists');
    const list = (await send('GET', '/operator/api/operators', admin)).json();
    expect(list.data).toEqual(expect.arrayContaining([expect.objectContaining({ email: 'invited@ops.example', role: 'finance', totpEnabled: false })]));
  });
});

describe('merchants: search and freeze', () => {
  it('finds a merchant by name, id or e-mail, and shows its page', async () => {
    const { browser } = await operator('support');
    const byName = (await send('GET', '/operator/api/merchants?q=frozen%20sh', browser)).json();
    expect(byName.data.map((m: { id: string }) => m.id)).toEqual([shop.merchantId]);
    expect((await send('GET', `/operator/api/merchants?q=${shop.merchantId}`, browser)).json().data).toHaveLength(1);
    expect((await send('GET', `/operator/api/merchants?q=${encodeURIComponent(shop.dashboard.email.slice(0, 10))}`, browser)).json().data[0].id).toBe(
      shop.merchantId,
    );
    expect((await send('GET', '/operator/api/merchants?q=%25', browser)).json().data).toEqual([]);
    const page = (await send('GET', `/operator/api/merchants/${shop.merchantId}`, browser)).json();
    expect(page).toMatchObject({ id: shop.merchantId, name: 'Frozen Shop', country: 'CM', keys: { test: 2, live: 2 }, frozen: null });
    problem(await send('GET', '/operator/api/merchants/mch_nope', browser), 404, 'not_found');
  });

  it("a frozen merchant's new intents, charges and payouts are refused in both modes; its customer still pays another merchant", async () => {
    const compliance = (await operator('compliance')).browser;
    const customer = await newUser(ctx, shop, { balance: '20000' });
    const pending = await createIntent(ctx, shop, { amount: '1000' });
    const link = (await call(ctx.app, 'POST', '/payment-links', sk(shop), { amount: '1500', currency: 'XAF', description: 'T-shirt' })).json() as {
      id: string;
    };
    // Keys warm in the cache: the freeze must still apply at once.
    expect((await call(ctx.app, 'GET', '/gateway', sk(shop))).statusCode).toBe(200);

    const frozen = await send('POST', `/operator/api/merchants/${shop.merchantId}/freeze`, compliance, { reason: 'Suspicious refunds' });
    expect(frozen.statusCode, frozen.body).toBe(200);
    expect(frozen.json().frozen).toMatchObject({ reason: 'Suspicious refunds' });

    problem(await call(ctx.app, 'POST', '/gateway', sk(shop), { amount: '1000', currency: 'XAF' }), 403, 'merchant_frozen');
    problem(
      await call(ctx.app, 'POST', '/gateway', { apiKey: shop.live.apiKey, secretKey: shop.live.secretKey }, { amount: '1000', currency: 'XAF' }),
      403,
      'merchant_frozen',
    );
    problem(await charge(ctx, customer, pending.id, await authorize(ctx, shop, customer, pending.id)), 403, 'merchant_frozen');
    problem(
      await call(ctx.app, 'POST', '/payouts', sk(shop), {
        amount: '100',
        currency: 'XAF',
        destination: { provider: 'mtn_momo', phoneNumber: '+237650000000' },
      }),
      403,
      'merchant_frozen',
    );
    // Its payment links open nothing (as an inactive link).
    expect((await ctx.app.inject({ method: 'GET', url: `/pay/${link.id}` })).statusCode).toBe(410);
    // Reading goes on.
    expect((await call(ctx.app, 'GET', `/gateway/${pending.id}`, sk(shop))).statusCode).toBe(200);

    // The customer's wallet is untouched and pays another merchant.
    expect(await walletMinor(ctx, customer.id)).toBe(20000n);
    ctx.clock.advance(MINUTE); // the one-time codes' resend delay
    await payAt(ctx, other, await through(ctx, other, customer), '3000');
    expect(await walletMinor(ctx, customer.id)).toBe(17000n);

    const unfrozen = await send('POST', `/operator/api/merchants/${shop.merchantId}/unfreeze`, compliance, { reason: 'Explained by the merchant' });
    expect(unfrozen.json().frozen).toBeNull();
    expect((await call(ctx.app, 'POST', '/gateway', sk(shop), { amount: '1000', currency: 'XAF' })).statusCode).toBe(201);
    expect((await ctx.app.inject({ method: 'GET', url: `/pay/${link.id}` })).statusCode).not.toBe(410);
    problem(await send('POST', `/operator/api/merchants/${shop.merchantId}/freeze`, compliance, { reason: '   ' }), 400, 'validation_error');
    await expectLedgerClean(ctx);
  });
});

describe('money', () => {
  it("the totals are the ledger's accounts summed per kind, mode and currency, and the check runs on demand", async () => {
    const finance = (await operator('finance')).browser;
    await newUser(ctx, other, { balance: '5000' });
    const money = (await send('GET', '/operator/api/money', finance)).json();
    const rows = await ctx.deps.db.selectFrom('ledger_accounts').select(['kind', 'mode', 'currency', 'balance']).execute();
    const expected = new Map<string, bigint>();
    for (const r of rows) expected.set(`${r.kind} ${r.mode} ${r.currency}`, (expected.get(`${r.kind} ${r.mode} ${r.currency}`) ?? 0n) + BigInt(r.balance));
    const got = new Map<string, bigint>(
      money.totals.map((t: { kind: string; mode: string; currency: string; minor: string }) => [`${t.kind} ${t.mode} ${t.currency}`, BigInt(t.minor)]),
    );
    expect(got).toEqual(expected);
    const wallets = money.totals.find((t: { kind: string; mode: string }) => t.kind === 'user_wallet' && t.mode === 'test');
    expect(BigInt(wallets.minor)).toBeGreaterThan(0n);
    // Double entry: every currency's accounts sum to zero.
    const perCurrency = new Map<string, bigint>();
    for (const [k, v] of got) perCurrency.set(k.split(' ').slice(1).join(' '), (perCurrency.get(k.split(' ').slice(1).join(' ')) ?? 0n) + v);
    for (const v of perCurrency.values()) expect(v).toBe(0n);

    const verified = await send('POST', '/operator/api/ledger/verify', finance, {});
    expect(verified.json()).toMatchObject({ object: 'ledger_verification', ok: true, differences: [] });
  });
});

describe('audit log', () => {
  it('records every operator action with actor, target, before and after', async () => {
    const admin = await operator('admin');
    const compliance = await operator('compliance');
    await send('POST', `/operator/api/merchants/${other.merchantId}/freeze`, compliance.browser, { reason: 'KYC expired' });
    await send('POST', `/operator/api/merchants/${other.merchantId}/unfreeze`, compliance.browser, { reason: 'KYC renewed' });
    const log = (await send('GET', `/operator/api/audit?targetId=${other.merchantId}`, admin.browser)).json();
    expect(log.data).toEqual([
      expect.objectContaining({
        action: 'merchant.unfrozen',
        actor: expect.objectContaining({ email: compliance.email }),
        before: expect.objectContaining({ frozen: true, reason: 'KYC expired' }),
        after: { frozen: false },
        reason: 'KYC renewed',
      }),
      expect.objectContaining({
        action: 'merchant.frozen',
        targetType: 'merchant',
        targetId: other.merchantId,
        before: { frozen: false },
        after: expect.objectContaining({ frozen: true }),
        reason: 'KYC expired',
      }),
    ]);
    const all = (await send('GET', '/operator/api/audit?limit=100', admin.browser)).json();
    const actions = all.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['operator.created', 'operator.signed_in', 'operator.totp_enabled', 'ledger.verified']));
    const signIn = all.data.find((e: { action: string; actor: { email: string } }) => e.action === 'operator.signed_in' && e.actor.email === compliance.email);
    expect(signIn.after).toMatchObject({ stage: 'enrol', address: expect.any(String) });
    const page = (await send('GET', '/operator/api/audit?limit=1', admin.browser)).json();
    expect(page.hasMore).toBe(true);
    const next = (await send('GET', `/operator/api/audit?limit=1&startingAfter=${page.data[0].id}`, admin.browser)).json();
    expect(next.data[0].id).not.toBe(page.data[0].id);
  });
});
