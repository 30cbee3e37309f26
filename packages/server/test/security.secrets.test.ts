import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src/platform/errors.ts';
import { redactText, redactUrl } from '../src/platform/logger.ts';
import { type Creds, call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

/**
 * docs/spec/request-rules.md and the brief: logs and error bodies never contain keys, tokens, passwords, OTPs or
 * full phone numbers. Requests carrying all of them are sent to every registered route, and to
 * routes that misbehave on purpose (log their whole input, echo it in an error); then the
 * captured log lines and every error body are searched for each secret.
 */
const PHONE = '+237699123456';
const PASSWORD = 'Hunter2-Kribi-Secret!';
const OTP = '493817';
const OTP_TOKEN = 'otpauth_Zq8vN3kLmP0aXw5RtY7uBc1dEf9gHi2J';
const FAKE_JWT = 'eyJhbGciOiJFZERTQSIsImtpZCI6ImsxIn0.eyJzdWIiOiJ1c3JfMDEyMzQ1Njc4OSJ9.QmFkU2lnbmF0dXJlQmFkU2lnbmF0dXJl';

function misbehavingRoutes(app: FastifyInstance) {
  app.post('/t/careless', async (request) => {
    request.log.info({ body: request.body, headers: request.headers, url: request.url }, 'careless module logged its input');
    throw new Error(`failed for ${JSON.stringify(request.body)} with ${request.headers['x-api-key']} and ${request.headers.authorization}`);
  });
  app.post('/t/echo', async (request) => {
    const body = request.body as Record<string, string>;
    throw new ApiError('validation_error', `Cannot use ${body.phoneNumber} with ${body.sessionToken}, ${body.token} and ${request.headers['x-api-key']}`);
  });
}

let ctx: TestContext;
let m: TestMerchant;
const secrets: Record<string, string> = {};
const errorBodies: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ beforeReady: misbehavingRoutes });
  m = await createMerchant(ctx, 'Secretive');
  Object.assign(secrets, {
    apiKey: m.apiKey,
    secretKey: m.secretKey,
    liveApiKey: m.live.apiKey,
    liveSecretKey: m.live.secretKey,
    password: PASSWORD,
    otp: OTP,
    otpToken: OTP_TOKEN,
    jwt: FAKE_JWT,
    phone: PHONE,
    phoneDigits: PHONE.slice(1),
    phoneEncoded: encodeURIComponent(PHONE),
  });
}, 60_000);
afterAll(() => ctx.close());

function record<T extends { statusCode: number; body: string }>(res: T): T {
  if (res.statusCode >= 400) errorBodies.push(res.body);
  return res;
}

/** Makes a real user and intent where the modules exist, for a real access token and session token. */
async function realSecrets(): Promise<{ token?: string; sessionToken?: string }> {
  const out: { token?: string; sessionToken?: string } = {};
  const created = await call(ctx.app, 'POST', '/test/users', sk(m), { phoneNumber: PHONE, password: PASSWORD });
  if (created.statusCode === 201) {
    const login = record(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: PHONE, password: PASSWORD }));
    if (login.statusCode === 200) out.token = (login.json() as { token: string }).token;
    // A failed login too: the password must not leak from that path either.
    record(await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber: PHONE, password: `${PASSWORD}x` }));
  }
  const intent = await call(ctx.app, 'POST', '/gateway', sk(m), { amount: '5000', currency: 'XAF' });
  if (intent.statusCode === 201 || intent.statusCode === 200) out.sessionToken = (intent.json() as { sessionToken?: string }).sessionToken;
  return out;
}

describe('no secret in logs or error bodies', () => {
  it('requests carrying every kind of secret, at every route, leave none of them behind', async () => {
    const real = await realSecrets();
    const has = (url: string) => ctx.app.registeredRoutes.some((r) => r.url === url);
    if (has('/auth/web') && has('/test/users')) expect(real.token, 'a real access token').toBeDefined();
    if (has('/gateway')) expect(real.sessionToken, 'a real session token').toBeDefined();
    if (real.token) secrets.accessToken = real.token;
    if (real.sessionToken) secrets.sessionToken = real.sessionToken;

    const body = {
      phoneNumber: PHONE,
      password: PASSWORD,
      otp: OTP,
      code: OTP,
      authorizationToken: OTP_TOKEN,
      token: FAKE_JWT,
      sessionToken: real.sessionToken ?? 'ps_NoSessionTokenHereButLongEnough000',
      apiKey: m.apiKey,
      secretKey: m.secretKey,
    };
    const query = `?password=${encodeURIComponent(PASSWORD)}&otp=${OTP}&phoneNumber=${encodeURIComponent(PHONE)}&token=${FAKE_JWT}`;
    const credentialSets: Creds[] = [
      sk(m),
      { apiKey: m.live.apiKey, secretKey: m.live.secretKey },
      { apiKey: m.apiKey, token: real.token ?? FAKE_JWT },
      { apiKey: m.apiKey, token: FAKE_JWT },
      { apiKey: m.apiKey, secretKey: m.live.secretKey },
    ];
    let sent = 0;
    for (const route of ctx.app.registeredRoutes) {
      if (route.url.startsWith('/docs')) continue;
      const url = route.url.replace(/:[A-Za-z]+/g, body.sessionToken) + query;
      for (const creds of credentialSets) {
        const headers = { ...(creds.headers ?? {}), 'x-otp-token': OTP_TOKEN, 'idempotency-key': `idem-${sent}` };
        const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
        record(await call(ctx.app, route.method as 'POST', url, { ...creds, headers }, hasBody ? body : undefined));
        sent++;
      }
    }
    // A secret in a path that matches no route, and in a URL the router cannot decode.
    record(await call(ctx.app, 'GET', `/gateway/session/${body.sessionToken}/${m.secretKey}/${encodeURIComponent(PHONE)}`, pk(m)));
    record(await call(ctx.app, 'DELETE', `/users?password=${PASSWORD}`, pk(m)));
    // Modules that misbehave: a log of the whole input, an echo of it in an error, a 500.
    record(await call(ctx.app, 'POST', '/t/careless', { apiKey: m.apiKey, token: real.token ?? FAKE_JWT }, body));
    const echo = record(await call(ctx.app, 'POST', '/t/echo', pk(m), body));
    expect(echo.statusCode).toBe(400);

    const logs = ctx.logs.join('\n');
    // The suite is not vacuous: the requests were logged, the careless ones included.
    expect(sent).toBeGreaterThan(20);
    expect(logs).toContain('careless module logged its input');
    expect(logs).toContain('unhandled error');
    expect(logs).toContain('[redacted]');
    expect(logs).toContain('+237*******56');
    expect(errorBodies.length).toBeGreaterThan(20);

    const everything = `${logs}\n${errorBodies.join('\n')}`;
    for (const [name, value] of Object.entries(secrets)) {
      expect(everything.includes(value), `${name} (${value.slice(0, 12)}…) found in logs or error bodies`).toBe(false);
    }
    // Also the key bodies alone, in case something strips the prefix.
    for (const key of [m.apiKey, m.secretKey]) expect(everything).not.toContain(key.slice(8));
  }, 120_000);
});

describe('redactText', () => {
  it('masks keys, session tokens, webhook secrets, JWTs and phone numbers, and keeps error codes', () => {
    const text = `k=${m.apiKey} s=${m.secretKey} ps_${'a'.repeat(43)} whsec_${'Ab+/'.repeat(11)}= ${FAKE_JWT} ${PHONE} otp_incorrect otp_rate_limited pi_0123456789abcdefghjkmnpqrs`;
    const out = redactText(`${text} /gateway/ps_${'b'.repeat(20)}/${m.secretKey}`);
    expect(out).toContain('/gateway/ps_[redacted]/sk_test_[redacted]');
    expect(out).not.toContain(m.apiKey.slice(8));
    expect(out).not.toContain(m.secretKey.slice(8));
    expect(out).not.toContain('a'.repeat(43));
    expect(out).not.toContain('Ab+/Ab+/');
    expect(out).not.toContain(FAKE_JWT.slice(4));
    expect(out).not.toContain(PHONE);
    expect(out).toContain('+237*******56');
    expect(out).toContain('otp_incorrect otp_rate_limited');
    expect(out).toContain('pi_0123456789abcdefghjkmnpqrs');
  });

  it('masks members named like secrets, at any depth, and phone numbers without their +', () => {
    const line = JSON.stringify({
      a: { b: { password: PASSWORD, newPassword: 'x', otp: 123456, accessToken: 't', cookie: 'c' } },
      recipientPhone: '237699123456',
      msg: 'ok',
    });
    const out = redactText(line);
    expect(out).not.toContain(PASSWORD);
    expect(out).not.toContain('123456');
    expect(out).not.toContain('237699123456');
    expect(JSON.parse(out)).toMatchObject({
      a: { b: { password: '[redacted]', newPassword: '[redacted]', otp: '[redacted]', accessToken: '[redacted]', cookie: '[redacted]' } },
      msg: 'ok',
    });
  });

  it('masks JSON quoted inside a string (an error message that quotes a body), and one-time codes', () => {
    const message = JSON.stringify({
      err: { message: `failed for ${JSON.stringify({ password: PASSWORD, code: OTP, phoneNumber: '237699123456', name: 'ok' })}` },
    });
    const out = redactText(message);
    expect(out).not.toContain(PASSWORD);
    expect(out).not.toContain(OTP);
    expect(out).not.toContain('237699123456');
    expect((JSON.parse(JSON.parse(out).err.message.slice('failed for '.length)) as Record<string, string>).password).toBe('[redacted]');
    // Error codes, status codes and other numbers stay.
    const kept = JSON.stringify({ code: 'otp_incorrect', statusCode: 429, attemptsRemaining: 4, amount: '5000' });
    expect(redactText(kept)).toBe(kept);
  });

  it('masks secret query parameters in URLs', () => {
    expect(redactUrl(`/x?password=${PASSWORD}&limit=5&otp=${OTP}&phone=${encodeURIComponent(PHONE)}`)).toBe(
      '/x?password=[redacted]&limit=5&otp=[redacted]&phone=%2B237*******56',
    );
  });
});
