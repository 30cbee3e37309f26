import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_CHALLENGE_MS, RESET_LINK_MS } from '../src/modules/dashboard/dashboard.account.ts';
import { SECOND } from '../src/platform/clock.ts';
import { createTestContext, type TestContext } from './harness.ts';

/**
 * Dashboard account security over HTTP on the ManualClock: TOTP enrolment and the second sign-in
 * step (±1 step, each code once, recovery codes, lockout), live mode closed until enrolled,
 * password change and reset by e-mail (the outbox), and the user's own sessions.
 */
let ctx: TestContext;

interface Account {
  merchantId: string;
  userId: string;
  email: string;
  password: string;
}
interface Browser {
  cookie: string;
  csrf: string;
}

async function account(name: string): Promise<Account> {
  const email = `${name.toLowerCase()}-${randomBytes(3).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const created = await ctx.services.merchants.createMerchant({ name, email, dashboardPassword: password });
  const user = await ctx.deps.db.selectFrom('dashboard_users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { merchantId: created.merchantId, userId: user.id, email, password };
}

function send(method: InjectOptions['method'], url: string, who?: Partial<Browser>, body?: unknown, extra: Partial<InjectOptions> = {}) {
  const headers: Record<string, string> = {};
  if (who?.cookie) headers.cookie = who.cookie;
  if (who?.csrf) headers['x-csrf-token'] = who.csrf;
  return ctx.app.inject({ method, url, headers, ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}), ...extra });
}

function browserOf(res: LightMyRequestResponse): Browser {
  expect(res.statusCode, res.body).toBe(200);
  return { cookie: String(res.headers['set-cookie']).split(';')[0] as string, csrf: res.json().csrfToken };
}

const passwordLogin = (a: { email: string; password: string }, extra: Partial<InjectOptions> = {}) =>
  send('POST', '/dashboard/api/login', undefined, { email: a.email, password: a.password }, extra);

async function login(a: Account): Promise<Browser> {
  return browserOf(await passwordLogin(a));
}

function expectProblem(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ status, code });
  return res.json() as { detail: string };
}

/** The authenticator app: codes of the secret at the ManualClock's time, or `steps` away. */
function codeAt(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: ctx.clock.now().getTime() + steps * 30 * SECOND });
}

/** Moves the clock to the start of the next 30-second step, so each test's codes are fresh. */
function nextStep() {
  const ms = ctx.clock.now().getTime();
  ctx.clock.set(new Date(Math.floor(ms / 30_000) * 30_000 + 30_000 + 1_000));
}

/** Enrols TOTP for a signed-in user: the secret and the recovery codes. */
async function enrol(s: Browser): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await send('POST', '/dashboard/api/account/totp', s, {});
  expect(started.statusCode, started.body).toBe(200);
  const { secret, uri, qrCode } = started.json();
  expect(uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
  expect(uri).toContain(`secret=${secret}`);
  expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(Buffer.from(qrCode.split(',')[1], 'base64').toString()).toContain('<svg');
  const confirmed = await send('POST', '/dashboard/api/account/totp/confirm', s, { code: codeAt(secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, recoveryCodes: confirmed.json().recoveryCodes };
}

async function secondStep(a: Account, code: string) {
  const first = await passwordLogin(a);
  expect(first.statusCode, first.body).toBe(200);
  expect(first.json()).toMatchObject({ mfaRequired: true });
  expect(first.headers['set-cookie']).toBeUndefined();
  return send('POST', '/dashboard/api/login/totp', undefined, { challenge: first.json().challenge, code });
}

/** The last e-mail the operator outbox holds for an address (a reset proves control), and its token. */
async function resetMail(email: string): Promise<{ body: string; token: string } | undefined> {
  const row = (await ctx.services.messaging.listForOperators({ to: email, limit: 1 })).data[0];
  if (!row?.body) return undefined;
  const token = /\/dashboard\/reset-password\/(dr_[0-9A-Za-z]+)/.exec(row.body)?.[1];
  return token ? { body: row.body, token } : undefined;
}

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('two-factor sign-in (TOTP)', () => {
  it('enrols: a wrong code keeps it pending, a right one enables it and answers 10 recovery codes; the secret is stored encrypted', async () => {
    const a = await account('Enrol');
    const s = await login(a);
    expect((await send('GET', '/dashboard/api/session', s)).json()).toMatchObject({ totpEnabled: false });
    const started = (await send('POST', '/dashboard/api/account/totp', s, {})).json();
    // A code from two steps away is refused at confirmation, and nothing is enabled.
    expectProblem(await send('POST', '/dashboard/api/account/totp/confirm', s, { code: codeAt(started.secret, 2) }), 400, 'otp_incorrect');
    expectProblem(await send('POST', '/dashboard/api/account/totp/confirm', s, { code: 'abcdef' }), 400, 'otp_incorrect');
    expect((await send('GET', '/dashboard/api/account/security', s)).json()).toMatchObject({ totpEnabled: false });
    // Without the CSRF token the enrolment cannot be started.
    expectProblem(await send('POST', '/dashboard/api/account/totp', { cookie: s.cookie }, {}), 403, 'csrf_token_invalid');

    const confirmed = await send('POST', '/dashboard/api/account/totp/confirm', s, { code: codeAt(started.secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes: string[] = confirmed.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await send('GET', '/dashboard/api/session', s)).json()).toMatchObject({ totpEnabled: true });
    expect((await send('GET', '/dashboard/api/account/security', s)).json()).toMatchObject({ totpEnabled: true, recoveryCodesLeft: 10 });
    // Enrolling again while enabled is refused.
    expectProblem(await send('POST', '/dashboard/api/account/totp', s, {}), 409, 'totp_state_invalid');

    // Neither the secret nor a recovery code is anywhere in the database in plain text.
    const row = await ctx.deps.db.selectFrom('dashboard_users').selectAll().where('id', '=', a.userId).executeTakeFirstOrThrow();
    expect(row.totp_secret_encrypted).toBeInstanceOf(Buffer);
    const dump =
      JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) + Buffer.from(row.totp_secret_encrypted as Buffer).toString('latin1');
    expect(dump).not.toContain(started.secret);
    const stored = await ctx.deps.db.selectFrom('dashboard_recovery_codes').selectAll().where('dashboard_user_id', '=', a.userId).execute();
    expect(stored).toHaveLength(10);
    const storedText = stored.map((r) => r.code_hash.toString('latin1') + r.code_hash.toString('hex')).join();
    for (const c of codes) expect(storedText).not.toContain(c);
    expect(ctx.logs.join('\n')).not.toContain(started.secret);
  });

  it('enrolling ends the other sessions, this one stays', async () => {
    const a = await account('Enrol ends sessions');
    const here = await login(a);
    const there = await login(a);
    const started = (await send('POST', '/dashboard/api/account/totp', here, {})).json();
    const confirmed = await send('POST', '/dashboard/api/account/totp/confirm', here, { code: codeAt(started.secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await send('GET', '/dashboard/api/session', here)).statusCode).toBe(200);
    expectProblem(await send('GET', '/dashboard/api/session', there), 401, 'session_required');
  });

  it('sign-in needs the second step; ±1 step accepted, ±2 refused, each code once', async () => {
    const a = await account('Steps');
    nextStep();
    const { secret } = await enrol(await login(a));

    // The password alone gives a challenge, not a session.
    const first = await passwordLogin(a);
    expect(first.json()).toMatchObject({ object: 'dashboard_login_challenge', mfaRequired: true });
    expect(first.json().challenge).toMatch(/^dc_/);
    expect(first.headers['set-cookie']).toBeUndefined();
    const challenge = first.json().challenge;
    const stored = await ctx.deps.db.selectFrom('dashboard_login_challenges').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(challenge);

    // Two steps on: the enrolment's code (its step is remembered) is out of the window.
    nextStep();
    nextStep();
    const step = (code: string) => send('POST', '/dashboard/api/login/totp', undefined, { challenge, code });
    expectProblem(await step(codeAt(secret, 2)), 401, 'totp_code_invalid');
    expectProblem(await step(codeAt(secret, -2)), 401, 'totp_code_invalid');
    // One step back (the code that just rolled over) is accepted.
    const s = browserOf(await step(codeAt(secret, -1)));
    expect((await send('GET', '/dashboard/api/session', s)).json()).toMatchObject({ totpEnabled: true });
    // The challenge is used up.
    expectProblem(await step(codeAt(secret)), 401, 'login_challenge_invalid');
    // The same code again, on a new challenge: a replay.
    expectProblem(await secondStep(a, codeAt(secret, -1)), 401, 'totp_code_reused');
    // The current one works; the next step's (one ahead) works after it, once.
    browserOf(await secondStep(a, codeAt(secret)));
    browserOf(await secondStep(a, codeAt(secret, 1)));
    expectProblem(await secondStep(a, codeAt(secret, 1)), 401, 'totp_code_reused');
    // And an older one than the last accepted is refused too.
    expectProblem(await secondStep(a, codeAt(secret)), 401, 'totp_code_reused');
  });

  it('a challenge lasts 5 minutes', async () => {
    const a = await account('Challenge');
    nextStep();
    const { secret } = await enrol(await login(a));
    const first = await passwordLogin(a);
    ctx.clock.advance(LOGIN_CHALLENGE_MS);
    expectProblem(
      await send('POST', '/dashboard/api/login/totp', undefined, { challenge: first.json().challenge, code: codeAt(secret) }),
      401,
      'login_challenge_invalid',
    );
    expectProblem(await send('POST', '/dashboard/api/login/totp', undefined, { challenge: 'dc_nope', code: '123456' }), 401, 'login_challenge_invalid');
  });

  it('a recovery code signs in once', async () => {
    const a = await account('Recovery');
    nextStep();
    const { recoveryCodes } = await enrol(await login(a));
    const code = recoveryCodes[3] as string;
    const s = browserOf(await secondStep(a, code.toUpperCase()));
    expect((await send('GET', '/dashboard/api/account/security', s)).json()).toMatchObject({ recoveryCodesLeft: 9 });
    expectProblem(await secondStep(a, code), 401, 'totp_code_invalid');
    // Regenerated: the old ones stop working.
    const fresh = await send('POST', '/dashboard/api/account/totp/recovery-codes', s, { password: a.password });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expectProblem(await secondStep(a, recoveryCodes[4] as string), 401, 'totp_code_invalid');
    browserOf(await secondStep(a, fresh.json().recoveryCodes[0]));
  });

  it('wrong codes count in the sign-in lockout with wrong passwords', async () => {
    const a = await account('Lockout');
    nextStep();
    const { secret } = await enrol(await login(a));
    const first = await passwordLogin(a); // 1 attempt counted (not forgotten: the second step is missing)
    for (let i = 0; i < 4; i++) {
      expectProblem(
        await send('POST', '/dashboard/api/login/totp', undefined, { challenge: first.json().challenge, code: codeAt(secret, 3 + i) }),
        401,
        'totp_code_invalid',
      );
    }
    // The 6th attempt, a right code, is locked out, and so is the password.
    const locked = await send('POST', '/dashboard/api/login/totp', undefined, { challenge: first.json().challenge, code: codeAt(secret) });
    expectProblem(locked, 429, 'login_locked');
    expectProblem(await passwordLogin(a), 429, 'login_locked');
  });

  it('live-mode routes answer 403 totp_required until enrolled; test mode works', async () => {
    const a = await account('Live');
    const s = await login(a);
    for (const url of ['/dashboard/api/live/payments', '/dashboard/api/live/keys', '/dashboard/api/live/balance']) {
      expect(expectProblem(await send('GET', url, s), 403, 'totp_required').detail).toMatch(/enrol/);
    }
    expectProblem(await send('POST', '/dashboard/api/live/keys', s, { name: 'x', kind: 'publishable' }), 403, 'totp_required');
    expect((await send('GET', '/dashboard/api/test/payments', s)).statusCode).toBe(200);
    nextStep();
    await enrol(s);
    expect((await send('GET', '/dashboard/api/live/payments', s)).statusCode).toBe(200);
  });

  it('disable needs a current code or the password', async () => {
    const a = await account('Disable');
    nextStep();
    const s0 = await login(a);
    const { secret } = await enrol(s0);
    nextStep();
    const s = browserOf(await secondStep(a, codeAt(secret)));
    expectProblem(await send('POST', '/dashboard/api/account/totp/disable', s, {}), 400, 'validation_error');
    expectProblem(await send('POST', '/dashboard/api/account/totp/disable', s, { password: 'wrong-password' }), 401, 'invalid_credentials');
    // The code just used to sign in is refused (once only).
    expectProblem(await send('POST', '/dashboard/api/account/totp/disable', s, { code: codeAt(secret) }), 401, 'totp_code_reused');
    const off = await send('POST', '/dashboard/api/account/totp/disable', s, { code: codeAt(secret, 1) });
    expect(off.statusCode, off.body).toBe(204);
    expect((await send('GET', '/dashboard/api/session', s)).json()).toMatchObject({ totpEnabled: false });
    expect(await ctx.deps.db.selectFrom('dashboard_recovery_codes').select('code_hash').where('dashboard_user_id', '=', a.userId).execute()).toEqual([]);
    // The password alone signs in again.
    expect((await passwordLogin(a)).json()).toMatchObject({ object: 'dashboard_session' });
  });
});

describe('password change and reset', () => {
  it('changes the password: the current one first; the other sessions end, this one stays', async () => {
    const a = await account('Change');
    const here = await login(a);
    const there = await login(a);
    expectProblem(
      await send('POST', '/dashboard/api/account/password', here, { currentPassword: 'wrong', newPassword: 'a-new-password-1' }),
      401,
      'invalid_credentials',
    );
    expectProblem(await send('POST', '/dashboard/api/account/password', here, { currentPassword: a.password, newPassword: 'short' }), 400, 'password_weak');
    const ok = await send('POST', '/dashboard/api/account/password', here, { currentPassword: a.password, newPassword: 'a-new-password-1' });
    expect(ok.statusCode, ok.body).toBe(204);
    expect((await send('GET', '/dashboard/api/session', here)).statusCode).toBe(200);
    expectProblem(await send('GET', '/dashboard/api/session', there), 401, 'session_required');
    expectProblem(await passwordLogin(a), 401, 'invalid_credentials');
    browserOf(await passwordLogin({ email: a.email, password: 'a-new-password-1' }));
  });

  it("reset: the link starts with the server's own address, never the request's Host or forwarded host", async () => {
    const a = await account('HostHeader');
    const res = await send(
      'POST',
      '/dashboard/api/password-reset',
      undefined,
      { email: a.email },
      {
        headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', origin: 'http://evil.example' },
      },
    );
    expect(res.statusCode, res.body).toBe(202);
    const mail = await resetMail(a.email);
    expect(mail?.body).not.toContain('evil.example');
    const { host, port } = ctx.deps.config;
    const expected = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}/dashboard/reset-password/${mail?.token}`;
    expect(mail?.body).toContain(expected);
  });

  it('reset: the same answer for an unknown e-mail; a link by e-mail, once; sessions end and the lockout lifts', async () => {
    const a = await account('Reset');
    const s = await login(a);
    const known = await send('POST', '/dashboard/api/password-reset', undefined, { email: a.email.toUpperCase() });
    const unknown = await send('POST', '/dashboard/api/password-reset', undefined, { email: 'nobody-here@example.com' });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(await resetMail('nobody-here@example.com')).toBeUndefined();
    const mail = await resetMail(a.email);
    expect(mail?.body).toMatch(/one hour|60 minutes/);
    const token = mail?.token as string;
    // Only its hash is stored.
    const rows = await ctx.deps.db.selectFrom('dashboard_password_resets').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);

    // Lock the sign-in with wrong passwords.
    for (let i = 0; i < 5; i++) expectProblem(await passwordLogin({ email: a.email, password: `wrong-${i}` }), 401, 'invalid_credentials');
    expectProblem(await passwordLogin(a), 429, 'login_locked');

    expectProblem(await send('POST', '/dashboard/api/password-reset/complete', undefined, { token, newPassword: 'short' }), 400, 'password_weak');
    const done = await send('POST', '/dashboard/api/password-reset/complete', undefined, { token, newPassword: 'reset-password-22' });
    expect(done.statusCode, done.body).toBe(204);
    expectProblem(await send('GET', '/dashboard/api/session', s), 401, 'session_required');
    // The lockout is lifted: the new password signs in at once.
    browserOf(await passwordLogin({ email: a.email, password: 'reset-password-22' }));
    // The link works once.
    const again = expectProblem(
      await send('POST', '/dashboard/api/password-reset/complete', undefined, { token, newPassword: 'reset-password-33' }),
      400,
      'reset_token_invalid',
    );
    expect(again.detail).toMatch(/already used/);
    expectProblem(
      await send('POST', '/dashboard/api/password-reset/complete', undefined, { token: 'dr_unknown', newPassword: 'reset-password-33' }),
      400,
      'reset_token_invalid',
    );
  });

  it('a reset link expires after one hour', async () => {
    const a = await account('Expire');
    await send('POST', '/dashboard/api/password-reset', undefined, { email: a.email });
    const token = (await resetMail(a.email))?.token as string;
    ctx.clock.advance(RESET_LINK_MS);
    const late = expectProblem(
      await send('POST', '/dashboard/api/password-reset/complete', undefined, { token, newPassword: 'reset-password-22' }),
      400,
      'reset_token_invalid',
    );
    expect(late.detail).toMatch(/expired/);
    browserOf(await passwordLogin(a));
    // Retention deletes expired links (and challenges) with the expired sessions.
    const resets = () => ctx.deps.db.selectFrom('dashboard_password_resets').select('token_hash').where('dashboard_user_id', '=', a.userId).execute();
    expect(await resets()).toHaveLength(1);
    expect(await ctx.services.dashboard.purgeExpiredSessions(ctx.clock.now(), 1000)).toBeGreaterThan(0);
    expect(await resets()).toEqual([]);
    expect(await ctx.deps.db.selectFrom('dashboard_login_challenges').select('token_hash').where('expires_at', '<=', ctx.clock.now()).execute()).toEqual([]);
  });

  it("the e-mail is in the user's language", async () => {
    const a = await account('Langue');
    const s = await login(a);
    await send('PATCH', '/dashboard/api/session', s, { language: 'fr' });
    await send('POST', '/dashboard/api/password-reset', undefined, { email: a.email });
    expect((await resetMail(a.email))?.body).toMatch(/^Quelqu'un a demandé/);
  });

  it('limits requests per e-mail address and per client address', async () => {
    const a = await account('Limit');
    for (let i = 0; i < 3; i++)
      expect((await send('POST', '/dashboard/api/password-reset', undefined, { email: a.email }, { remoteAddress: `10.1.0.${i}` })).statusCode).toBe(202);
    const limited = await send('POST', '/dashboard/api/password-reset', undefined, { email: a.email }, { remoteAddress: '10.1.0.9' });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 0; i < 10; i++)
      expect((await send('POST', '/dashboard/api/password-reset', undefined, { email: `x${i}@example.com` }, { remoteAddress: '10.2.0.1' })).statusCode).toBe(
        202,
      );
    expectProblem(
      await send('POST', '/dashboard/api/password-reset', undefined, { email: 'x99@example.com' }, { remoteAddress: '10.2.0.1' }),
      429,
      'rate_limited',
    );
  });
});

describe('sessions listed and revocable', () => {
  it('lists the sessions with address and agent, revokes one (its cookie answers 401) and all others', async () => {
    const a = await account('Sessions');
    const other = await account('Stranger');
    const ua = `Mozilla/5.0 (Test) ${'x'.repeat(400)}`;
    const one = browserOf(await passwordLogin(a, { remoteAddress: '10.9.0.1', headers: { 'user-agent': ua } }));
    const two = await login(a);
    const three = await login(a);
    const strangers = await login(other);
    const list = await send('GET', '/dashboard/api/account/sessions', one);
    expect(list.statusCode, list.body).toBe(200);
    const data = list.json().data as { id: string; address: string; userAgent: string; current: boolean }[];
    expect(data).toHaveLength(3);
    const mine = data.find((d) => d.current);
    expect(mine).toMatchObject({ address: '10.9.0.1' });
    expect(mine?.userAgent).toHaveLength(200);
    expect(data.filter((d) => d.current)).toHaveLength(1);
    expect(JSON.stringify(data)).not.toMatch(/ds_/);

    // Another user's session id is not found.
    const theirs = (await send('GET', '/dashboard/api/account/sessions', strangers)).json().data[0].id;
    expectProblem(await send('DELETE', `/dashboard/api/account/sessions/${theirs}`, one), 404, 'not_found');
    const idOfTwo = (await send('GET', '/dashboard/api/account/sessions', two)).json().data.find((d: { current: boolean }) => d.current).id;
    expect((await send('DELETE', `/dashboard/api/account/sessions/${idOfTwo}`, one)).statusCode).toBe(204);
    expectProblem(await send('GET', '/dashboard/api/session', two), 401, 'session_required');
    expect((await send('GET', '/dashboard/api/session', three)).statusCode).toBe(200);

    const revoked = await send('POST', '/dashboard/api/account/sessions/revoke-others', one, {});
    expect(revoked.json()).toMatchObject({ revoked: 1 });
    expectProblem(await send('GET', '/dashboard/api/session', three), 401, 'session_required');
    expect((await send('GET', '/dashboard/api/session', one)).statusCode).toBe(200);
    expect((await send('GET', '/dashboard/api/session', strangers)).statusCode).toBe(200);
    // Without the CSRF token, nothing is revoked.
    expectProblem(await send('POST', '/dashboard/api/account/sessions/revoke-others', { cookie: one.cookie }, {}), 403, 'csrf_token_invalid');
  });
});
