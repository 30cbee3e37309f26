import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOtpService } from '../src/modules/otp/otp.service.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { ApiError } from '../src/platform/errors.ts';
import { MINUTE, SECOND } from '../src/platform/clock.ts';
import { callerKey } from '../src/platform/http/idempotency.ts';
import { call, countSocketWrites, createMerchant, createTestContext, onPostgres, sk, type TestContext, type TestMerchant } from './harness.ts';
import {
  accessToken,
  authorize,
  createIntent,
  expectLedgerClean,
  lastMessage,
  merchantContext,
  newUser,
  problem,
  refreshToken,
  registerUser,
} from './flow.support.ts';

/**
 * initOtp and verifyOtp over HTTP (docs/spec/otp-and-charge.md): codes, their limits on the ManualClock, dynamic
 * linking, and the authorization token.
 */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Marché Central');
  other = await createMerchant(ctx, 'Other');
});
afterEach(() => expectLedgerClean(ctx));
afterAll(() => ctx.close());

const init = (user: { id: string; creds: object }, body: Record<string, unknown> = {}) =>
  call(ctx.app, 'POST', '/otp/init', user.creds, { userId: user.id, channel: 'sms', ...body });
const verify = (user: { id: string; creds: object }, otp: string) => call(ctx.app, 'POST', '/otp/verify', user.creds, { userId: user.id, otp });
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** A verified live customer with an access token (live codes are withheld from the outbox, so the phone is marked verified here). */
async function liveUser() {
  const phoneNumber = `+2376920${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`;
  const id = await registerUser(ctx, { apiKey: m.live.apiKey }, { phoneNumber, password: 'limbe-market-2026' }, 'live');
  await ctx.deps.db.updateTable('users').set({ phone_verified_at: ctx.clock.now() }).where('id', '=', id).execute();
  return { id, creds: { apiKey: m.live.apiKey, token: await accessToken(ctx, m, id, 'live') } };
}

describe('initOtp in live mode (issue 20)', () => {
  it('needs intentionId: 400 parameter_missing, and no code is sent', async () => {
    const user = await liveUser();
    const body = problem(await init(user), 400, 'parameter_missing');
    expect(body.param).toBe('intentionId');
    expect(await ctx.deps.db.selectFrom('otp_codes').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('with intentionId it sends the code, and the live outbox row keeps the text without it', async () => {
    const user = await liveUser();
    const intent = await createIntent(ctx, m, {}, { apiKey: m.live.apiKey, secretKey: m.live.secretKey });
    const res = await init(user, { intentionId: intent.id });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await ctx.deps.db
      .selectFrom('messages')
      .select(['body', 'mode'])
      .where('user_id', '=', user.id)
      .where('body', 'like', '%code Caisse%')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.mode).toBe('live');
    // In the merchant's default language (French): the customer chose none, the request named none.
    expect(rows[0]?.body).toMatch(/^\[code withheld\] est votre code Caisse pour payer 5\s000\sFCFA à /);
    expect(rows[0]?.body).not.toMatch(/\d{6}/);
  });
});

describe('initOtp', () => {
  it('sends a 6-digit code by SMS to the verified phone and answers a masked destination', async () => {
    const user = await newUser(ctx, m);
    const res = await init(user);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Record<string, string>;
    const now = ctx.clock.now().getTime();
    expect(body).toEqual({
      object: 'otp_challenge',
      userId: user.id,
      channel: 'sms',
      destination: `+237${'•'.repeat(7)}${user.phoneNumber.slice(-2)}`,
      intentionId: null,
      expiresAt: new Date(now + 5 * MINUTE).toISOString(),
      resendAvailableAt: new Date(now + 30 * SECOND).toISOString(),
    });
    const message = await lastMessage(ctx, m, user.id);
    expect(message.channel).toBe('sms');
    expect(message.to).toBe(user.phoneNumber);
    // French: the user chose no language, the request named none, the merchant's default is French.
    expect(message.body).toMatch(/^\d{6} est votre code Caisse\./);
  });

  it('sends by e-mail to the address on file; without one the answer is 422 email_missing', async () => {
    const withEmail = await newUser(ctx, m, { email: 'amina@example.cm' });
    const res = await init(withEmail, { channel: 'email' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ channel: 'email', destination: 'a•••@example.cm' });
    const message = await lastMessage(ctx, m, withEmail.id);
    expect(message).toMatchObject({ channel: 'email', to: 'amina@example.cm' });

    const without = await newUser(ctx, m);
    problem(await init(without, { channel: 'email' }), 422, 'email_missing');
  });

  it('refuses a phone that was never verified: 403 phone_not_verified', async () => {
    const id = await registerUser(ctx, { apiKey: m.apiKey }, { phoneNumber: '+237698000777', password: 'bafoussam-2026' });
    const unverified = { id, creds: { apiKey: m.apiKey, token: await accessToken(ctx, m, id) } };
    problem(await init(unverified), 403, 'phone_not_verified');
  });

  it('refuses another user (403 user_mismatch), a missing access token and a bad channel', async () => {
    const a = await newUser(ctx, m);
    const b = await newUser(ctx, m);
    problem(await call(ctx.app, 'POST', '/otp/init', a.creds, { userId: b.id, channel: 'sms' }), 403, 'user_mismatch');
    problem(await call(ctx.app, 'POST', '/otp/init', { apiKey: m.apiKey }, { userId: a.id, channel: 'sms' }), 401, 'access_token_missing');
    problem(await init(a, { channel: 'pigeon' }), 400, 'validation_error');
    problem(await init(a, { colour: 'red' }), 400, 'parameter_unknown');
    // Nothing was sent to anyone.
    const res = await call(ctx.app, 'GET', `/test/messages?userId=${b.id}`, sk(m));
    expect((res.json() as { data: unknown[] }).data).toEqual([]);
  });

  it('with intentionId names the amount, the currency and the merchant, and binds the authorization', async () => {
    const user = await newUser(ctx, m, { balance: '10000' });
    const intent = await createIntent(ctx, m, { amount: '7500' });
    const res = await init(user, { intentionId: intent.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ intentionId: intent.id });
    const message = await lastMessage(ctx, m, user.id);
    expect(message.body).toMatch(new RegExp(`^${message.code} est votre code Caisse pour payer 7 500 FCFA à Marché Central\\.`));
    const verified = await verify(user, message.code);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ intentionId: intent.id, userId: user.id });
  });

  it('refuses an intent that cannot be paid: unknown or another merchant 404, canceled 409, expired 409', async () => {
    const user = await newUser(ctx, m);
    problem(await init(user, { intentionId: 'pi_00000000000000000000000000' }), 404, 'not_found');
    const theirs = await createIntent(ctx, other);
    problem(await init(user, { intentionId: theirs.id }), 404, 'not_found');
    const live = await createIntent(ctx, m, {}, { apiKey: m.live.apiKey, secretKey: m.live.secretKey });
    problem(await init(user, { intentionId: live.id }), 404, 'not_found');

    const canceled = await createIntent(ctx, m);
    expect((await call(ctx.app, 'POST', `/gateway/${canceled.id}/cancel`, sk(m))).statusCode).toBe(200);
    expect(problem(await init(user, { intentionId: canceled.id }), 409, 'intent_state_invalid')).toMatchObject({ intentStatus: 'CANCELED' });

    const expiring = await createIntent(ctx, m, { expiresIn: 300 });
    ctx.clock.advance(300 * SECOND);
    problem(await init(user, { intentionId: expiring.id }), 409, 'intent_expired');
    const res = await call(ctx.app, 'GET', `/test/messages?userId=${user.id}`, sk(m));
    expect((res.json() as { data: unknown[] }).data).toEqual([]);
  });

  it('allows one send per 30 s (429 otp_rate_limited with Retry-After) and 5 per 15 minutes', async () => {
    const user = await newUser(ctx, m);
    expect((await init(user)).statusCode).toBe(200);
    ctx.clock.advance(10 * SECOND);
    const early = await init(user);
    problem(early, 429, 'otp_rate_limited');
    expect(early.headers['retry-after']).toBe('20');
    ctx.clock.advance(20 * SECOND);
    for (let i = 2; i <= 5; i++) {
      const res = await init(user);
      expect(res.statusCode, res.body).toBe(200);
      if (i < 5) ctx.clock.advance(30 * SECOND);
    }
    // Five sends at 0, 30, 60, 90, 120 s: the sixth waits for the first to leave the 15 minutes.
    ctx.clock.advance(60 * SECOND);
    const sixth = await init(user);
    problem(sixth, 429, 'otp_rate_limited');
    expect(sixth.headers['retry-after']).toBe(String(15 * 60 - 180));
    ctx.clock.advance((15 * 60 - 180) * SECOND);
    await refreshToken(ctx, m, user);
    expect((await init(user)).statusCode).toBe(200);
  });

  it("the send limit is the customer's across merchants: a code through A, then through B within 30 s, is 429", async () => {
    const user = await newUser(ctx, m);
    const throughOther = { id: user.id, creds: { apiKey: other.apiKey, token: await accessToken(ctx, other, user.id) } };
    expect((await init(user)).statusCode).toBe(200);
    ctx.clock.advance(SECOND);
    const early = await init(throughOther);
    problem(early, 429, 'otp_rate_limited');
    expect(early.headers['retry-after']).toBe('29');
    ctx.clock.advance(29 * SECOND);
    const later = await init(throughOther);
    expect(later.statusCode, later.body).toBe(200);
  });

  it('concurrent sends for one user: one code goes out, the others are 429 (the limit is counted under a lock)', async () => {
    const user = await newUser(ctx, m);
    const answers = await Promise.all(Array.from({ length: 8 }, () => init(user)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of answers.filter((a) => a.statusCode !== 200)) problem(r, 429, 'otp_rate_limited');
    const res = await call(ctx.app, 'GET', `/test/messages?userId=${user.id}`, sk(m));
    expect((res.json() as { data: unknown[] }).data).toHaveLength(1);
  });

  it.runIf(onPostgres)('on PostgreSQL a keyed code for an intent is two round trips, its message and answer committed with it', async () => {
    const user = await newUser(ctx, m);
    // Warm: the user's token and link are known, the statements prepared on the connections.
    for (let i = 0; i < 2; i++) {
      expect((await init(user, { intentionId: (await createIntent(ctx, m)).id })).statusCode).toBe(200);
      ctx.clock.advance(30 * SECOND);
    }
    const intent = await createIntent(ctx, m);
    // The clock moved on: the user's token version is read again once, here.
    expect((await call(ctx.app, 'GET', '/wallet', user.creds)).statusCode).toBe(200);
    let res: Awaited<ReturnType<typeof init>> | undefined;
    const writes = await countSocketWrites(async () => {
      res = await call(
        ctx.app,
        'POST',
        '/otp/init',
        { ...user.creds, headers: { 'idempotency-key': 'two-trips' } },
        {
          userId: user.id,
          channel: 'sms',
          intentionId: intent.id,
        },
      );
    });
    expect(res?.statusCode, res?.body).toBe(200);
    // [claim, BEGIN, contact, intent, send lock, sends] and [started by, code, message, answer, COMMIT].
    expect(writes).toBe(2);
    const stored = await ctx.deps.db
      .selectFrom('idempotency_keys')
      .select(['state', 'response_status'])
      .where('key', '=', callerKey(user.id, 'two-trips'))
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ state: 'done', response_status: 200 });
    const intentRow = await ctx.deps.db.selectFrom('intents').select('started_by').where('id', '=', intent.id).executeTakeFirstOrThrow();
    expect(intentRow.started_by).toBe(user.id);
    expect((await lastMessage(ctx, m, user.id)).code).toMatch(/^\d{6}$/);
  });

  it('a code the provider did not take is forgotten: the previous code stays live and no send is counted', async () => {
    const user = await newUser(ctx, m);
    await init(user);
    const first = await lastMessage(ctx, m, user.id);
    ctx.clock.advance(30 * SECOND);
    const failing = createOtpService(ctx.deps, {
      users: ctx.services.users,
      intents: ctx.services.intents,
      messaging: {
        send: async () => {
          throw new ApiError('unavailable', 'The sms provider did not take the message; try again later');
        },
        // Written with the code, then refused by the provider after the commit.
        stage: async () => ({
          stored: false,
          provider: 'africastalking',
          deliver: async () => {
            throw new ApiError('unavailable', 'The sms provider did not take the message; try again later');
          },
        }),
      },
    });
    const merchant = await merchantContext(ctx, m);
    await expect(failing.init(merchant, { userId: user.id }, { userId: user.id, channel: 'sms' })).rejects.toMatchObject({ code: 'unavailable' });
    expect(await ctx.deps.db.selectFrom('otp_codes').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);
    // Not counted: a send is allowed at once, and the first code still works until replaced.
    expect((await verify(user, first.code)).statusCode).toBe(200);
    expect((await init(user)).statusCode).toBe(200);
  });

  it('says when a resend is allowed: 30 s after the send, or later when the 15-minute quota is spent', async () => {
    const user = await newUser(ctx, m);
    for (let i = 1; i <= 5; i++) {
      const res = await init(user);
      const body = res.json() as { resendAvailableAt: string };
      const now = ctx.clock.now().getTime();
      expect(body.resendAvailableAt).toBe(new Date(i < 5 ? now + 30 * SECOND : now - 120 * SECOND + 15 * MINUTE).toISOString());
      ctx.clock.advance(30 * SECOND);
    }
  });
});

describe('verifyOtp', () => {
  it('exchanges the code for a single-use token valid 10 minutes, stored only as its SHA-256', async () => {
    const user = await newUser(ctx, m);
    await init(user);
    const { code } = await lastMessage(ctx, m, user.id);
    const res = await verify(user, code);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { authorizationToken: string; expiresAt: string };
    expect(body).toEqual({
      object: 'otp_authorization',
      authorizationToken: expect.stringMatching(/^otp_[0-9A-Za-z]{43}$/),
      expiresAt: new Date(ctx.clock.now().getTime() + 10 * MINUTE).toISOString(),
      userId: user.id,
      intentionId: null,
    });
    const stored = await ctx.deps.db.selectFrom('otp_authorizations').selectAll().where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash.equals(sha256(body.authorizationToken))).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(body.authorizationToken.slice(4));

    // The code is spent: the same code again is no longer valid.
    expect(problem(await verify(user, code), 400, 'otp_incorrect')).toMatchObject({ attemptsRemaining: 0 });
  });

  it('keeps codes only as keyed hashes, and no code or token reaches the logs', async () => {
    const user = await newUser(ctx, m);
    await init(user);
    const { code } = await lastMessage(ctx, m, user.id);
    const rows = await ctx.deps.db.selectFrom('otp_codes').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.code_hash).toHaveLength(32);
    expect(JSON.stringify(rows)).not.toContain(code);
    const res = await verify(user, code);
    const token = (res.json() as { authorizationToken: string }).authorizationToken;
    const logs = ctx.logs.join('\n');
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(`"${code}"`);
  });

  it('counts wrong codes (400 otp_incorrect with attemptsRemaining), then 429 until a new code is sent', async () => {
    const user = await newUser(ctx, m);
    await init(user);
    const { code } = await lastMessage(ctx, m, user.id);
    for (let left = 4; left >= 0; left--) {
      const body = problem(await verify(user, wrongCode(code)), 400, 'otp_incorrect');
      expect(body.attemptsRemaining).toBe(left);
      expect(body.param).toBe('otp');
    }
    // Locked: even the right code is refused now.
    const locked = await verify(user, code);
    problem(locked, 429, 'otp_attempts_exceeded');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    ctx.clock.advance(30 * SECOND);
    expect((await init(user)).statusCode).toBe(200);
    const fresh = await lastMessage(ctx, m, user.id);
    expect((await verify(user, fresh.code)).statusCode).toBe(200);
  });

  it('counts concurrent wrong guesses exactly: 5 at most, whatever the interleaving', async () => {
    const user = await newUser(ctx, m);
    await init(user);
    const { code } = await lastMessage(ctx, m, user.id);
    const guesses = await Promise.all(Array.from({ length: 12 }, () => verify(user, wrongCode(code))));
    expect(guesses.filter((r) => r.statusCode === 400)).toHaveLength(5);
    expect(guesses.filter((r) => r.statusCode === 429)).toHaveLength(7);
    problem(await verify(user, code), 429, 'otp_attempts_exceeded');
  });

  it('20 wrong codes in a UTC day: 429 otp_daily_limit until the next day, and one SMS to the customer (issue 20)', async () => {
    const user = await newUser(ctx, m);
    const bystander = await newUser(ctx, m);
    const answers: number[] = [];
    for (let round = 0; round < 4; round++) {
      ctx.clock.advance(31 * SECOND);
      expect((await init(user)).statusCode).toBe(200);
      const { code } = await lastMessage(ctx, m, user.id);
      for (let i = 0; i < 5; i++) answers.push((await verify(user, wrongCode(code))).statusCode);
    }
    // 19 wrong codes answered as such; the 20th closes the day.
    expect(answers.slice(0, 19).every((s) => s === 400)).toBe(true);
    const now = ctx.clock.now();
    const nextDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const untilTomorrow = String(Math.ceil((nextDay - now.getTime()) / 1000));
    ctx.clock.advance(31 * SECOND);
    for (const res of [await init(user), await verify(user, '123456')]) {
      const body = problem(res, 429, 'otp_daily_limit');
      expect(body.detail).toMatch(/20 wrong codes today.*00:00 UTC/);
      expect(Number(res.headers['retry-after'])).toBe(Number(untilTomorrow) - 31);
    }
    expect(answers[19]).toBe(429);
    // The customer is told once, by SMS to the phone on file, in the merchant's default language
    // (French: the customer chose none, the requests named none; see languages.test.ts for English).
    const messages = (await call(ctx.app, 'GET', `/test/messages?userId=${user.id}`, sk(m))).json().data as { body: string; to: string }[];
    const alerts = messages.filter((x) => /codes erronés/.test(x.body));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.to).toBe(user.phoneNumber);
    expect(alerts[0]?.body).toBe(
      "Caisse : 20 codes erronés ont été saisis aujourd'hui pour votre compte, les codes de paiement sont donc suspendus jusqu'à demain (00 h 00 UTC). Si ce n'était pas vous, changez votre mot de passe.",
    );
    // Another customer is not concerned; the next UTC day opens again.
    expect((await init(bystander)).statusCode).toBe(200);
    ctx.clock.set(new Date(nextDay));
    await refreshToken(ctx, m, user);
    expect((await init(user)).statusCode).toBe(200);
    const fresh = await lastMessage(ctx, m, user.id);
    expect((await verify(user, fresh.code)).statusCode).toBe(200);
  });

  it('a new code voids the old one', async () => {
    const user = await newUser(ctx, m);
    await init(user);
    const first = await lastMessage(ctx, m, user.id);
    ctx.clock.advance(30 * SECOND);
    await init(user);
    const second = await lastMessage(ctx, m, user.id);
    if (second.code !== first.code) problem(await verify(user, first.code), 400, 'otp_incorrect');
    expect((await verify(user, second.code)).statusCode).toBe(200);
  });

  it('a code lives 5 minutes; after that, and with no code at all, otp_incorrect with 0 attempts remaining', async () => {
    const never = await newUser(ctx, m);
    expect(problem(await verify(never, '123456'), 400, 'otp_incorrect')).toMatchObject({ attemptsRemaining: 0 });

    const user = await newUser(ctx, m);
    await init(user);
    const { code } = await lastMessage(ctx, m, user.id);
    ctx.clock.advance(5 * MINUTE);
    expect(problem(await verify(user, code), 400, 'otp_incorrect')).toMatchObject({ attemptsRemaining: 0 });

    const other = await newUser(ctx, m);
    await init(other);
    const ok = await lastMessage(ctx, m, other.id);
    ctx.clock.advance(5 * MINUTE - 1);
    expect((await verify(other, ok.code)).statusCode).toBe(200);
  });

  it("refuses another user's code and a token of another user (403 user_mismatch)", async () => {
    const a = await newUser(ctx, m);
    const b = await newUser(ctx, m);
    await init(a);
    const { code } = await lastMessage(ctx, m, a.id);
    problem(await call(ctx.app, 'POST', '/otp/verify', b.creds, { userId: a.id, otp: code }), 403, 'user_mismatch');
    // b has no code of its own: a's code is not b's.
    expect(problem(await verify(b, code), 400, 'otp_incorrect')).toMatchObject({ attemptsRemaining: 0 });
    // a's code is intact (the mismatch was refused before any try was counted).
    expect((await verify(a, code)).statusCode).toBe(200);
  });

  it('codes of one mode do not exist in the other', async () => {
    const user = await newUser(ctx, m);
    await init(user);
    const { code } = await lastMessage(ctx, m, user.id);
    // The test user's access token does not open live mode at all.
    const live = await call(ctx.app, 'POST', '/otp/verify', { apiKey: m.live.apiKey, token: user.creds.token }, { userId: user.id, otp: code });
    problem(live, 401, 'access_token_invalid');
    expect(await authorize(ctx, m, await newUser(ctx, m))).toMatch(/^otp_/);
  });
});
