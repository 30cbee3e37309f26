import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import Fastify, { type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MomoSandbox } from '../src/modules/connectors/mtn-momo/mtn-momo.sandbox.ts';
import { LOGIN_WINDOW_MS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../src/modules/dashboard/dashboard.service.ts';
import registerPages, { renderCheckout } from '../src/modules/dashboard/dashboard.pages.ts';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { appWithSandbox } from './connectors.support.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser } from './flow.support.ts';
import { call, createMerchant, setTotpEnrolled, sk, type TestContext, type TestMerchant } from './harness.ts';

/**
 * The dashboard's own API (/dashboard/api) over HTTP: sign-in, the session cookie, lockout on the
 * ManualClock, CSRF refusals, session expiry, and that a session sees only its merchant's objects
 * in the mode it names; the balance statement, its CSV and payouts (through the MoMo sandbox, a
 * real HTTP server on the same ManualClock). The pages themselves are driven in a real browser by
 * packages/dashboard.
 */
let ctx: TestContext;
let sandbox: MomoSandbox;

interface Account {
  merchantId: string;
  email: string;
  password: string;
  apiKey: string;
  secretKey: string;
}

async function account(name: string): Promise<Account> {
  const email = `${name.toLowerCase()}-${randomBytes(3).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const created = await ctx.services.merchants.createMerchant({ name, email, dashboardPassword: password });
  return { merchantId: created.merchantId, email, password, apiKey: created.test.apiKey, secretKey: created.test.secretKey };
}

interface Browser {
  cookie: string;
  csrf: string;
}

function send(
  method: InjectOptions['method'],
  url: string,
  who?: Browser | { cookie: string; csrf?: string },
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const h: Record<string, string> = { ...headers };
  if (who?.cookie) h.cookie = who.cookie;
  if (who?.csrf) h['x-csrf-token'] = who.csrf;
  return ctx.app.inject({ method, url, headers: h, ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}) });
}

/** Signs in with the password, then marks the owner enrolled in TOTP so live mode is open (dashboard.account.test.ts tests TOTP itself). */
async function login(a: { email: string; password: string }): Promise<Browser> {
  await setTotpEnrolled(ctx, a.email, false);
  const res = await send('POST', '/dashboard/api/login', undefined, { email: a.email, password: a.password });
  expect(res.statusCode, res.body).toBe(200);
  await setTotpEnrolled(ctx, a.email, true);
  const setCookie = String(res.headers['set-cookie']);
  return { cookie: setCookie.split(';')[0] as string, csrf: res.json().csrfToken };
}

function expectProblem(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json()).toMatchObject({ status, code, type: `/errors/${code}` });
  return res.json() as Record<string, unknown>;
}

let a: Account;
let b: Account;

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithSandbox());
  a = await account('Alpha');
  b = await account('Beta');
});
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

describe('sign-in and the session cookie', () => {
  it('signs in with e-mail and password: an HttpOnly SameSite=Strict cookie and the session with its CSRF token', async () => {
    const res = await send('POST', '/dashboard/api/login', undefined, { email: a.email.toUpperCase(), password: a.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ object: 'dashboard_session', email: a.email, merchant: { id: a.merchantId, name: 'Alpha' } });
    expect(body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^caisse_session=ds_[0-9A-Za-z]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain(`Max-Age=${SESSION_ABSOLUTE_MS / 1000}`);
    // Development serves plain HTTP on loopback: a Secure cookie would not be kept there.
    expect(cookie).not.toContain('Secure');
    expect(res.headers['cache-control']).toBe('no-store');

    const token = cookie.split(';')[0]?.split('=')[1] as string;
    const stored = await ctx.deps.db.selectFrom('dashboard_sessions').selectAll().execute();
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) expect(row.token_hash.toString('latin1')).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);

    const session = await send('GET', '/dashboard/api/session', { cookie: cookie.split(';')[0] as string });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toEqual(body);
  });

  it('one answer for a wrong password and an unknown e-mail; nothing works without a session', async () => {
    const wrong = expectProblem(await send('POST', '/dashboard/api/login', undefined, { email: b.email, password: 'nope' }), 401, 'invalid_credentials');
    const unknown = expectProblem(
      await send('POST', '/dashboard/api/login', undefined, { email: 'nobody@example.com', password: 'nope' }),
      401,
      'invalid_credentials',
    );
    expect(wrong.detail).toBe(unknown.detail);
    expect(await send('GET', '/dashboard/api/session')).toSatisfy((r: LightMyRequestResponse) => r.statusCode === 401);
    expectProblem(await send('GET', '/dashboard/api/test/payments'), 401, 'session_required');
    expectProblem(
      await send('GET', '/dashboard/api/test/keys', { cookie: 'caisse_session=ds_forgedforgedforgedforgedforgedforgedforged1' }),
      401,
      'session_required',
    );
    expectProblem(await send('POST', '/dashboard/api/login', undefined, { email: a.email, password: a.password, extra: 1 }), 400, 'parameter_unknown');
    // The session routes never take API keys instead.
    expectProblem(await call(ctx.app, 'GET', '/dashboard/api/test/keys', { apiKey: a.apiKey, secretKey: a.secretKey }), 401, 'session_required');
  });

  it('locks an e-mail after 5 failures in 15 minutes (429 login_locked with Retry-After), on the injected clock', async () => {
    const c = await account('Gamma');
    for (let i = 0; i < 5; i++) {
      expectProblem(await send('POST', '/dashboard/api/login', undefined, { email: c.email, password: `wrong-${i}` }), 401, 'invalid_credentials');
      ctx.clock.advance(10 * SECOND);
    }
    // Even the right password is refused while locked.
    const locked = await send('POST', '/dashboard/api/login', undefined, { email: c.email, password: c.password });
    expectProblem(locked, 429, 'login_locked');
    // The first failure ages out 15 minutes after it was made: 50 s have passed since.
    expect(Number(locked.headers['retry-after'])).toBe(LOGIN_WINDOW_MS / 1000 - 50);
    ctx.clock.advance((LOGIN_WINDOW_MS / 1000 - 51) * SECOND);
    expectProblem(await send('POST', '/dashboard/api/login', undefined, { email: c.email, password: c.password }), 429, 'login_locked');
    ctx.clock.advance(2 * SECOND);
    await login(c);
    // A success forgets the failures.
    for (let i = 0; i < 4; i++)
      expectProblem(await send('POST', '/dashboard/api/login', undefined, { email: c.email, password: 'wrong' }), 401, 'invalid_credentials');
    await login(c);
  });

  it("locks the stranger's address, not the owner's elsewhere (issue 20)", async () => {
    const c = await account('Kappa');
    const from = (address: string, password: string) =>
      ctx.app.inject({ method: 'POST', url: '/dashboard/api/login', remoteAddress: address, payload: { email: c.email, password } });
    for (let i = 0; i < 5; i++) expectProblem(await from('203.0.113.9', `wrong-${i}`), 401, 'invalid_credentials');
    expectProblem(await from('203.0.113.9', c.password), 429, 'login_locked');
    expect((await from('198.51.100.30', c.password)).statusCode).toBe(200);
  });

  it('locks unknown e-mail addresses the same way, so the lockout tells nothing about accounts', async () => {
    const email = `ghost-${randomBytes(3).toString('hex')}@example.com`;
    for (let i = 0; i < 5; i++) expectProblem(await send('POST', '/dashboard/api/login', undefined, { email, password: 'x' }), 401, 'invalid_credentials');
    expectProblem(await send('POST', '/dashboard/api/login', undefined, { email, password: 'x' }), 429, 'login_locked');
    ctx.clock.advance(LOGIN_WINDOW_MS);
  });

  it('ends a session after 30 idle minutes, keeps a used one alive, and ends every session 12 hours after sign-in', async () => {
    const idle = await login(a);
    ctx.clock.advance(SESSION_IDLE_MS - SECOND);
    expect((await send('GET', '/dashboard/api/session', idle)).statusCode).toBe(200);
    ctx.clock.advance(SESSION_IDLE_MS - SECOND);
    // Used 29:59 ago: still alive.
    expect((await send('GET', '/dashboard/api/session', idle)).statusCode).toBe(200);
    ctx.clock.advance(SESSION_IDLE_MS);
    const expired = await send('GET', '/dashboard/api/session', idle);
    expectProblem(expired, 401, 'session_required');
    // The dead cookie is cleared.
    expect(String(expired.headers['set-cookie'])).toMatch(/^caisse_session=;.*Max-Age=0/);

    const busy = await login(a);
    const start = ctx.clock.now().getTime();
    while (ctx.clock.now().getTime() - start < SESSION_ABSOLUTE_MS - 20 * MINUTE) {
      ctx.clock.advance(20 * MINUTE);
      expect((await send('GET', '/dashboard/api/session', busy)).statusCode).toBe(200);
    }
    ctx.clock.advance(20 * MINUTE);
    expectProblem(await send('GET', '/dashboard/api/session', busy), 401, 'session_required');

    // The next sign-in clears the user's dead sessions away.
    await login(a);
    const now = ctx.clock.now();
    const dead = await ctx.deps.db
      .selectFrom('dashboard_sessions')
      .innerJoin('dashboard_users', 'dashboard_users.id', 'dashboard_sessions.dashboard_user_id')
      .select('token_hash')
      .where('dashboard_users.email', '=', a.email)
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('absolute_expires_at', '<=', now)]))
      .execute();
    expect(dead).toEqual([]);
  });

  it('signs out: the session ends and the cookie is cleared', async () => {
    const s = await login(a);
    const res = await send('POST', '/dashboard/api/logout', s);
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/^caisse_session=;.*Max-Age=0/);
    expectProblem(await send('GET', '/dashboard/api/session', s), 401, 'session_required');
  });
});

describe('CSRF', () => {
  it("refuses a state-changing request without the session's CSRF token, with another session's, or from another site", async () => {
    const s = await login(a);
    const other = await login(b);
    const body = { name: 'csrf probe', kind: 'publishable' };
    expectProblem(await send('POST', '/dashboard/api/test/keys', { cookie: s.cookie }, body), 403, 'csrf_token_invalid');
    expectProblem(await send('POST', '/dashboard/api/test/keys', { cookie: s.cookie, csrf: 'x'.repeat(43) }, body), 403, 'csrf_token_invalid');
    expectProblem(await send('POST', '/dashboard/api/test/keys', { cookie: s.cookie, csrf: other.csrf }, body), 403, 'csrf_token_invalid');
    expectProblem(await send('POST', '/dashboard/api/logout', { cookie: s.cookie }), 403, 'csrf_token_invalid');
    expectProblem(await send('DELETE', '/dashboard/api/test/webhook-endpoints/we_x', { cookie: s.cookie }), 403, 'csrf_token_invalid');
    // The right token, but the browser says another site sent it.
    expectProblem(await send('POST', '/dashboard/api/test/keys', s, body, { 'sec-fetch-site': 'cross-site' }), 403, 'csrf_token_invalid');
    expectProblem(await send('POST', '/dashboard/api/test/keys', s, body, { origin: 'https://evil.example' }), 403, 'csrf_token_invalid');
    // Sign-in itself: no cross-site login either.
    expectProblem(
      await send('POST', '/dashboard/api/login', undefined, { email: a.email, password: a.password }, { 'sec-fetch-site': 'cross-site' }),
      403,
      'csrf_token_invalid',
    );
    // Nothing was created by the refused requests.
    expect((await send('GET', '/dashboard/api/test/keys', s)).json().data.map((k: { name: string }) => k.name)).not.toContain('csrf probe');
    // Same origin and the token: accepted.
    const ok = await send('POST', '/dashboard/api/test/keys', s, body, {
      origin: 'http://localhost:80',
      host: 'localhost:80',
      'sec-fetch-site': 'same-origin',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    // Reads need no token.
    expect((await send('GET', '/dashboard/api/test/keys', { cookie: s.cookie })).statusCode).toBe(200);
  });
});

describe('API keys from the dashboard', () => {
  it('creates a key shown once, rolls it with a chosen grace period, revokes it, and shows last use', async () => {
    let s = await login(a);
    const pkRes = await send('POST', '/dashboard/api/test/keys', s, { name: 'Web shop', kind: 'publishable' });
    expect(pkRes.statusCode).toBe(201);
    const created = pkRes.json();
    expect(created).toMatchObject({ object: 'api_key', kind: 'publishable', mode: 'test', name: 'Web shop', lastUsedAt: null, revokedAt: null });
    expect(created.secret).toMatch(/^pk_test_[0-9A-Za-z]+$/);
    const skRes = await send('POST', '/dashboard/api/test/keys', s, { name: 'Server', kind: 'secret' });
    const secret = skRes.json().secret as string;
    expect(secret).toMatch(/^sk_test_/);

    // The list never shows a key in full.
    const listed = await send('GET', '/dashboard/api/test/keys', s);
    expect(listed.body).not.toContain(created.secret);
    expect(listed.json().data.every((k: { mode: string }) => k.mode === 'test')).toBe(true);

    // The new keys work against the API, and their last use shows.
    expect((await call(ctx.app, 'GET', '/gateway', { apiKey: created.secret, secretKey: secret })).statusCode).toBe(200);
    const afterUse = (await send('GET', '/dashboard/api/test/keys', s)).json().data.find((k: { id: string }) => k.id === created.id);
    expect(afterUse.lastUsedAt).toBe(ctx.clock.now().toISOString());

    // Roll with one hour of grace: both work, then only the new one.
    const rolled = await send('POST', `/dashboard/api/test/keys/${created.id}/roll`, s, { graceSeconds: 3600 });
    expect(rolled.statusCode).toBe(200);
    const { old, new: fresh } = rolled.json();
    expect(old.expiresAt).toBe(new Date(ctx.clock.now().getTime() + 3600 * SECOND).toISOString());
    expect(fresh.secret).toMatch(/^pk_test_/);
    expect((await call(ctx.app, 'GET', '/gateway', { apiKey: created.secret, secretKey: secret })).statusCode).toBe(200);
    ctx.clock.advance(3600 * SECOND);
    expect(expectProblem(await call(ctx.app, 'GET', '/gateway', { apiKey: created.secret, secretKey: secret }), 401, 'api_key_invalid').reason).toBe('expired');
    expect((await call(ctx.app, 'GET', '/gateway', { apiKey: fresh.secret, secretKey: secret })).statusCode).toBe(200);
    // An hour later the session has ended (30 idle minutes): sign in again.
    s = await login(a);
    expectProblem(await send('POST', `/dashboard/api/test/keys/${created.id}/roll`, s, { graceSeconds: 8 * 24 * 3600 }), 400, 'validation_error');

    const revoked = await send('POST', `/dashboard/api/test/keys/${fresh.id}/revoke`, s);
    expect(revoked.json().revokedAt).toBe(ctx.clock.now().toISOString());
    expect(expectProblem(await call(ctx.app, 'GET', '/gateway', { apiKey: fresh.secret, secretKey: secret }), 401, 'api_key_invalid').reason).toBe('revoked');

    // Live keys are made on the live side only.
    const live = await send('POST', '/dashboard/api/live/keys', s, { name: 'Live shop', kind: 'publishable' });
    expect(live.json().secret).toMatch(/^pk_live_/);
    expectProblem(await send('POST', `/dashboard/api/test/keys/${live.json().id}/revoke`, s), 404, 'not_found');
    expectProblem(await send('GET', '/dashboard/api/staging/keys', s), 400, 'validation_error');
  });
});

describe('a session sees its own merchant only, in the mode it names', () => {
  it("another merchant's payments, keys and endpoints are 404; test and live never mix", async () => {
    const sa = await login(a);
    const sb = await login(b);
    const intent = (
      await call(ctx.app, 'POST', '/gateway', { apiKey: b.apiKey, secretKey: b.secretKey }, { amount: '5000', currency: 'XAF', description: 'B only' })
    ).json();
    const bKeys = (await send('GET', '/dashboard/api/test/keys', sb)).json().data as { id: string }[];
    const bEndpoint = (await send('POST', '/dashboard/api/test/webhook-endpoints', sb, { url: 'https://b.example.com/hook' })).json();
    expect(bEndpoint.id).toMatch(/^we_/);

    expect((await send('GET', `/dashboard/api/test/payments/${intent.id}`, sb)).statusCode).toBe(200);
    expectProblem(await send('GET', `/dashboard/api/test/payments/${intent.id}`, sa), 404, 'not_found');
    expectProblem(await send('POST', `/dashboard/api/test/payments/${intent.id}/cancel`, sa), 404, 'not_found');
    expectProblem(await send('GET', `/dashboard/api/live/payments/${intent.id}`, sb), 404, 'not_found');
    expect((await send('GET', '/dashboard/api/test/payments', sa)).json().data.map((p: { id: string }) => p.id)).not.toContain(intent.id);
    expect((await send('GET', '/dashboard/api/live/payments', sb)).json().data).toEqual([]);

    for (const key of bKeys) {
      expectProblem(await send('POST', `/dashboard/api/test/keys/${key.id}/revoke`, sa), 404, 'not_found');
      expectProblem(await send('POST', `/dashboard/api/test/keys/${key.id}/roll`, sa, { graceSeconds: 0 }), 404, 'not_found');
    }
    expect((await send('GET', '/dashboard/api/test/keys', sa)).json().data.map((k: { id: string }) => k.id)).not.toContain(bKeys[0]?.id);

    expectProblem(await send('POST', `/dashboard/api/test/webhook-endpoints/${bEndpoint.id}/reveal-secret`, sa), 404, 'not_found');
    expectProblem(await send('PATCH', `/dashboard/api/test/webhook-endpoints/${bEndpoint.id}`, sa, { enabled: false }), 404, 'not_found');
    expectProblem(await send('DELETE', `/dashboard/api/test/webhook-endpoints/${bEndpoint.id}`, sa), 404, 'not_found');
    expectProblem(await send('GET', `/dashboard/api/live/webhook-endpoints/${bEndpoint.id}/deliveries`, sb), 404, 'not_found');
    expect((await send('GET', '/dashboard/api/test/webhook-endpoints', sa)).json().data.map((e: { id: string }) => e.id)).not.toContain(bEndpoint.id);
    expect((await send('GET', '/dashboard/api/live/webhook-endpoints', sb)).json().data).toEqual([]);
  });
});

describe('payments, webhooks, balance and test data', () => {
  it('lists payments by status and creation date, newest first', async () => {
    const c = await account('Delta');
    const creds = { apiKey: c.apiKey, secretKey: c.secretKey };
    const day1 = ctx.clock.now();
    const first = (await call(ctx.app, 'POST', '/gateway', creds, { amount: '1000', currency: 'XAF' })).json();
    ctx.clock.advance(24 * 60 * MINUTE);
    const day2 = ctx.clock.now();
    const second = (await call(ctx.app, 'POST', '/gateway', creds, { amount: '2000', currency: 'XAF' })).json();
    await call(ctx.app, 'POST', `/gateway/${second.id}/cancel`, creds, {});
    ctx.clock.advance(MINUTE);
    const third = (await call(ctx.app, 'POST', '/gateway', creds, { amount: '3000', currency: 'XAF' })).json();
    const s = await login(c);
    const ids = async (q: string) => (await send('GET', `/dashboard/api/test/payments${q}`, s)).json().data.map((p: { id: string }) => p.id);

    expect(await ids('')).toEqual([third.id, second.id, first.id]);
    expect(await ids('?status=CANCELED')).toEqual([second.id]);
    // The first one read EXPIRED a day later (30 minutes' validity).
    expect(await ids('?status=PENDING')).toEqual([third.id]);
    expect(await ids('?status=EXPIRED')).toEqual([first.id]);
    expect(await ids(`?createdGte=${encodeURIComponent(day2.toISOString())}`)).toEqual([third.id, second.id]);
    expect(await ids(`?createdLt=${encodeURIComponent(day2.toISOString())}`)).toEqual([first.id]);
    expect(
      await ids(`?createdGte=${encodeURIComponent(day1.toISOString())}&createdLt=${encodeURIComponent(new Date(day2.getTime() + 1).toISOString())}`),
    ).toEqual([second.id, first.id]);
    const page = (await send('GET', `/dashboard/api/test/payments?limit=1&createdGte=${encodeURIComponent(day2.toISOString())}`, s)).json();
    expect(page.data.map((p: { id: string }) => p.id)).toEqual([third.id]);
    expect(page.hasMore).toBe(true);
    const next = (
      await send('GET', `/dashboard/api/test/payments?limit=1&startingAfter=${second.id}&createdGte=${encodeURIComponent(day2.toISOString())}`, s)
    ).json();
    expect(next).toMatchObject({ data: [], hasMore: false });
    expectProblem(await send('GET', '/dashboard/api/test/payments?createdGte=yesterday', s), 400, 'validation_error');
    // Issue 20: ISO 8601 dates and date-times only; Date's lenient reading is not used.
    for (const bad of [
      "' OR '1'='1",
      '1',
      '2026',
      '2026-02-30',
      '2026-13-01',
      '2026-11-01T25:00:00Z',
      '2026-11-01T10:00:00',
      'Sun Nov 01 2026',
      '2026-11-01T10:00:00+2',
      '2026-11-01T23:59:60Z',
    ]) {
      for (const param of ['createdGte', 'createdLt']) {
        const body = expectProblem(await send('GET', `/dashboard/api/test/payments?${param}=${encodeURIComponent(bad)}`, s), 400, 'validation_error');
        expect(body.param, bad).toBe(param);
      }
    }
    const midnight = day2.toISOString().slice(0, 10);
    expect(await ids(`?createdLt=${midnight}`)).toEqual(await ids(`?createdLt=${encodeURIComponent(`${midnight}T00:00:00.000Z`)}`));
    expect(await ids(`?createdGte=${encodeURIComponent(day2.toISOString().replace('Z', '+00:00'))}`)).toEqual([third.id, second.id]);
  });

  it("downloads the payments of the list's filters as CSV: metadata as JSON, formulas defused, own merchant and mode only", async () => {
    const c = await account('Kappa');
    const creds = { apiKey: c.apiKey, secretKey: c.secretKey };
    const day1 = ctx.clock.now();
    const first = (
      await call(ctx.app, 'POST', '/gateway', creds, {
        amount: '1000',
        currency: 'XAF',
        description: '=HYPERLINK("http://evil")',
        metadata: { order: 'A-7', note: 'a, "quoted"\nline' },
      })
    ).json();
    ctx.clock.advance(24 * 60 * MINUTE);
    const day2 = ctx.clock.now();
    const second = (await call(ctx.app, 'POST', '/gateway', creds, { amount: '2500', currency: 'XAF', description: 'Shoes' })).json();
    await call(ctx.app, 'POST', `/gateway/${second.id}/cancel`, creds, {});
    // Another merchant's payment, at the same time: never in Kappa's file.
    const other = (await call(ctx.app, 'POST', '/gateway', { apiKey: b.apiKey, secretKey: b.secretKey }, { amount: '9000', currency: 'XAF' })).json();
    const s = await login(c);
    const rows = async (q: string) => {
      const res = await send('GET', `/dashboard/api/test/payments.csv${q}`, s);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.body.split('\r\n')[0]).toBe(
        'id,created_at,amount,currency,status,description,metadata,fee,net,amount_refunded,method,provider,connector,provider_account,payer,provider_reference,amount_refunded_outside',
      );
      return parse(res.body, { columns: true }) as Record<string, string>[];
    };

    const all = await rows('');
    expect(all.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(all.map((r) => r.id)).not.toContain(other.id);
    expect(all[0]).toEqual({
      id: second.id,
      created_at: second.createdAt,
      amount: '2500',
      currency: 'XAF',
      status: 'CANCELED',
      description: 'Shoes',
      metadata: '{}',
      fee: '',
      net: '',
      amount_refunded: '0',
      method: '',
      provider: '',
      // No direct mobile-money attempt: no connector, no provider account.
      connector: '',
      provider_account: '',
      payer: '',
      provider_reference: '',
      amount_refunded_outside: '0',
    });
    expect(all[1]).toMatchObject({ id: first.id, status: 'EXPIRED', description: `'=HYPERLINK("http://evil")` });
    expect(JSON.parse(all[1]?.metadata ?? '')).toEqual({ order: 'A-7', note: 'a, "quoted"\nline' });

    expect((await rows('?status=CANCELED')).map((r) => r.id)).toEqual([second.id]);
    expect((await rows(`?createdGte=${encodeURIComponent(day2.toISOString())}`)).map((r) => r.id)).toEqual([second.id]);
    expect((await rows(`?createdLt=${encodeURIComponent(day2.toISOString())}`)).map((r) => r.id)).toEqual([first.id]);
    expect(
      (await rows(`?createdGte=${encodeURIComponent(day1.toISOString())}&createdLt=${encodeURIComponent(day2.toISOString())}&status=EXPIRED`)).map((r) => r.id),
    ).toEqual([first.id]);
    const named = await send('GET', `/dashboard/api/test/payments.csv?createdGte=${day1.toISOString().slice(0, 10)}`, s);
    // The period in the name: the start as written, up to today without an end; an end at midnight is the day before.
    const today = ctx.clock.now().toISOString().slice(0, 10);
    expect(named.headers['content-disposition']).toBe(`attachment; filename="caisse-payments-test-${day1.toISOString().slice(0, 10)}_${today}.csv"`);
    const period = await send(
      'GET',
      `/dashboard/api/test/payments.csv?createdGte=${encodeURIComponent('2026-11-01T00:00:00+01:00')}&createdLt=${encodeURIComponent('2026-11-29T00:00:00+01:00')}`,
      s,
    );
    expect(period.headers['content-disposition']).toBe('attachment; filename="caisse-payments-test-2026-11-01_2026-11-28.csv"');
    const until = await send('GET', `/dashboard/api/test/payments.csv?createdLt=${encodeURIComponent('2026-11-28T15:00:00Z')}`, s);
    expect(until.headers['content-disposition']).toBe('attachment; filename="caisse-payments-test-until-2026-11-28.csv"');

    // Live mode has its own payments (none); another session sees only its own.
    expect(parse((await send('GET', '/dashboard/api/live/payments.csv', s)).body, { columns: true })).toEqual([]);
    const sb = await login(b);
    const bRows = parse((await send('GET', '/dashboard/api/test/payments.csv', sb)).body, { columns: true }) as Record<string, string>[];
    expect(bRows.map((r) => r.id)).toContain(other.id);
    expect(bRows.map((r) => r.id)).not.toContain(first.id);

    // A line break and a full-width formula: the field is quoted, the formula defused on every line.
    ctx.clock.advance(MINUTE);
    const forged = (await call(ctx.app, 'POST', '/gateway', creds, { amount: '3000', currency: 'XAF', description: 'Bag\n=1+1\r\n\uFF0BSUM(A1)' })).json();
    const newest = (await send('GET', '/dashboard/api/test/payments.csv', s)).body.split('\r\n')[1];
    expect(newest).toBe(`${forged.id},${forged.createdAt},3000,XAF,PENDING,"Bag\n'=1+1`);
    expect((await rows('?status=PENDING'))[0]?.description).toBe("Bag\n'=1+1\r\n'\uFF0BSUM(A1)");

    expectProblem(await send('GET', '/dashboard/api/test/payments.csv?createdGte=2026-02-30', s), 400, 'validation_error');
    expectProblem(await send('GET', '/dashboard/api/test/payments.csv?status=LOST', s), 400, 'validation_error');
    expectProblem(
      await send('GET', `/dashboard/api/test/payments.csv?createdGte=${day2.toISOString().slice(0, 10)}&createdLt=${day1.toISOString().slice(0, 10)}`, s),
      400,
      'validation_error',
    );
    expectProblem(await send('GET', '/dashboard/api/test/payments.csv?limit=5', s), 400, 'parameter_unknown');
    expectProblem(await send('GET', '/dashboard/api/test/payments.csv'), 401, 'session_required');
  });

  it('searches payments by id, metadata value and amount, in its own merchant and mode only', async () => {
    const c = await account('Lambda');
    const creds = { apiKey: c.apiKey, secretKey: c.secretKey };
    const made = async (body: Record<string, unknown>) => (await call(ctx.app, 'POST', '/gateway', creds, body)).json() as { id: string };
    const first = await made({ amount: '5000', currency: 'XAF', metadata: { order: 'A-1001', qty: 2 } });
    ctx.clock.advance(MINUTE);
    const second = await made({ amount: '7500', currency: 'XAF', metadata: { order: 'A-1002', ref: 'A-1001' } });
    ctx.clock.advance(MINUTE);
    // A payment in euros (as a card route's would be: decision 0082), made in XAF and moved to EUR.
    const euro = await made({ amount: '1250', currency: 'XAF', metadata: {} });
    await ctx.deps.db.updateTable('intents').set({ currency: 'EUR' }).where('id', '=', euro.id).execute();
    // Another merchant's payment with the same reference and amount: never found by Lambda.
    const theirs = (
      await call(ctx.app, 'POST', '/gateway', { apiKey: b.apiKey, secretKey: b.secretKey }, { amount: '5000', currency: 'XAF', metadata: { order: 'A-1001' } })
    ).json();
    const s = await login(c);
    const found = async (q: string, mode = 'test') => {
      const res = await send('GET', `/dashboard/api/${mode}/search?q=${encodeURIComponent(q)}`, s);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((p: { id: string }) => p.id);
    };

    expect(await found('A-1001')).toEqual([second.id, first.id]);
    expect(await found('A-1002')).toEqual([second.id]);
    // A number in metadata is found by its text.
    expect(await found('2')).toEqual([first.id]);
    expect(await found(first.id)).toEqual([first.id]);
    expect(await found(theirs.id)).toEqual([]);
    expect(await found('5000')).toEqual([first.id]);
    expect(await found('5 000')).toEqual([first.id]);
    expect(await found('12.50')).toEqual([euro.id]);
    expect(await found('  7500 ')).toEqual([second.id]);
    expect(await found('A-100')).toEqual([]);
    expect(await found('A-1001', 'live')).toEqual([]);

    expectProblem(await send('GET', '/dashboard/api/test/search?q=%20%20', s), 400, 'validation_error');
    expectProblem(await send('GET', '/dashboard/api/test/search', s), 400, 'validation_error');
    expectProblem(await send('GET', `/dashboard/api/test/search?q=${'x'.repeat(101)}`, s), 400, 'validation_error');
    expectProblem(await send('GET', '/dashboard/api/test/search?q=a&limit=5', s), 400, 'parameter_unknown');
    expectProblem(await send('GET', '/dashboard/api/test/search?q=A-1001'), 401, 'session_required');
  });

  it('shows a payment with its event timeline and webhook deliveries, and resends an event', async () => {
    const c = await account('Epsilon');
    const s = await login(c);
    const endpoint = (
      await send('POST', '/dashboard/api/test/webhook-endpoints', s, { url: 'https://epsilon.example.com/hook', enabledEvents: ['payment.canceled'] })
    ).json();
    expect(endpoint.secret).toMatch(/^whsec_/);
    const intent = (
      await call(ctx.app, 'POST', '/gateway', { apiKey: c.apiKey, secretKey: c.secretKey }, { amount: '5000', currency: 'XAF', metadata: { order: 'A-1' } })
    ).json();
    const canceled = await send('POST', `/dashboard/api/test/payments/${intent.id}/cancel`, s);
    expect(canceled.json()).toMatchObject({ id: intent.id, status: 'CANCELED' });

    const detail = (await send('GET', `/dashboard/api/test/payments/${intent.id}`, s)).json();
    expect(detail.payment).toMatchObject({ id: intent.id, status: 'CANCELED', metadata: { order: 'A-1' } });
    expect(detail.events.map((e: { type: string }) => e.type)).toEqual(['payment.canceled']);
    expect(detail.deliveries).toHaveLength(1);
    expect(detail.deliveries[0]).toMatchObject({ endpointId: endpoint.id, eventId: detail.events[0].id, status: 'pending' });
    expect(JSON.stringify(detail)).not.toContain('sessionToken');

    const resent = await send('POST', `/dashboard/api/test/events/${detail.events[0].id}/resend`, s, { endpointId: endpoint.id });
    expect(resent.statusCode).toBe(200);
    expect((await send('GET', `/dashboard/api/test/payments/${intent.id}`, s)).json().deliveries).toHaveLength(2);
    const deliveries = (await send('GET', `/dashboard/api/test/webhook-endpoints/${endpoint.id}/deliveries`, s)).json();
    expect(deliveries.data).toHaveLength(2);

    const revealed = (await send('POST', `/dashboard/api/test/webhook-endpoints/${endpoint.id}/reveal-secret`, s)).json();
    expect(revealed.secret).toBe(endpoint.secret);
    const rolled = (await send('POST', `/dashboard/api/test/webhook-endpoints/${endpoint.id}/roll-secret`, s, { expiresIn: 600 })).json();
    expect(rolled.secret).not.toBe(endpoint.secret);
    const both = (await send('POST', `/dashboard/api/test/webhook-endpoints/${endpoint.id}/reveal-secret`, s)).json();
    expect(both.secret).toBe(rolled.secret);
    expect(both.rollingSecrets.map((r: { secret: string }) => r.secret)).toEqual([endpoint.secret]);
    const events = (await send('GET', '/dashboard/api/test/events', s)).json();
    expect(events.data.map((e: { id: string }) => e.id)).toContain(detail.events[0].id);
  });

  it('creates funded test users and shows the messages outbox and the balance; live mode has no test data', async () => {
    const c = await account('Zeta');
    const s = await login(c);
    const user = await send('POST', '/dashboard/api/test/test-users', s, { phoneNumber: '+237650009911', password: 'test-user-pw', balance: '25000' });
    expect(user.statusCode, user.body).toBe(201);
    expect(user.json()).toMatchObject({ phoneNumber: '+237650009911', phoneVerified: true, balances: [{ currency: 'XAF', amount: '25000' }] });
    const messages = await send('GET', '/dashboard/api/test/messages', s);
    expect(messages.json()).toMatchObject({ data: [], hasMore: false });
    expect((await send('GET', '/dashboard/api/test/balance', s)).json()).toEqual({
      object: 'balance',
      livemode: false,
      available: [],
      pending: [],
      reserved: [],
      balances: [],
    });
    expect((await send('GET', '/dashboard/api/live/balance', s)).json()).toMatchObject({ livemode: true });
    expectProblem(await send('POST', '/dashboard/api/live/test-users', s, { phoneNumber: '+237650009912', password: 'x' }), 404, 'not_found');
    expectProblem(await send('GET', '/dashboard/api/live/messages', s), 404, 'not_found');
  });

  it("unknown dashboard API paths are JSON 404s, not the app's page", async () => {
    const s = await login(a);
    expectProblem(await send('GET', '/dashboard/api/nothing/here', s), 404, 'not_found');
    expectProblem(await send('GET', '/dashboard/api/nothing'), 404, 'not_found');
  });
});

describe('the hosted checkout page', () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'caisse-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'checkout.html'), '<!doctype html><head><meta name="caisse-checkout" content="{}"></head><body><div id="root"></div></body>');
    writeFileSync(join(dist, 'dashboard.html'), '<!doctype html><title>Dashboard</title>');
    writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  async function pages() {
    const app = Fastify();
    app.decorate('services', ctx.services);
    registerPages(app, dist);
    await app.ready();
    return app;
  }

  function configOf(html: string) {
    const match = /<meta name="caisse-checkout" content="([^"]*)">/.exec(html);
    const raw = (match?.[1] ?? '')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    return JSON.parse(raw);
  }

  it("embeds the merchant name and a publishable key of the intent's mode, which opens that intent and nothing more", async () => {
    const app = await pages();
    const intent = (await call(ctx.app, 'POST', '/gateway', { apiKey: a.apiKey, secretKey: a.secretKey }, { amount: '7500', currency: 'XAF' })).json();
    const res = await app.inject({ method: 'GET', url: `/checkout/${intent.sessionToken}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    const config = configOf(res.body);
    expect(config).toMatchObject({ merchantName: 'Alpha', livemode: false });
    expect(config.apiKey).toMatch(/^pk_test_/);
    expect(res.body).not.toMatch(/sk_(test|live)_/);

    // The key reads the intent by its session token (the browser client's call) and is an
    // ordinary, listed publishable key: no secret-key operation accepts it.
    const read = await call(ctx.app, 'GET', `/gateway/sessions/${intent.sessionToken}`, { apiKey: config.apiKey });
    expect(read.json()).toMatchObject({ id: intent.id, amount: '7500', status: 'PENDING' });
    expectProblem(await call(ctx.app, 'GET', '/gateway', { apiKey: config.apiKey }), 401, 'secret_key_required');

    // The same key on the next visit; a fresh one once the merchant revokes it.
    const again = configOf((await app.inject({ method: 'GET', url: `/checkout/${intent.sessionToken}` })).body);
    expect(again.apiKey).toBe(config.apiKey);
    const s = await login(a);
    const keys = (await send('GET', '/dashboard/api/test/keys', s)).json().data as { id: string; name: string }[];
    const pageKey = keys.filter((k) => k.name === 'Hosted checkout');
    expect(pageKey).toHaveLength(1);
    await send('POST', `/dashboard/api/test/keys/${pageKey[0]?.id}/revoke`, s);
    const renewed = configOf((await app.inject({ method: 'GET', url: `/checkout/${intent.sessionToken}` })).body);
    expect(renewed.apiKey).not.toBe(config.apiKey);
    expect((await call(ctx.app, 'GET', `/gateway/sessions/${intent.sessionToken}`, { apiKey: renewed.apiKey })).statusCode).toBe(200);

    // A live intent gets the live key.
    const liveSk = await ctx.services.merchants.createKey(a.merchantId, { kind: 'secret', mode: 'live', name: 'live sk' });
    const livePk = await ctx.services.merchants.createKey(a.merchantId, { kind: 'publishable', mode: 'live', name: 'live pk' });
    const liveIntent = (
      await call(ctx.app, 'POST', '/gateway', { apiKey: livePk.secret, secretKey: liveSk.secret }, { amount: '100', currency: 'XAF' })
    ).json();
    const liveConfig = configOf((await app.inject({ method: 'GET', url: `/checkout/${liveIntent.sessionToken}` })).body);
    expect(liveConfig).toMatchObject({ livemode: true });
    expect(liveConfig.apiKey).toMatch(/^pk_live_/);
    await app.close();
  });

  it('an unknown token is a 404 with the page saying the link is not valid; assets are served, nothing outside them', async () => {
    const app = await pages();
    const res = await app.inject({ method: 'GET', url: '/checkout/ps_doesnotexist' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(configOf(res.body)).toEqual({ error: 'not_found', language: 'fr', locale: 'fr' });
    expect((await app.inject({ method: 'GET', url: '/dashboard' })).body).toContain('<title>Dashboard</title>');
    expect((await app.inject({ method: 'GET', url: '/dashboard/payments/pi_123' })).body).toContain('<title>Dashboard</title>');
    const asset = await app.inject({ method: 'GET', url: '/dashboard/assets/app-1234.js' });
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await app.inject({ method: 'GET', url: '/dashboard/assets/..%2Fcheckout.html' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/dashboard/assets/missing.js' })).statusCode).toBe(404);
    await app.close();
  });

  it("inlines the page language's texts, names the others', and sends every text compressed by Accept-Encoding", async () => {
    const built = mkdtempSync(join(tmpdir(), 'caisse-dist-'));
    mkdirSync(join(built, 'assets'));
    writeFileSync(
      join(built, 'checkout.html'),
      '<!doctype html><html lang="en"><head><meta name="caisse-checkout" content="{}"><script type="application/json" id="caisse-messages">{}</script></head></html>',
    );
    writeFileSync(join(built, 'checkout-messages.json'), JSON.stringify({ en: 'assets/checkout-en-1.json', fr: 'assets/checkout-fr-1.json' }));
    writeFileSync(join(built, 'assets', 'checkout-en-1.json'), JSON.stringify({ 'hosted.pay': 'Pay </script><b>' }));
    writeFileSync(join(built, 'assets', 'checkout-fr-1.json'), JSON.stringify({ 'hosted.pay': 'Payer' }));
    const js = 'console.log("checkout");'.repeat(50);
    writeFileSync(join(built, 'assets', 'checkout-1.js'), js);
    writeFileSync(join(built, 'assets', 'checkout-1.js.br'), brotliCompressSync(js));
    writeFileSync(join(built, 'assets', 'checkout-1.js.gz'), gzipSync(js));
    const app = Fastify();
    app.decorate('services', ctx.services);
    registerPages(app, built);
    await app.ready();
    try {
      const intent = (await call(ctx.app, 'POST', '/gateway', { apiKey: a.apiKey, secretKey: a.secretKey }, { amount: '7500', currency: 'XAF' })).json();
      const page = await app.inject({
        method: 'GET',
        url: `/checkout/${intent.sessionToken}`,
        headers: { 'accept-language': 'en', 'accept-encoding': 'gzip, br' },
      });
      expect(page.headers['content-encoding']).toBe('br');
      expect(page.headers.vary).toBe('Accept-Encoding');
      const html = brotliDecompressSync(page.rawPayload).toString('utf8');
      expect(configOf(html)).toMatchObject({
        language: 'en',
        catalogues: { en: '/dashboard/assets/checkout-en-1.json', fr: '/dashboard/assets/checkout-fr-1.json' },
      });
      // Only the page's language, and nothing in it can close the script element.
      const inlined = /<script type="application\/json" id="caisse-messages">(.*?)<\/script>/.exec(html)?.[1] ?? '';
      expect(JSON.parse(inlined)).toEqual({ 'hosted.pay': 'Pay </script><b>' });
      expect(html).not.toContain('Payer');
      const french = await app.inject({
        method: 'GET',
        url: `/checkout/${intent.sessionToken}`,
        headers: { 'accept-language': 'fr', 'accept-encoding': 'gzip' },
      });
      expect(french.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(french.rawPayload).toString('utf8')).toContain('{"hosted.pay":"Payer"}');

      const asset = (encoding?: string) =>
        app.inject({ method: 'GET', url: '/dashboard/assets/checkout-1.js', headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });
      const br = await asset('gzip, deflate, br');
      expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'Accept-Encoding', 'cache-control': 'public, max-age=31536000, immutable' });
      expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(js);
      const gz = await asset('br;q=0, gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(js);
      const plain = await asset();
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(js);
      // A file with no compressed copy is sent as it is.
      const catalogue = await app.inject({ method: 'GET', url: '/dashboard/assets/checkout-fr-1.json', headers: { 'accept-encoding': 'br' } });
      expect(catalogue.headers['content-encoding']).toBeUndefined();
      expect(catalogue.json()).toEqual({ 'hosted.pay': 'Payer' });
    } finally {
      await app.close();
      rmSync(built, { recursive: true, force: true });
    }
  });

  it('escapes what it embeds, so a merchant name cannot break out of the attribute', () => {
    const out = renderCheckout(
      '<meta name="caisse-checkout" content="{}">',
      { apiKey: 'pk_test_x', merchantName: '"><script>alert(1)</script>&', livemode: false, merchantLanguage: 'fr' },
      { language: 'fr', locale: 'fr' },
    );
    expect(out).not.toContain('<script>');
    expect(out).toContain('&quot;&gt;&lt;script&gt;');
  });
});

describe('balance, statement and payouts from the dashboard', () => {
  const PAYEE = '+237670000099';
  const FAILS = '+237650000103';

  /** A customer pays `amount` XAF to the merchant through the API (the charge's net is pending). */
  async function pay(m: TestMerchant, amount: string) {
    const user = await newUser(ctx, m, { balance: '1000000' });
    const intent = await createIntent(ctx, m, { amount });
    const res = await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id));
    expect(res.statusCode, res.body).toBe(200);
    return intent.id;
  }

  /** A merchant (fee 1.5 %) with 4 925 XAF available and 1 970 XAF pending, signed in. */
  async function fundedMerchant(name: string) {
    const m = await createMerchant(ctx, name);
    await ctx.services.merchants.setFees(m.merchantId, 150, {});
    const settled = await pay(m, '5000');
    expect((await call(ctx.app, 'POST', '/test/balance/settle', sk(m))).statusCode).toBe(200);
    ctx.clock.advance(MINUTE);
    const pending = await pay(m, '2000');
    return { m, s: await login(m.dashboard), settled, pending };
  }

  /** Lets the submit made after the answer finish, then the sandbox decide and call back. */
  async function providerDecides() {
    await ctx.services.payouts.drain();
    ctx.clock.advance(2 * SECOND);
    await sandbox.tick();
    // Callbacks are answered once recorded; their status reads run behind the answer.
    await ctx.services.callbacks.drain();
  }

  it('shows available and pending per currency, the statement by type with a cursor, and refuses bad filters', async () => {
    const { m, s, settled, pending } = await fundedMerchant('Eta');
    expect((await send('GET', '/dashboard/api/test/balance', s)).json()).toMatchObject({
      available: [{ currency: 'XAF', amount: '4925' }],
      pending: [{ currency: 'XAF', amount: '1970' }],
      balances: [{ currency: 'XAF', available: '4925', pending: '1970', reserved: '0', nextReleaseOn: null }],
    });
    const list = (await send('GET', '/dashboard/api/test/balance/transactions', s)).json() as { data: Record<string, string | null>[]; hasMore: boolean };
    expect(list.data.map((t) => [t.type, t.amount, t.balanceAfter, t.status, t.source])).toEqual([
      ['fee', '-30', '6895', 'pending', pending],
      ['charge', '2000', '6925', 'pending', pending],
      ['fee', '-75', '4925', 'available', settled],
      ['charge', '5000', '5000', 'available', settled],
    ]);
    // Settled before its day by the test helper: it says when it became available, not the day it was due.
    for (const t of list.data.filter((r) => r.status === 'available')) expect(Date.parse(t.availableOn ?? '')).toBeLessThanOrEqual(ctx.clock.now().getTime());
    for (const t of list.data.filter((r) => r.status === 'pending')) expect(Date.parse(t.availableOn ?? '')).toBeGreaterThan(ctx.clock.now().getTime());
    expect(list.hasMore).toBe(false);
    const ids = async (q: string) =>
      ((await send('GET', `/dashboard/api/test/balance/transactions${q}`, s)).json() as { data: { id: string }[] }).data.map((t) => t.id);
    expect(await ids('?type=fee')).toEqual([list.data[0]?.id, list.data[2]?.id]);
    const first = (await send('GET', '/dashboard/api/test/balance/transactions?limit=3', s)).json() as { data: { id: string }[]; hasMore: boolean };
    expect(first.hasMore).toBe(true);
    expect(await ids(`?limit=3&startingAfter=${first.data[2]?.id}`)).toEqual([list.data[3]?.id]);
    const today = ctx.clock.now().toISOString().slice(0, 10);
    expect(await ids(`?from=${today}&to=${today}&currency=XAF`)).toHaveLength(4);
    expect(await ids('?from=2001-01-01&to=2001-01-31')).toEqual([]);
    // The live side and another merchant have none of it.
    expect((await send('GET', '/dashboard/api/live/balance/transactions', s)).json()).toMatchObject({ data: [], hasMore: false });
    expect((await send('GET', '/dashboard/api/test/balance/transactions', await login(b))).json()).toMatchObject({ data: [] });

    expectProblem(await send('GET', '/dashboard/api/test/balance/transactions?from=yesterday', s), 400, 'validation_error');
    expectProblem(await send('GET', `/dashboard/api/test/balance/transactions?from=${today}&to=2001-01-01`, s), 400, 'validation_error');
    expectProblem(await send('GET', '/dashboard/api/test/balance/transactions?type=bonus', s), 400, 'validation_error');
    expectProblem(await send('GET', '/dashboard/api/test/balance/transactions?currency=ZZZ', s), 400, 'currency_unsupported');
    expectProblem(await send('GET', '/dashboard/api/test/balance/transactions?limit=0', s), 400, 'validation_error');
    expectProblem(await send('GET', '/dashboard/api/test/balance/transactions?startingAfter=btx_nope', s), 404, 'not_found');
    expectProblem(await send('GET', '/dashboard/api/test/balance/transactions'), 401, 'session_required');
    // The API's secret key does not open the dashboard's routes.
    expectProblem(await call(ctx.app, 'GET', '/dashboard/api/test/balance/transactions', sk(m)), 401, 'session_required');
  });

  it('downloads the statement of a period as an RFC 4180 CSV attachment', async () => {
    const { s, settled } = await fundedMerchant('Theta');
    const today = ctx.clock.now().toISOString().slice(0, 10);
    const res = await send('GET', `/dashboard/api/test/balance/transactions.csv?from=${today}&to=${today}`, s);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="caisse-balance-test-${today}-${today}.csv"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('\r\n');
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    // Oldest first, amounts as decimal strings; the last balance is what the balance page shows.
    expect(rows.map((r) => [r.type, r.amount, r.balance_after, r.status])).toEqual([
      ['charge', '5000', '5000', 'available'],
      ['fee', '-75', '4925', 'available'],
      ['charge', '2000', '6925', 'pending'],
      ['fee', '-30', '6895', 'pending'],
    ]);
    expect(rows[0]?.source).toBe(settled);

    const fees = parse((await send('GET', '/dashboard/api/test/balance/transactions.csv?type=fee', s)).body, { columns: true }) as Record<string, string>[];
    expect(fees.map((r) => r.amount)).toEqual(['-75', '-30']);
    const empty = await send('GET', '/dashboard/api/live/balance/transactions.csv', s);
    expect(empty.body).toBe('id,created_at,type,source,description,currency,amount,balance_after,status,available_on,connector,provider_account\r\n');
    expect(empty.headers['content-disposition']).toBe('attachment; filename="caisse-balance-live-start-now.csv"');

    // A bad period is a problem, before any byte of CSV; no session, no file.
    expectProblem(await send('GET', '/dashboard/api/test/balance/transactions.csv?to=2026-02-30', s), 400, 'validation_error');
    expectProblem(await send('GET', '/dashboard/api/test/balance/transactions.csv?limit=5', s), 400, 'parameter_unknown');
    expectProblem(await send('GET', '/dashboard/api/test/balance/transactions.csv'), 401, 'session_required');
  });

  it('creates a payout that the sandbox pays, one that fails and comes back, and refuses bad ones', async () => {
    const { m, s } = await fundedMerchant('Iota');
    const body = { amount: '1000', currency: 'XAF', destination: { provider: 'mtn_momo', phoneNumber: PAYEE } };

    // CSRF: no token, another session's, another site: refused, and nothing leaves the balance.
    const other = await login(b);
    expectProblem(await send('POST', '/dashboard/api/test/payouts', { cookie: s.cookie }, body), 403, 'csrf_token_invalid');
    expectProblem(await send('POST', '/dashboard/api/test/payouts', { cookie: s.cookie, csrf: other.csrf }, body), 403, 'csrf_token_invalid');
    expectProblem(await send('POST', '/dashboard/api/test/payouts', s, body, { 'sec-fetch-site': 'cross-site' }), 403, 'csrf_token_invalid');
    expectProblem(await send('POST', '/dashboard/api/test/payouts', undefined, body), 401, 'session_required');

    // Bad input: RFC 9457 problems with the API's codes, never a payout.
    expectProblem(await send('POST', '/dashboard/api/test/payouts', s, { ...body, amount: '12abc' }), 400, 'amount_invalid');
    expectProblem(await send('POST', '/dashboard/api/test/payouts', s, { ...body, amount: '0' }), 400, 'amount_invalid');
    expectProblem(await send('POST', '/dashboard/api/test/payouts', s, { ...body, amount: '-5' }), 400, 'amount_invalid');
    expectProblem(await send('POST', '/dashboard/api/test/payouts', s, { ...body, currency: 'ZZZ' }), 400, 'currency_unsupported');
    expectProblem(
      await send('POST', '/dashboard/api/test/payouts', s, { ...body, destination: { provider: 'mtn_momo', phoneNumber: '650 00' } }),
      400,
      'phone_invalid',
    );
    expectProblem(
      await send('POST', '/dashboard/api/test/payouts', s, { ...body, destination: { provider: 'paypal', phoneNumber: PAYEE } }),
      400,
      'provider_unsupported',
    );
    expectProblem(await send('POST', '/dashboard/api/test/payouts', s, { ...body, fee: '0' }), 400, 'parameter_unknown');
    // More than available (pending money cannot be paid out), or a currency without balance: 409.
    const over = expectProblem(await send('POST', '/dashboard/api/test/payouts', s, { ...body, amount: '4926' }), 409, 'balance_insufficient');
    expect(over.detail).toContain('4925 XAF');
    expectProblem(await send('POST', '/dashboard/api/test/payouts', s, { ...body, currency: 'EUR', amount: '1' }), 400, 'currency_unsupported');
    // No live connector on this server: 503, nothing else.
    expectProblem(await send('POST', '/dashboard/api/live/payouts', s, body), 503, 'provider_unavailable');
    expect((await send('GET', '/dashboard/api/test/payouts', s)).json()).toMatchObject({ data: [], hasMore: false });

    const created = await send('POST', '/dashboard/api/test/payouts', s, body);
    expect(created.statusCode, created.body).toBe(202);
    const payout = created.json() as { id: string };
    expect(payout).toMatchObject({
      object: 'payout',
      amount: '1000',
      currency: 'XAF',
      status: 'PENDING',
      method: 'manual',
      livemode: false,
      destination: { provider: 'mtn_momo', phoneNumber: PAYEE },
    });
    expect((await send('GET', '/dashboard/api/test/balance', s)).json().balances).toEqual([
      { currency: 'XAF', available: '3925', pending: '1970', reserved: '0', nextReleaseOn: null },
    ]);
    await providerDecides();
    await expect
      .poll(async () => (await send('GET', `/dashboard/api/test/payouts/${payout.id}`, s)).json().status, { interval: 20, timeout: 5000 })
      .toBe('PAID');
    const paid = (await send('GET', `/dashboard/api/test/payouts/${payout.id}`, s)).json();
    expect(paid).toMatchObject({ failureReason: null, completedAt: ctx.clock.now().toISOString() });

    const failing = (
      await send('POST', '/dashboard/api/test/payouts', s, { ...body, amount: '500', destination: { provider: 'mtn_momo', phoneNumber: FAILS } })
    ).json() as { id: string };
    await providerDecides();
    await expect
      .poll(async () => (await send('GET', `/dashboard/api/test/payouts/${failing.id}`, s)).json().status, { interval: 20, timeout: 5000 })
      .toBe('FAILED');
    expect((await send('GET', `/dashboard/api/test/payouts/${failing.id}`, s)).json().failureReason).toBe('PAYEE_NOT_FOUND');
    expect((await send('GET', '/dashboard/api/test/balance', s)).json().balances).toEqual([
      { currency: 'XAF', available: '3925', pending: '1970', reserved: '0', nextReleaseOn: null },
    ]);
    const types = ((await send('GET', '/dashboard/api/test/balance/transactions?limit=3', s)).json() as { data: { type: string; amount: string }[] }).data;
    expect(types.map((t) => [t.type, t.amount])).toEqual([
      ['payout_reversal', '500'],
      ['payout', '-500'],
      ['payout', '-1000'],
    ]);

    // The list, newest first, by status; the detail; others never see them.
    const ids = async (q: string, who = s) =>
      ((await send('GET', `/dashboard/api/test/payouts${q}`, who)).json() as { data: { id: string }[] }).data.map((p) => p.id);
    expect(await ids('')).toEqual([failing.id, payout.id]);
    expect(await ids('?status=PAID')).toEqual([payout.id]);
    expect(await ids('?limit=1')).toEqual([failing.id]);
    expect(await ids(`?startingAfter=${failing.id}`)).toEqual([payout.id]);
    expect(await ids('', other)).toEqual([]);
    expectProblem(await send('GET', '/dashboard/api/test/payouts?status=LOST', s), 400, 'validation_error');
    expectProblem(await send('GET', `/dashboard/api/test/payouts/${payout.id}`, other), 404, 'not_found');
    expectProblem(await send('GET', `/dashboard/api/live/payouts/${payout.id}`, s), 404, 'not_found');
    // The API with the merchant's secret key sees the dashboard's payouts: one and the same.
    expect((await call(ctx.app, 'GET', `/payouts/${payout.id}`, sk(m))).json()).toEqual(paid);
    expect(await ctx.services.balances.differences({ merchantId: m.merchantId, mode: 'test' })).toEqual([]);
    await expectLedgerClean(ctx);
  });

  it('reads and sets the payout schedule of each mode (PUT with the CSRF token), and refuses bad ones', async () => {
    const m = await createMerchant(ctx, 'Kappa');
    const s = await login(m.dashboard);
    expect((await send('GET', '/dashboard/api/test/payout-schedule', s)).json()).toEqual({
      object: 'payout_schedule',
      livemode: false,
      interval: 'manual',
      weeklyAnchor: null,
      destination: null,
      minimumAmount: {},
      nextRunAt: null,
    });
    const weekly = {
      interval: 'weekly',
      weeklyAnchor: 'friday',
      destination: { provider: 'mtn_momo', phoneNumber: PAYEE },
      minimumAmount: { XAF: '10000', EUR: '15.50' },
    };
    expectProblem(await send('PUT', '/dashboard/api/test/payout-schedule', { cookie: s.cookie }, weekly), 403, 'csrf_token_invalid');
    expectProblem(await send('PUT', '/dashboard/api/test/payout-schedule', s, weekly, { origin: 'https://evil.example' }), 403, 'csrf_token_invalid');
    expect((await send('GET', '/dashboard/api/test/payout-schedule', s)).json().interval).toBe('manual');

    const set = await send('PUT', '/dashboard/api/test/payout-schedule', s, weekly);
    expect(set.statusCode, set.body).toBe(200);
    const saved = set.json();
    expect(saved).toMatchObject({ interval: 'weekly', weeklyAnchor: 'friday', destination: weekly.destination, minimumAmount: { XAF: '10000', EUR: '15.50' } });
    expect(new Date(saved.nextRunAt).getUTCDay()).toBe(5);
    expect((await send('GET', '/dashboard/api/test/payout-schedule', s)).json()).toEqual(saved);
    // Daily keeps the destination; the live schedule is another one.
    expect((await send('PUT', '/dashboard/api/test/payout-schedule', s, { interval: 'daily' })).json()).toMatchObject({
      interval: 'daily',
      weeklyAnchor: null,
      destination: weekly.destination,
      minimumAmount: {},
    });
    expect((await send('GET', '/dashboard/api/live/payout-schedule', s)).json()).toMatchObject({ livemode: true, interval: 'manual', destination: null });
    expect((await call(ctx.app, 'GET', '/payout-schedule', sk(m))).json()).toMatchObject({ interval: 'daily' });

    expectProblem(await send('PUT', '/dashboard/api/test/payout-schedule', s, { interval: 'hourly' }), 400, 'validation_error');
    expectProblem(await send('PUT', '/dashboard/api/test/payout-schedule', s, { interval: 'daily', weeklyAnchor: 'monday' }), 400, 'validation_error');
    expectProblem(await send('PUT', '/dashboard/api/test/payout-schedule', s, { interval: 'weekly', weeklyAnchor: 'someday' }), 400, 'validation_error');
    expectProblem(await send('PUT', '/dashboard/api/test/payout-schedule', s, { interval: 'daily', minimumAmount: { XAF: '10.5' } }), 400, 'amount_invalid');
    expectProblem(await send('PUT', '/dashboard/api/test/payout-schedule', s, { interval: 'daily', minimumAmount: { ZZZ: '1' } }), 400, 'currency_unsupported');
    expectProblem(
      await send('PUT', '/dashboard/api/test/payout-schedule', s, { interval: 'daily', destination: { provider: 'mtn_momo', phoneNumber: '12' } }),
      400,
      'phone_invalid',
    );
    // An automatic live schedule needs a destination; this server has no live connector for it.
    expectProblem(await send('PUT', '/dashboard/api/live/payout-schedule', s, { interval: 'daily' }), 400, 'validation_error');
    expectProblem(await send('PUT', '/dashboard/api/live/payout-schedule', s, weekly), 503, 'provider_unavailable');
    expect((await send('GET', '/dashboard/api/test/payout-schedule', s)).json().interval).toBe('daily');
  });
});
