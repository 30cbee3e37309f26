import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { PASSWORD_COST, setPasswordCost, TEST_PASSWORD_COST } from '../src/platform/passwords.ts';
import { call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

/**
 * End users over HTTP: registration (phone and password rules), phone verification by SMS code,
 * sign-in with lockout, and the test-mode helpers.
 */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Alpha');
  other = await createMerchant(ctx, 'Beta');
});
afterAll(() => ctx.close());

type Res = { statusCode: number; headers: Record<string, unknown>; json(): unknown };
function problem(res: Res, status: number, code: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = res.json() as Record<string, unknown>;
  expect(body).toMatchObject({ type: `/errors/${code}`, status, code });
  return body;
}

let phoneSeq = 100000;
/** A fresh Cameroonian mobile number for each call. */
const phone = () => `+237650${String(phoneSeq++).padStart(6, '0')}`;
const PASSWORD = 'kribi-beach-2026';

/** `run` with the production password cost (the harness lowers it for the suite), then the suite's again. */
async function productionCost<T>(run: () => Promise<T>): Promise<T> {
  setPasswordCost(PASSWORD_COST);
  try {
    return await run();
  } finally {
    setPasswordCost(TEST_PASSWORD_COST);
  }
}

async function lastCode(userId: string, merchant = m): Promise<string> {
  const res = await call(ctx.app, 'GET', `/test/messages?userId=${userId}`, sk(merchant));
  expect(res.statusCode).toBe(200);
  const body = (res.json() as { data: { body: string }[] }).data[0]?.body ?? '';
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  expect(code, body).toBeDefined();
  return code as string;
}

/** Registers with POST /users (202, naming no customer); the id is read from the database. */
async function register(phoneNumber = phone(), password = PASSWORD) {
  const res = await call(ctx.app, 'POST', '/users', pk(m), { phoneNumber, password });
  expect(res.statusCode, res.body).toBe(202);
  const row = await ctx.deps.db
    .selectFrom('users')
    .select(['id', 'phone_verified_at'])
    .where('mode', '=', 'test')
    .where('phone_number', '=', phoneNumber)
    .executeTakeFirstOrThrow();
  return { id: row.id, phoneNumber, phoneVerified: row.phone_verified_at !== null };
}

describe('POST /users', () => {
  it('registers a customer and sends a 6-digit code by SMS into the test outbox; the answer names no customer', async () => {
    const phoneNumber = phone();
    const res = await call(ctx.app, 'POST', '/users', pk(m), { phoneNumber, password: PASSWORD, email: 'awa@example.cm' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ object: 'phone_verification', phoneNumber, channel: 'sms', expiresAt: '2026-11-01T10:10:00.000Z' });
    const row = await ctx.deps.db.selectFrom('users').selectAll().where('phone_number', '=', phoneNumber).executeTakeFirstOrThrow();
    const user = { id: row.id };
    expect(row).toMatchObject({ email: 'awa@example.cm', phone_verified_at: null, mode: 'test' });
    expect(user.id).toMatch(/^usr_[0-9a-z]{26}$/);
    expect(row.created_at.toISOString()).toBe('2026-11-01T10:00:00.000Z');

    const messages = (await call(ctx.app, 'GET', `/test/messages?userId=${user.id}`, sk(m))).json();
    expect(messages.data).toHaveLength(1);
    expect(messages.data[0]).toMatchObject({ userId: user.id, channel: 'sms', to: phoneNumber });
    expect(messages.data[0].body).toMatch(/\b\d{6}\b/);
    expect(messages.data[0].id).toMatch(/^msg_/);
    expect(messages.data[0].createdAt).toBe('2026-11-01T10:00:00.000Z');
  });

  it.each([
    ['a national number of another country', '77 123 45 67'],
    ['a landline', '+237 222 12 34 56'],
    ['a national number with a trunk zero Cameroon does not use', '0650000000'],
    ['too short for its country', '+2376500'],
    ['too long', '+2376500000001234'],
    ['letters', '+23765000000a'],
    ['a leading zero country code', '+0237650000000'],
    ['a number, not a string', 237650000000],
    ['an empty string', ''],
  ])('phone_invalid for %s', async (_why, phoneNumber) => {
    const body = problem(await call(ctx.app, 'POST', '/users', pk(m), { phoneNumber, password: PASSWORD }), 400, 'phone_invalid');
    expect(body.param).toBe('phoneNumber');
  });

  it.each([
    ['too short', 'Ab1!xyz'],
    ['very common', 'password123'],
    ['very common in French', 'Azertyuiop'],
    ['a sequence', '12345678'],
    ['one repeated character', 'aaaaaaaaaaaa'],
  ])('password_weak when %s', async (_why, password) => {
    const body = problem(await call(ctx.app, 'POST', '/users', pk(m), { phoneNumber: phone(), password }), 400, 'password_weak');
    expect(body.param).toBe('password');
  });

  it('password_weak when the password is the phone number', async () => {
    const phoneNumber = phone();
    problem(await call(ctx.app, 'POST', '/users', pk(m), { phoneNumber, password: phoneNumber.slice(1) }), 400, 'password_weak');
    problem(await call(ctx.app, 'POST', '/users', pk(m), { phoneNumber, password: `0${phoneNumber.slice(4)}` }), 400, 'password_weak');
  });

  it('a registered number answers the same 202 through any merchant; test and live are separate customers', async () => {
    const phoneNumber = phone();
    await register(phoneNumber);
    ctx.clock.advance(30 * SECOND);
    expect((await call(ctx.app, 'POST', '/users', pk(m), { phoneNumber, password: 'another-password-1' })).statusCode).toBe(202);
    ctx.clock.advance(30 * SECOND);
    expect((await call(ctx.app, 'POST', '/users', pk(other), { phoneNumber, password: PASSWORD })).statusCode).toBe(202);
    expect(await ctx.deps.db.selectFrom('users').select('id').where('phone_number', '=', phoneNumber).where('mode', '=', 'test').execute()).toHaveLength(1);
    expect((await call(ctx.app, 'POST', '/users', { apiKey: m.live.apiKey }, { phoneNumber, password: PASSWORD })).statusCode).toBe(202);
    expect(await ctx.deps.db.selectFrom('users').select('id').where('phone_number', '=', phoneNumber).where('mode', '=', 'live').execute()).toHaveLength(1);
  });

  it('two simultaneous registrations of one phone make one customer; the second send is held back', async () => {
    const phoneNumber = phone();
    const results = await Promise.all([1, 2].map(() => call(ctx.app, 'POST', '/users', pk(m), { phoneNumber, password: PASSWORD })));
    expect(results.map((r) => r.statusCode).sort()).toContain(202);
    expect(await ctx.deps.db.selectFrom('users').select('id').where('phone_number', '=', phoneNumber).execute()).toHaveLength(1);
  });

  it('validation: unknown field, bad e-mail, missing password, no API key', async () => {
    problem(await call(ctx.app, 'POST', '/users', pk(m), { phoneNumber: phone(), password: PASSWORD, role: 'ADMIN' }), 400, 'parameter_unknown');
    const bad = problem(
      await call(ctx.app, 'POST', '/users', pk(m), { phoneNumber: phone(), password: PASSWORD, email: 'not-an-email' }),
      400,
      'validation_error',
    );
    expect(bad.param).toBe('email');
    problem(await call(ctx.app, 'POST', '/users', pk(m), { phoneNumber: phone() }), 400, 'validation_error');
    problem(await call(ctx.app, 'POST', '/users', {}, { phoneNumber: phone(), password: PASSWORD }), 401, 'api_key_missing');
  });

  it("keeps only an argon2id hash of the password, at OWASP's minimum cost", async () => {
    const user = await productionCost(() => register());
    const row = await ctx.deps.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('POST /users/verify-phone', () => {
  it('the code from the SMS verifies the phone; a wrong one says how many tries are left', async () => {
    const user = await register();
    const code = await lastCode(user.id);
    const wrong = code === '000000' ? '000001' : '000000';
    const body = problem(await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { userId: user.id, code: wrong }), 400, 'otp_incorrect');
    expect(body.attemptsRemaining).toBe(4);
    const ok = await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { userId: user.id, code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: user.id, phoneVerified: true });
    // Verifying again returns no customer data: the code was used up, and it reads as a wrong one.
    const again = await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { phoneNumber: user.phoneNumber, code });
    problem(again, 400, 'otp_incorrect');
    expect(again.body).not.toContain(user.id);
  });

  it('keeps only a keyed hash of the code', async () => {
    const user = await register();
    const code = await lastCode(user.id);
    const row = await ctx.deps.db.selectFrom('phone_verifications').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.code_hash.length).toBe(32);
    expect(row.code_hash.toString('utf8')).not.toContain(code);
    expect(row.code_hash.toString('hex')).not.toContain(Buffer.from(code).toString('hex'));
  });

  it('after 5 wrong codes: 429 otp_attempts_exceeded even for the right one, until a new code is sent', async () => {
    const user = await register();
    const code = await lastCode(user.id);
    const wrong = code === '999999' ? '999998' : '999999';
    const remaining: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      remaining.push(
        problem(await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { userId: user.id, code: wrong }), 400, 'otp_incorrect').attemptsRemaining,
      );
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const locked = await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { userId: user.id, code });
    problem(locked, 429, 'otp_attempts_exceeded');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);

    // A new code may be asked 30 s after the last one: by number, 429 before; by id, the same 202
    // (a 429 would tie the id to the number) and nothing sent.
    const early = await call(ctx.app, 'POST', '/users/verify-phone/resend', pk(m), { phoneNumber: user.phoneNumber });
    problem(early, 429, 'otp_rate_limited');
    expect(early.headers['retry-after']).toBe('30');
    expect((await call(ctx.app, 'POST', '/users/verify-phone/resend', pk(m), { userId: user.id })).statusCode).toBe(202);
    expect(await lastCode(user.id)).toBe(code);
    ctx.clock.advance(30 * SECOND);
    const resent = await call(ctx.app, 'POST', '/users/verify-phone/resend', pk(m), { phoneNumber: user.phoneNumber });
    expect(resent.statusCode).toBe(202);
    expect(resent.json()).toMatchObject({ object: 'phone_verification', phoneNumber: user.phoneNumber, channel: 'sms' });
    const fresh = await lastCode(user.id);
    expect((await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { userId: user.id, code: fresh })).json().phoneVerified).toBe(true);
    // A verified number: the same 202, and nothing sent.
    ctx.clock.advance(30 * SECOND);
    expect((await call(ctx.app, 'POST', '/users/verify-phone/resend', pk(m), { userId: user.id })).statusCode).toBe(202);
    expect(await lastCode(user.id)).toBe(fresh);
  });

  it("resend by id: the same 202 body for a known, unknown, another merchant's or live id; no number, no id", async () => {
    const mine = await register();
    const theirs = await call(ctx.app, 'POST', '/users', pk(other), { phoneNumber: phone(), password: PASSWORD });
    expect(theirs.statusCode).toBe(202);
    const theirsId = (await ctx.deps.db.selectFrom('users').select('id').where('phone_number', '=', theirs.json().phoneNumber).executeTakeFirstOrThrow()).id;
    const verified = await register();
    await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { userId: verified.id, code: await lastCode(verified.id) });
    ctx.clock.advance(30 * SECOND);
    const answers = [];
    for (const [creds, userId] of [
      [pk(m), mine.id],
      [pk(m), theirsId],
      [pk(m), verified.id],
      [pk(m), 'usr_00000000000000000000000000'],
      [pk(m), 'not-an-id'],
      [{ apiKey: m.live.apiKey }, mine.id],
    ] as const) {
      const res = await call(ctx.app, 'POST', '/users/verify-phone/resend', creds, { userId });
      expect(res.statusCode, userId).toBe(202);
      expect(res.body).not.toContain(userId);
      answers.push(res.json());
    }
    for (const a of answers)
      expect(a).toEqual({
        object: 'phone_verification',
        phoneNumber: null,
        channel: 'sms',
        expiresAt: new Date(ctx.clock.now().getTime() + 10 * MINUTE).toISOString(),
      });
    // The unverified customer got a new code all the same (the SMS tells the number itself).
    const sent = await call(ctx.app, 'GET', `/test/messages?userId=${mine.id}`, sk(m));
    expect((sent.json() as { data: unknown[] }).data).toHaveLength(2);
  });

  it('a code past its 10 minutes reads as a wrong one (otp_incorrect), so an answer tells nothing', async () => {
    const user = await register();
    const code = await lastCode(user.id);
    ctx.clock.advance(10 * MINUTE);
    problem(await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { userId: user.id, code }), 400, 'otp_incorrect');
  });

  it("any merchant of the mode verifies a customer's phone; the other mode and unknown ids answer as a wrong code", async () => {
    const user = await register();
    const code = await lastCode(user.id);
    problem(await call(ctx.app, 'POST', '/users/verify-phone', { apiKey: m.live.apiKey }, { userId: user.id, code }), 400, 'otp_incorrect');
    problem(await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { userId: 'usr_nope', code }), 400, 'otp_incorrect');
    problem(await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { code }), 400, 'validation_error');
    problem(await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { userId: user.id }), 400, 'validation_error');
    // `otp` is accepted in place of `code`, and through another merchant's key.
    expect((await call(ctx.app, 'POST', '/users/verify-phone', pk(other), { userId: user.id, otp: code })).json()).toMatchObject({ phoneVerified: true });
  });
});

describe('POST /auth/web', () => {
  async function verifiedUser(password = PASSWORD) {
    const res = await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: phone(), password });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; phoneNumber: string };
  }

  it('answers {id, token, phoneNumber, roles, expiresAt, language} for the right password', async () => {
    const user = await verifiedUser();
    const res = await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: user.phoneNumber, password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'id', 'language', 'phoneNumber', 'roles', 'token']);
    expect(body).toMatchObject({ id: user.id, phoneNumber: user.phoneNumber, roles: ['USER'] });
    expect(body.token.split('.')).toHaveLength(3);
    expect(new Date(body.expiresAt).getTime() - ctx.clock.now().getTime()).toBe(15 * MINUTE);
  });

  it('one answer for an unknown phone number and for a wrong password', async () => {
    const user = await verifiedUser();
    const wrong = problem(
      await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: user.phoneNumber, password: 'not-the-password' }),
      401,
      'invalid_credentials',
    );
    const unknown = problem(
      await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: phone(), password: 'not-the-password' }),
      401,
      'invalid_credentials',
    );
    const { requestId: _a, ...w } = wrong;
    const { requestId: _b, ...u } = unknown;
    expect(w).toEqual(u);
    // The same customer signs in through another merchant; the phone in live mode is unknown here.
    expect((await call(ctx.app, 'POST', '/auth/web', pk(other), { phoneNumber: user.phoneNumber, password: PASSWORD })).json()).toMatchObject({ id: user.id });
    problem(
      await call(ctx.app, 'POST', '/auth/web', { apiKey: m.live.apiKey }, { phoneNumber: user.phoneNumber, password: PASSWORD }),
      401,
      'invalid_credentials',
    );
  });

  // Wall-clock timings on shared cores: a measurement that other processes disturbed is taken
  // again (a new user each time). Without the dummy verification every try fails: 4-10x faster.
  it('an unknown phone number costs about as much as a wrong password (a password hash is verified either way)', { retry: 2 }, async () => {
    // At the production cost: the hash, not the rest of the request, is what must dominate.
    const user = await productionCost(() => verifiedUser());
    const time = async (phoneNumber: string) => {
      const t0 = performance.now();
      await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber, password: 'not-the-password' });
      return performance.now() - t0;
    };
    const unknown: number[] = [];
    const wrong: number[] = [];
    // Five of each (the lockout counts five failures before it refuses): a median that a busy
    // machine's pause in one or two requests does not move.
    await productionCost(async () => {
      await time(phone()); // warm the dummy hash
      for (let i = 0; i < 5; i++) {
        unknown.push(await time(phone()));
        wrong.push(await time(user.phoneNumber));
      }
    });
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[2] as number;
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.5);
    expect(median(wrong)).toBeGreaterThan(median(unknown) * 0.5);
  });

  it('5 failures per phone in 15 minutes lock it: 429 login_locked with Retry-After, even for the right password', async () => {
    const user = await verifiedUser();
    for (let i = 0; i < 5; i++) {
      problem(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: user.phoneNumber, password: `wrong-${i}-password` }), 401, 'invalid_credentials');
      ctx.clock.advance(10 * SECOND);
    }
    const locked = await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: user.phoneNumber, password: PASSWORD });
    problem(locked, 429, 'login_locked');
    // The first failure was 50 s ago: it leaves the window in 15 min − 50 s.
    expect(locked.headers['retry-after']).toBe(String(15 * 60 - 50));
    // Attempts while locked do not extend the lock.
    ctx.clock.advance(15 * MINUTE - 50 * SECOND - SECOND);
    problem(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: user.phoneNumber, password: PASSWORD }), 429, 'login_locked');
    ctx.clock.advance(SECOND);
    expect((await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: user.phoneNumber, password: PASSWORD })).statusCode).toBe(200);
  });

  it("a stranger's wrong passwords lock out that stranger's address only; 100 a day from all addresses lock the number, and a password reset opens it (issue 20)", async () => {
    const user = await verifiedUser();
    const from = (address: string, password: string, url = '/auth/web', body: Record<string, unknown> = { phoneNumber: user.phoneNumber, password }) =>
      ctx.app.inject({ method: 'POST', url, remoteAddress: address, headers: { 'x-api-key': m.apiKey }, payload: body });
    for (let i = 0; i < 5; i++) problem(await from('203.0.113.7', `wrong-${i}-password`), 401, 'invalid_credentials');
    const locked = problem(await from('203.0.113.7', PASSWORD), 429, 'login_locked');
    expect(locked.detail).toMatch(/from this address.*reset the password \(POST \/auth\/password-reset\)/);
    // The customer, elsewhere, signs in (and so forgets the number's failures).
    expect((await from('198.51.100.20', PASSWORD)).statusCode).toBe(200);
    // One IPv6 subscriber (a /64) is one address.
    for (let i = 0; i < 5; i++) problem(await from(`2001:db8:1:2::${i + 1}`, 'wrong-password'), 401, 'invalid_credentials');
    problem(await from('2001:db8:1:2:ffff::9', PASSWORD), 429, 'login_locked');

    // Many addresses: the slower limit per number holds them all to 100 attempts in 24 hours.
    ctx.clock.advance(15 * MINUTE);
    for (let n = 0; n < 19; n++) {
      for (let i = 0; i < 5; i++) problem(await from(`192.0.2.${n + 1}`, 'wrong-password'), 401, 'invalid_credentials');
    }
    const everywhere = problem(await from('198.51.100.20', PASSWORD), 429, 'login_locked');
    expect(everywhere.detail).toMatch(/from all addresses/);
    // The way out: a password reset by SMS code, then the new password works from that address.
    expect((await from('198.51.100.20', '', '/auth/password-reset', { phoneNumber: user.phoneNumber })).statusCode).toBe(202);
    const code = await lastCode(user.id);
    const confirmed = await from('198.51.100.20', '', '/auth/password-reset/confirm', { phoneNumber: user.phoneNumber, code, newPassword: 'kribi-beach-2027' });
    expect(confirmed.statusCode, confirmed.body).toBe(204);
    expect((await from('198.51.100.20', 'kribi-beach-2027')).statusCode).toBe(200);
  });

  it('the lockout is per phone number, applies to unknown numbers too, and a success clears the count', async () => {
    const a = await verifiedUser();
    const b = await verifiedUser();
    const stranger = phone();
    for (let i = 0; i < 5; i++) {
      problem(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: stranger, password: 'nope-nope-nope' }), 401, 'invalid_credentials');
    }
    problem(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: stranger, password: 'nope-nope-nope' }), 429, 'login_locked');
    // Other phone numbers are unaffected; another merchant's same number too.
    for (let i = 0; i < 4; i++) {
      problem(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: a.phoneNumber, password: 'wrong-password' }), 401, 'invalid_credentials');
    }
    expect((await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: a.phoneNumber, password: PASSWORD })).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) {
      problem(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: a.phoneNumber, password: 'wrong-password' }), 401, 'invalid_credentials');
    }
    expect((await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: a.phoneNumber, password: PASSWORD })).statusCode).toBe(200);
    expect((await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: b.phoneNumber, password: PASSWORD })).statusCode).toBe(200);
  });

  it('parallel guesses cannot slip past the lockout', async () => {
    const user = await verifiedUser();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: user.phoneNumber, password: `guess-${i}-guess` })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(7);
    ctx.clock.advance(15 * MINUTE);
  });

  it('403 phone_not_verified for the right password of an unverified phone; 401 for a wrong one', async () => {
    const user = await register();
    problem(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: user.phoneNumber, password: 'wrong-password' }), 401, 'invalid_credentials');
    problem(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: user.phoneNumber, password: PASSWORD }), 403, 'phone_not_verified');
    await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { userId: user.id, code: await lastCode(user.id) });
    expect((await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: user.phoneNumber, password: PASSWORD })).statusCode).toBe(200);
  });

  it('bad input: phone_invalid, missing password, unknown field', async () => {
    problem(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: '0650000000', password: PASSWORD }), 400, 'phone_invalid');
    problem(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: phone() }), 400, 'validation_error');
    problem(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: phone(), password: PASSWORD, remember: true }), 400, 'parameter_unknown');
  });

  it('never logs passwords, codes or tokens', async () => {
    const secret = 'a-very-distinctive-password-42';
    const user = await verifiedUser(secret);
    const token = (await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: user.phoneNumber, password: secret })).json().token as string;
    await call(ctx.app, 'GET', '/wallet', { apiKey: m.apiKey, token });
    const registered = await register();
    const code = await lastCode(registered.id);
    await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { userId: registered.id, code });
    const logs = ctx.logs.join('\n');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(token.split('.')[2]);
    expect(logs).not.toMatch(new RegExp(`code[^\\n]{0,40}${code}`));
  });
});

describe('test helpers', () => {
  it('POST /test/users: a verified user with a funded wallet, in the currency asked', async () => {
    const phoneNumber = phone();
    const res = await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber, password: PASSWORD, balance: '25000' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ object: 'user', phoneNumber, phoneVerified: true, livemode: false, balances: [{ currency: 'XAF', amount: '25000' }] });
    const eur = await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: phone(), password: PASSWORD, balance: '12.50', currency: 'EUR' });
    expect(eur.json().balances).toEqual([
      { currency: 'EUR', amount: '12.50' },
      { currency: 'XAF', amount: '0' },
    ]);
    const empty = await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: phone(), password: PASSWORD });
    expect(empty.json().balances).toEqual([{ currency: 'XAF', amount: '0' }]);
  });

  it("POST /test/users and POST /users: a number as people write it is read in the merchant's country and stored in E.164", async () => {
    const created = await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: '6 50 99 00 01', password: PASSWORD });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ phoneNumber: '+237650990001' });
    // The same customer, signed in with the number written another way.
    expect((await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: '+237 650-99-00-01', password: PASSWORD })).statusCode).toBe(200);
    const dakar = await createMerchant(ctx, 'Dakar');
    await ctx.services.merchants.setCountry(dakar.merchantId, 'SN');
    const senegalese = await call(ctx.app, 'POST', '/test/users', sk(dakar), { phoneNumber: '77 123 45 67', password: PASSWORD });
    expect(senegalese.json()).toMatchObject({ phoneNumber: '+221771234567' });
    // A Cameroonian customer at a Senegalese shop keeps their country code: the same account.
    expect((await call(ctx.app, 'POST', '/auth/web', pk(dakar), { phoneNumber: '00237 6 50 99 00 01', password: PASSWORD })).statusCode).toBe(200);
    const refused = problem(await call(ctx.app, 'POST', '/test/users', sk(dakar), { phoneNumber: '650990002', password: PASSWORD }), 400, 'phone_invalid');
    expect(refused).toMatchObject({ param: 'phoneNumber', country: 'SN', example: '+221 70 123 45 67' });
    const registered = await call(ctx.app, 'POST', '/users', pk(m), { phoneNumber: '6.50.99.00.03', password: PASSWORD });
    expect(registered.statusCode, registered.body).toBe(202);
    expect(registered.json()).toMatchObject({ phoneNumber: '+237650990003' });
  });

  it('POST /test/users: bad input', async () => {
    problem(await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: '123', password: PASSWORD }), 400, 'phone_invalid');
    problem(await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: phone(), password: PASSWORD, balance: '10.5' }), 400, 'amount_invalid');
    problem(await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: phone(), password: PASSWORD, balance: 5000 }), 400, 'amount_invalid');
    problem(
      await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: phone(), password: PASSWORD, balance: '10', currency: 'GBP' }),
      400,
      'currency_unsupported',
    );
    const phoneNumber = phone();
    expect((await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber, password: PASSWORD })).statusCode).toBe(201);
    problem(await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber, password: PASSWORD }), 409, 'already_exists');
  });

  it('are for test secret keys only: 404 with live keys, 401 without the secret key', async () => {
    const live = { apiKey: m.live.apiKey, secretKey: m.live.secretKey };
    problem(await call(ctx.app, 'POST', '/test/users', live, { phoneNumber: phone(), password: PASSWORD }), 404, 'not_found');
    problem(await call(ctx.app, 'POST', '/test/wallets/fund', live, { userId: 'usr_x', amount: '1', currency: 'XAF' }), 404, 'not_found');
    problem(await call(ctx.app, 'GET', '/test/messages', live), 404, 'not_found');
    problem(await call(ctx.app, 'POST', '/test/users', pk(m), { phoneNumber: phone(), password: PASSWORD }), 401, 'secret_key_required');
    problem(await call(ctx.app, 'GET', '/test/messages', pk(m)), 401, 'secret_key_required');
  });

  it("GET /test/messages: newest first, only this merchant's, paginated", async () => {
    const user = await register();
    ctx.clock.advance(30 * SECOND);
    await call(ctx.app, 'POST', '/users/verify-phone/resend', pk(m), { userId: user.id });
    const list = (await call(ctx.app, 'GET', `/test/messages?userId=${user.id}`, sk(m))).json();
    expect(list.data).toHaveLength(2);
    expect(list.data[0].createdAt > list.data[1].createdAt).toBe(true);
    expect(list.hasMore).toBe(false);
    const page = (await call(ctx.app, 'GET', `/test/messages?userId=${user.id}&limit=1`, sk(m))).json();
    expect(page).toMatchObject({ hasMore: true, data: [{ id: list.data[0].id }] });
    expect((await call(ctx.app, 'GET', `/test/messages?userId=${user.id}`, sk(other))).json().data).toEqual([]);
    problem(await call(ctx.app, 'GET', '/test/messages?limit=0', sk(m)), 400, 'validation_error');
  });
});
