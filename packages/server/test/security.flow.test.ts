import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Creds, call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { expectProblem } from './security.support.ts';

/**
 * A full payment flow through HTTP (registration with its SMS code, login, intent, initOtp,
 * verifyOtp, charge, refund, a webhook endpoint, Idempotency-Key on every POST), then:
 * - every table of the database is read and searched for any plaintext key, session token, OTP
 *   code, authorization token, access token, webhook secret or password: none may be found;
 * - user routes are called with another user's token: 403 `user_mismatch` (or 401 for the
 *   authorization token of another user).
 *
 * One exception, by docs/spec/otp-and-charge.md: in test mode the outbox keeps the text of each message (it is
 * what `GET /test/messages` shows), and that text holds the code. Live-mode messages keep none.
 */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;
const secrets = new Map<string, string>();
let idem = 0;

const needed = [
  'POST /users',
  'POST /users/verify-phone',
  'POST /auth/web',
  'POST /test/users',
  'GET /test/messages',
  'POST /gateway',
  'POST /otp/init',
  'POST /otp/verify',
  'POST /charge',
  'POST /gateway/:id/refunds',
  'POST /webhook-endpoints',
];
let ready = false;

function post(url: string, creds: Creds, body: unknown, headers: Record<string, string> = {}) {
  return call(ctx.app, 'POST', url, { ...creds, headers: { ...(creds.headers ?? {}), ...headers, 'idempotency-key': `flow-${idem++}` } }, body);
}

async function lastCode(userId: string): Promise<string> {
  const res = await call(ctx.app, 'GET', `/test/messages?userId=${userId}`, sk(m));
  expect(res.statusCode).toBe(200);
  const text = (res.json() as { data: { body: string }[] }).data[0]?.body ?? '';
  const code = /\b\d{6}\b/.exec(text)?.[0];
  expect(code, `a code in "${text}"`).toBeDefined();
  return code as string;
}

let payer: { id: string; token: string };
let stranger: { id: string; token: string };
let intentId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  ready = needed.every((n) => ctx.app.registeredRoutes.some((r) => `${r.method} ${r.url}` === n));
  if (!ready) return;
  m = await createMerchant(ctx, 'Flow');
  other = await createMerchant(ctx, 'Elsewhere');
  for (const [name, value] of Object.entries({
    apiKey: m.apiKey,
    secretKey: m.secretKey,
    liveApiKey: m.live.apiKey,
    liveSecretKey: m.live.secretKey,
    otherSecretKey: other.secretKey,
    dashboardPassword: m.dashboard.password,
  })) {
    secrets.set(name, value);
  }

  // Registration with its SMS code, as a browser would do it.
  const phone = '+237650123456';
  const password = 'Flow-Registration-Pass-91';
  secrets.set('registrationPassword', password);
  const registered = await post('/users', pk(m), { phoneNumber: phone, password });
  expect(registered.statusCode, registered.body).toBe(202);
  const registeredId = (
    await ctx.deps.db.selectFrom('users').select('id').where('mode', '=', 'test').where('phone_number', '=', phone).executeTakeFirstOrThrow()
  ).id;
  const phoneCode = await lastCode(registeredId);
  secrets.set('phoneCode', phoneCode);
  const verified = await post('/users/verify-phone', pk(m), { userId: registeredId, code: phoneCode });
  expect(verified.statusCode, verified.body).toBeLessThan(300);
  const login = await post('/auth/web', pk(m), { phoneNumber: phone, password });
  expect(login.statusCode, login.body).toBe(200);
  secrets.set('registeredAccessToken', login.json().token);

  // A funded payer and a second user, with their access tokens.
  async function testUser(phoneNumber: string, pass: string) {
    secrets.set(`password ${phoneNumber}`, pass);
    const user = await post('/test/users', sk(m), { phoneNumber, password: pass, balance: '20000' });
    expect(user.statusCode, user.body).toBe(201);
    const auth = await post('/auth/web', pk(m), { phoneNumber, password: pass });
    expect(auth.statusCode, auth.body).toBe(200);
    secrets.set(`accessToken ${phoneNumber}`, auth.json().token);
    return { id: user.json().id as string, token: auth.json().token as string };
  }
  payer = await testUser('+237650000101', 'Payer-Pass-Kribi-7');
  stranger = await testUser('+237650000102', 'Stranger-Pass-Limbe-8');

  const hook = await post('/webhook-endpoints', sk(m), { url: 'https://shop.example.com/hooks' });
  expect(hook.statusCode, hook.body).toBe(201);
  secrets.set('webhookSecret', hook.json().secret);

  const intent = await post('/gateway', sk(m), { amount: '5000', currency: 'XAF', metadata: { order: 'A-1' } });
  expect(intent.statusCode, intent.body).toBe(201);
  intentId = intent.json().id;
  secrets.set('sessionToken', intent.json().sessionToken);

  // initOtp → the code from the outbox → verifyOtp → charge → a partial refund.
  const asPayer = { apiKey: m.apiKey, token: payer.token };
  const init = await post('/otp/init', asPayer, { userId: payer.id, channel: 'sms', intentionId: intentId });
  expect(init.statusCode, init.body).toBeLessThan(300);
  const otp = await lastCode(payer.id);
  secrets.set('otp', otp);
  const verify = await post('/otp/verify', asPayer, { userId: payer.id, otp });
  expect(verify.statusCode, verify.body).toBeLessThan(300);
  const authorizationToken = verify.json().authorizationToken as string;
  secrets.set('authorizationToken', authorizationToken);
  const charge = await post('/charge', asPayer, { intentionId: intentId }, { 'x-otp-token': authorizationToken });
  expect(charge.statusCode, charge.body).toBe(200);
  expect(charge.json().status).toBe('SUCCEEDED');
  const refund = await post(`/gateway/${intentId}/refunds`, sk(m), { amount: '1000' });
  expect(refund.statusCode, refund.body).toBe(201);

  // A code sent and never used, and an authorization token never spent: both must be at rest as hashes.
  // (A user may ask for one code per 30 s: the clock moves on between sends.)
  const intent2 = await post('/gateway', sk(m), { amount: '700', currency: 'XAF' });
  ctx.clock.advance(31_000);
  expect((await post('/otp/init', asPayer, { userId: payer.id, channel: 'sms', intentionId: intent2.json().id })).statusCode).toBeLessThan(300);
  const otp2 = await lastCode(payer.id);
  secrets.set('otp (unused authorization)', otp2);
  const verify2 = await post('/otp/verify', asPayer, { userId: payer.id, otp: otp2 });
  expect(verify2.statusCode, verify2.body).toBeLessThan(300);
  secrets.set('authorizationToken (unspent)', verify2.json().authorizationToken);
  ctx.clock.advance(31_000);
  expect((await post('/otp/init', asPayer, { userId: payer.id, channel: 'sms' })).statusCode).toBeLessThan(300);
  secrets.set('otp (never verified)', await lastCode(payer.id));
  // Every secret is a real value, and each one differs from the others.
  for (const [name, value] of secrets) expect(typeof value === 'string' && value.length >= 6, name).toBe(true);
  expect(new Set(secrets.values()).size).toBe(secrets.size);
}, 120_000);
afterAll(() => ctx.close());

/** Every value of every row, as text: strings as they are, bytes as hex, base64 and UTF-8. */
function dump(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) {
    const b = Buffer.from(value);
    return `${b.toString('hex')} ${b.toString('base64')} ${b.toString('utf8')}`;
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object')
    return (
      Object.values(value as Record<string, unknown>)
        .map(dump)
        .join(' ') + JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? String(v) : v))
    );
  return String(value);
}

/**
 * Whether `text` holds `secret`. A short one (the six-digit code) counts only as a value of its
 * own: inside a hash's hex or base64 any six digits turn up by chance now and then.
 */
function leaks(text: string, secret: string): boolean {
  if (secret.length >= 12) return text.includes(secret);
  return new RegExp(`(?<![0-9A-Za-z+/])${secret.replace(/[^0-9A-Za-z]/g, '\\$&')}(?![0-9A-Za-z+/])`).test(text);
}

describe('after a full payment flow', () => {
  it('no table holds a plaintext key, token, code, secret or password', async (t) => {
    if (!ready) t.skip();
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(ctx.deps.db);
    expect(tables.rows.length).toBeGreaterThan(10);
    const found: string[] = [];
    let rowsRead = 0;
    for (const { table_name } of tables.rows) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table_name)}`.execute(ctx.deps.db);
      for (const row of rows.rows) {
        rowsRead++;
        // docs/spec/otp-and-charge.md: the test-mode outbox shows each message's text, code included.
        const shown = table_name === 'messages' && row.mode === 'test' ? { ...row, body: null } : row;
        const text = dump(shown);
        for (const [name, value] of secrets) {
          if (leaks(text, value)) found.push(`${name} in ${table_name}`);
        }
      }
    }
    expect(rowsRead).toBeGreaterThan(30);
    expect(found).toEqual([]);
  });

  it('the logs of the whole flow hold none of them either', (t) => {
    if (!ready) t.skip();
    const logs = ctx.logs.join('\n');
    expect(logs).toContain('request completed');
    const found = [...secrets].filter(([, value]) => logs.includes(value)).map(([name]) => name);
    expect(found).toEqual([]);
  });
});

describe("user routes with another user's token", () => {
  it("initOtp, verifyOtp and charge for the payer, with the stranger's token: 403 user_mismatch", async (t) => {
    if (!ready) t.skip();
    const asStranger = { apiKey: m.apiKey, token: stranger.token };
    expectProblem(await post('/otp/init', asStranger, { userId: payer.id, channel: 'sms' }), 403, 'user_mismatch');
    expectProblem(await post('/otp/verify', asStranger, { userId: payer.id, otp: '123456' }), 403, 'user_mismatch');
    const intent = await post('/gateway', sk(m), { amount: '100', currency: 'XAF' });
    expectProblem(
      await post('/charge', asStranger, { intentionId: intent.json().id, userId: payer.id }, { 'x-otp-token': 'otp_0000000000000000000000000000' }),
      403,
      'user_mismatch',
    );
  });

  it("the payer's authorization token with the stranger's access token is refused, and spends nothing", async (t) => {
    if (!ready) t.skip();
    const asPayer = { apiKey: m.apiKey, token: payer.token };
    const intent = await post('/gateway', sk(m), { amount: '300', currency: 'XAF' });
    ctx.clock.advance(31_000);
    await post('/otp/init', asPayer, { userId: payer.id, channel: 'sms', intentionId: intent.json().id });
    const verify = await post('/otp/verify', asPayer, { userId: payer.id, otp: await lastCode(payer.id) });
    expect(verify.statusCode, verify.body).toBe(200);
    const token = verify.json().authorizationToken as string;
    const asStranger = { apiKey: m.apiKey, token: stranger.token };
    expectProblem(await post('/charge', asStranger, { intentionId: intent.json().id }, { 'x-otp-token': token }), 401, 'otp_token_invalid');
    // Still good for its own user.
    const charged = await post('/charge', asPayer, { intentionId: intent.json().id }, { 'x-otp-token': token });
    expect(charged.statusCode, charged.body).toBe(200);
  });

  it('every user route refuses a token of another merchant or mode, and the stranger never sees the payer', async (t) => {
    if (!ready) t.skip();
    const userRoutes = ctx.app.registeredRoutes.filter((r) => r.auth === 'user');
    expect(userRoutes.length).toBeGreaterThanOrEqual(4);
    for (const route of userRoutes) {
      for (const apiKey of [other.apiKey, m.live.apiKey]) {
        const res = await call(
          ctx.app,
          route.method as 'GET',
          route.url,
          { apiKey, token: payer.token, headers: { 'x-otp-token': 'otp_0000000000000000000000000000' } },
          route.method === 'GET' ? undefined : { userId: payer.id },
        );
        expectProblem(res, 401, 'access_token_invalid');
      }
    }
    const wallet = await call(ctx.app, 'GET', '/wallet', { apiKey: m.apiKey, token: stranger.token });
    expect(wallet.statusCode).toBe(200);
    expect(wallet.body).not.toContain(payer.id);
    expect(wallet.body).not.toContain(intentId);
  });
});
