/**
 * Customers (docs/spec/customers.md): one account per mode and phone number that pays every merchant, what
 * each merchant may see of it, no phone enumeration with a publishable key, password reset and
 * change voiding older tokens, and the move from per-merchant users with nothing lost.
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifyLedger } from '../src/modules/ledger/index.ts';
import { TOKEN_VERSION_TTL_MS } from '../src/modules/users/index.ts';
import { type OpenedDb, openPglite, openPostgres } from '../src/platform/db.ts';
import { migrate, readMigrations } from '../src/platform/migrations.ts';
import { authorize, charge, createIntent, expectLedgerClean, PASSWORD } from './flow.support.ts';
import { call, createMerchant, createTestContext, pk, setTotpEnrolled, sk, TEST_DATABASE_URL, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let a: TestMerchant;
let b: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  a = await createMerchant(ctx, 'Alpha');
  b = await createMerchant(ctx, 'Bravo');
});
afterAll(() => ctx?.close());

/** A Cameroonian mobile number, random (a clash in one file is one in 90 million). */
const newPhone = () => `+2376${String((randomBytes(4).readUInt32BE(0) % 50_000_000) + 50_000_000)}`;

const signIn = (m: TestMerchant, phoneNumber: string, password: string) => call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber, password });

async function lastCode(m: TestMerchant, phoneNumber: string): Promise<string> {
  const res = await call(ctx.app, 'GET', '/test/messages?limit=100', sk(m));
  const found = (res.json() as { data: { to: string; body: string }[] }).data.find((x) => x.to === phoneNumber);
  const code = found?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code sent to ${phoneNumber}`);
  return code;
}

/** The keys of a JSON value and the types of its leaves: what "the same shape" means. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .map(([k, v]) => [k, shape(v)])
        .sort(),
    );
  return typeof value;
}

describe('one customer, every merchant', () => {
  it('a customer made through A signs in through B with the same password and pays B from the same wallet; each merchant sees only what it may', async () => {
    const phoneNumber = newPhone();
    const made = await call(ctx.app, 'POST', '/test/users', sk(a), { phoneNumber, password: PASSWORD, balance: '8000' });
    expect(made.statusCode, made.body).toBe(201);
    const id = (made.json() as { id: string }).id;

    // B has never seen the customer: 404, as for an id that does not exist.
    expect((await call(ctx.app, 'GET', `/users/${id}`, sk(b))).statusCode).toBe(404);
    expect((await call(ctx.app, 'GET', '/users', sk(b))).json()).toMatchObject({ data: [] });
    expect((await call(ctx.app, 'GET', `/users/${id}`, sk(a))).json()).toMatchObject({ id, phoneNumber, object: 'user' });

    const viaB = await signIn(b, phoneNumber, PASSWORD);
    expect(viaB.statusCode, viaB.body).toBe(200);
    expect(viaB.json()).toMatchObject({ id });
    const tokenB = (viaB.json() as { token: string }).token;
    const viaA = (await signIn(a, phoneNumber, PASSWORD)).json() as { id: string; token: string };
    expect(viaA.id).toBe(id);

    // A token is bound to the merchant whose key obtained it.
    expect((await call(ctx.app, 'GET', '/wallet', { apiKey: a.apiKey, token: tokenB })).statusCode).toBe(401);
    expect((await call(ctx.app, 'GET', '/wallet', { apiKey: b.apiKey, token: tokenB })).json()).toMatchObject({
      balances: [{ currency: 'XAF', amount: '8000' }],
    });

    const user = { id, phoneNumber, creds: { apiKey: b.apiKey, token: tokenB } };
    const intent = await createIntent(ctx, b, { amount: '3000' });
    const otpToken = await authorize(ctx, b, user, intent.id);
    const paid = await charge(ctx, user, intent.id, otpToken);
    expect(paid.statusCode, paid.body).toBe(200);

    // One wallet: what B was paid left the wallet A's helper funded.
    expect((await call(ctx.app, 'GET', '/wallet', { apiKey: a.apiKey, token: viaA.token })).json()).toMatchObject({
      balances: [{ currency: 'XAF', amount: '5000' }],
    });
    // The payment attempt linked the customer to B; neither merchant sees a balance.
    const seenByB = await call(ctx.app, 'GET', `/users/${id}`, sk(b));
    expect(seenByB.statusCode).toBe(200);
    expect(JSON.stringify(seenByB.json())).not.toMatch(/balance|amount|movement/i);
    expect(((await call(ctx.app, 'GET', '/users', sk(b))).json() as { data: { id: string }[] }).data.map((u) => u.id)).toEqual([id]);
    // Live keys see nothing of a test customer.
    expect((await call(ctx.app, 'GET', `/users/${id}`, { apiKey: b.live.apiKey, secretKey: b.live.secretKey })).statusCode).toBe(404);
    await expectLedgerClean(ctx);
  });

  it('two merchants registering one number at once make one customer', async () => {
    const phoneNumber = newPhone();
    const answers = await Promise.all([
      call(ctx.app, 'POST', '/users', pk(a), { phoneNumber, password: 'douala-rain-77' }),
      call(ctx.app, 'POST', '/users', pk(b), { phoneNumber, password: 'kribi-beach-88' }),
    ]);
    // The second send to the number within 30 s may be held back (429): either way, one customer.
    expect(answers.map((r) => r.statusCode)).toContain(202);
    expect(answers.every((r) => r.statusCode === 202 || r.statusCode === 429)).toBe(true);
    const rows = await ctx.deps.db.selectFrom('users').select('id').where('phone_number', '=', phoneNumber).where('mode', '=', 'test').execute();
    expect(rows).toHaveLength(1);
  });
});

describe('the dashboard', () => {
  it("lists the merchant's customers with a masked phone and what they paid it, and a payment names its customer", async () => {
    const c = await createMerchant(ctx, 'Charlie');
    const login = await call(ctx.app, 'POST', '/dashboard/api/login', {}, c.dashboard);
    expect(login.statusCode, login.body).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    const get = (url: string) => call(ctx.app, 'GET', url, { headers: { cookie } });

    const phoneNumber = newPhone();
    const made = (await call(ctx.app, 'POST', '/test/users', sk(a), { phoneNumber, password: PASSWORD, balance: '9000' })).json() as { id: string };
    expect((await get('/dashboard/api/test/customers')).json()).toMatchObject({ data: [] });

    const token = ((await signIn(c, phoneNumber, PASSWORD)).json() as { token: string }).token;
    const user = { id: made.id, phoneNumber, creds: { apiKey: c.apiKey, token } };
    for (const amount of ['2000', '3000']) {
      const intent = await createIntent(ctx, c, { amount });
      expect((await charge(ctx, user, intent.id, await authorize(ctx, c, user, intent.id))).statusCode).toBe(200);
      ctx.clock.advance(31_000);
    }
    const list = await get('/dashboard/api/test/customers');
    expect(list.statusCode, list.body).toBe(200);
    const [row] = (list.json() as { data: Record<string, unknown>[] }).data;
    expect(row).toMatchObject({ id: made.id, payments: 2, volume: [{ currency: 'XAF', amount: '5000' }] });
    expect(row?.phoneNumber).not.toBe(phoneNumber);
    expect(String(row?.phoneNumber)).toContain(phoneNumber.slice(-2));
    expect(row?.firstPaymentAt).not.toBe(row?.lastPaymentAt);
    expect(JSON.stringify(row)).not.toMatch(/balance|wallet/i);

    const payments = (await get('/dashboard/api/test/payments')).json() as { data: { id: string }[] };
    const detail = await get(`/dashboard/api/test/payments/${payments.data[0]?.id}`);
    expect(detail.json()).toMatchObject({ customer: { id: made.id } });
    // Live mode has no test customers (an owner enrolled in two-factor sign-in sees live mode).
    await setTotpEnrolled(ctx, c.dashboard.email, true);
    expect((await get('/dashboard/api/live/customers')).json()).toMatchObject({ data: [] });
  });
});

describe('no phone enumeration with a publishable key', () => {
  let known: string;
  beforeAll(async () => {
    known = newPhone();
    expect((await call(ctx.app, 'POST', '/test/users', sk(a), { phoneNumber: known, password: PASSWORD })).statusCode).toBe(201);
  });

  /** The same call for the known number and an unknown one: status and body shape must match. */
  async function both(method: 'POST', url: string, body: (phoneNumber: string) => Record<string, unknown>) {
    const unknown = newPhone();
    const k = await call(ctx.app, method, url, pk(b), body(known));
    const u = await call(ctx.app, method, url, pk(b), body(unknown));
    return { k, u, unknown };
  }

  it('POST /users answers the same for a registered number and a new one, and names no customer', async () => {
    const { k, u } = await both('POST', '/users', (phoneNumber) => ({ phoneNumber, password: 'yaounde-hills-9' }));
    expect(k.statusCode).toBe(202);
    expect(u.statusCode).toBe(202);
    expect(shape(k.json())).toEqual(shape(u.json()));
    expect(k.headers['content-type']).toBe(u.headers['content-type']);
    expect(k.body).not.toMatch(/usr_/);
    // The known number's password did not change: the registration took nothing over.
    expect((await signIn(a, known, PASSWORD)).statusCode).toBe(200);
    expect((await signIn(a, known, 'yaounde-hills-9')).statusCode).toBe(401);
  });

  it('verify-phone on a verified number returns no customer data: the same 400 as an unknown number, try for try', async () => {
    for (let round = 0; round < 5; round++) {
      const k = await call(ctx.app, 'POST', '/users/verify-phone', pk(b), { phoneNumber: known, code: '123456' });
      const u = await call(ctx.app, 'POST', '/users/verify-phone', pk(b), { phoneNumber: `+2376${String(79_000_000 + round)}`, code: '123456' });
      expect(k.statusCode).toBe(400);
      expect(shape(k.json())).toEqual(shape(u.json()));
      expect(k.json()).toMatchObject({ code: 'otp_incorrect', attemptsRemaining: 4 - round });
      expect(k.body).not.toContain(known);
      expect(k.body).not.toMatch(/usr_/);
    }
    const k = await call(ctx.app, 'POST', '/users/verify-phone', pk(b), { phoneNumber: known, code: '123456' });
    expect(k.statusCode).toBe(429);
    expect(k.json()).toMatchObject({ code: 'otp_attempts_exceeded' });
  });

  it('resend and password reset answer the same for a known and an unknown number; only the known one gets an SMS', async () => {
    ctx.clock.advance(31_000);
    const resend = await both('POST', '/users/verify-phone/resend', (phoneNumber) => ({ phoneNumber }));
    expect([resend.k.statusCode, resend.u.statusCode]).toEqual([202, 202]);
    expect(shape(resend.k.json())).toEqual(shape(resend.u.json()));

    ctx.clock.advance(31_000);
    const reset = await both('POST', '/auth/password-reset', (phoneNumber) => ({ phoneNumber }));
    expect([reset.k.statusCode, reset.u.statusCode]).toEqual([202, 202]);
    expect(shape(reset.k.json())).toEqual(shape(reset.u.json()));
    await expect(lastCode(b, known)).resolves.toMatch(/^\d{6}$/);
    await expect(lastCode(b, reset.unknown)).rejects.toThrow(/no code/);

    const confirm = await both('POST', '/auth/password-reset/confirm', (phoneNumber) => ({ phoneNumber, code: '000000', newPassword: 'bafoussam-2027' }));
    expect([confirm.k.statusCode, confirm.u.statusCode]).toEqual([400, 400]);
    expect(shape(confirm.k.json())).toEqual(shape(confirm.u.json()));
    expect(confirm.k.json()).toMatchObject({ code: 'otp_incorrect' });
    expect((confirm.k.json() as { attemptsRemaining: number }).attemptsRemaining).toBe((confirm.u.json() as { attemptsRemaining: number }).attemptsRemaining);
  });

  it('send limits count per number, known or not', async () => {
    const unknown = newPhone();
    for (const phoneNumber of [known, unknown]) {
      const first = await call(ctx.app, 'POST', '/auth/password-reset', pk(a), { phoneNumber });
      const second = await call(ctx.app, 'POST', '/auth/password-reset', pk(a), { phoneNumber });
      // The known number sent a reset moments ago in the test above (through B): it may already be held.
      expect([202, 429]).toContain(first.statusCode);
      expect(second.statusCode).toBe(429);
      expect(second.json()).toMatchObject({ code: 'otp_rate_limited' });
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});

describe('password reset and change', () => {
  it('a reset sets the new password and refuses every token issued before, in a second process too', async () => {
    const phoneNumber = newPhone();
    expect((await call(ctx.app, 'POST', '/test/users', sk(a), { phoneNumber, password: PASSWORD })).statusCode).toBe(201);
    const old = (await signIn(b, phoneNumber, PASSWORD)).json() as { token: string };
    const wallet = (token: string, services = ctx.services) =>
      services.users.verifyAccessToken(token, {
        merchantId: b.merchantId,
        mode: 'test',
        apiKeyId: 'k',
        secretKeyId: undefined,
        allowedOrigins: [],
        pinnedVersion: '2026-11-01',
        merchantName: 'Bravo',
        intentExpiresIn: 1800,
        approved: true,
        merchantCountry: 'CM' as const,
      });
    const { createServices } = await import('../src/services.ts');
    const second = createServices(ctx.deps);
    await expect(wallet(old.token, second)).resolves.toMatchObject({ userId: expect.any(String) });

    expect((await call(ctx.app, 'POST', '/auth/password-reset', pk(b), { phoneNumber })).statusCode).toBe(202);
    const code = await lastCode(b, phoneNumber);
    const weak = await call(ctx.app, 'POST', '/auth/password-reset/confirm', pk(b), { phoneNumber, code, newPassword: 'password' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ code: 'password_weak' });
    const done = await call(ctx.app, 'POST', '/auth/password-reset/confirm', pk(b), { phoneNumber, code, newPassword: 'garoua-sun-2026' });
    expect(done.statusCode, done.body).toBe(204);

    expect((await call(ctx.app, 'GET', '/wallet', { apiKey: b.apiKey, token: old.token })).statusCode).toBe(401);
    // The second process trusts the version it read for TOKEN_VERSION_TTL_MS; here no broadcast
    // reaches it (no wakeups), so it learns at the end of that time.
    ctx.clock.advance(TOKEN_VERSION_TTL_MS);
    await expect(wallet(old.token, second)).rejects.toMatchObject({ code: 'access_token_invalid' });
    expect((await signIn(a, phoneNumber, PASSWORD)).statusCode).toBe(401);
    const fresh = await signIn(a, phoneNumber, 'garoua-sun-2026');
    expect(fresh.statusCode).toBe(200);
    // The code is spent.
    expect((await call(ctx.app, 'POST', '/auth/password-reset/confirm', pk(b), { phoneNumber, code, newPassword: 'garoua-moon-2026' })).statusCode).toBe(400);
  });

  it('a change is heard by the other processes at once through the broadcast', async () => {
    const phoneNumber = newPhone();
    expect((await call(ctx.app, 'POST', '/test/users', sk(a), { phoneNumber, password: PASSWORD })).statusCode).toBe(201);
    const { token } = (await signIn(a, phoneNumber, PASSWORD)).json() as { token: string };
    const { createServices } = await import('../src/services.ts');
    const { createWakeups } = await import('../src/platform/wakeups.ts');
    // Two processes sharing one PostgreSQL hear each other's broadcasts; on PGlite, in this process.
    const wakeups = createWakeups({ kind: 'pglite' });
    const [one, two] = [createServices({ ...ctx.deps, wakeups }), createServices({ ...ctx.deps, wakeups })];
    const merchant = {
      merchantId: a.merchantId,
      mode: 'test' as const,
      apiKeyId: 'k',
      secretKeyId: undefined,
      allowedOrigins: [],
      pinnedVersion: '2026-11-01',
      merchantName: 'Alpha',
      intentExpiresIn: 1800,
      approved: true,
      merchantCountry: 'CM' as const,
    };
    const me = await two.users.verifyAccessToken(token, merchant);
    await one.users.changePassword(merchant, me, { currentPassword: PASSWORD, newPassword: 'kribi-wave-2026' }, '203.0.113.9');
    await expect(two.users.verifyAccessToken(token, merchant)).rejects.toMatchObject({ code: 'access_token_invalid' });
    await wakeups.close();
  });

  it('a change needs the current password and refuses older tokens, this one included', async () => {
    const phoneNumber = newPhone();
    expect((await call(ctx.app, 'POST', '/test/users', sk(a), { phoneNumber, password: PASSWORD })).statusCode).toBe(201);
    const { token } = (await signIn(a, phoneNumber, PASSWORD)).json() as { token: string };
    const me = { apiKey: a.apiKey, token };
    const wrong = await call(ctx.app, 'POST', '/users/me/password', me, { currentPassword: 'not-it-at-all', newPassword: 'limbe-tide-2026' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'invalid_credentials' });
    expect((await call(ctx.app, 'POST', '/users/me/password', me, { currentPassword: PASSWORD, newPassword: '12345678' })).json()).toMatchObject({
      code: 'password_weak',
    });
    const changed = await call(ctx.app, 'POST', '/users/me/password', me, { currentPassword: PASSWORD, newPassword: 'limbe-tide-2026' });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await call(ctx.app, 'GET', '/wallet', me)).json()).toMatchObject({ code: 'access_token_invalid' });
    expect((await signIn(a, phoneNumber, 'limbe-tide-2026')).statusCode).toBe(200);
  });

  it('a payment and a password change racing leave one consistent outcome: money moves once, the password changes', async () => {
    const phoneNumber = newPhone();
    const made = (await call(ctx.app, 'POST', '/test/users', sk(a), { phoneNumber, password: PASSWORD, balance: '5000' })).json() as { id: string };
    const { token } = (await signIn(a, phoneNumber, PASSWORD)).json() as { token: string };
    const user = { id: made.id, phoneNumber, creds: { apiKey: a.apiKey, token } };
    const intent = await createIntent(ctx, a, { amount: '5000' });
    const otpToken = await authorize(ctx, a, user, intent.id);
    const [paid, changed] = await Promise.all([
      charge(ctx, user, intent.id, otpToken),
      call(ctx.app, 'POST', '/users/me/password', user.creds, { currentPassword: PASSWORD, newPassword: 'ebolowa-2026-x' }),
    ]);
    expect(changed.statusCode, changed.body).toBe(204);
    // The charge either ran with the token still good (200) or found it voided (401): never half of it.
    expect([200, 401]).toContain(paid.statusCode);
    const status = ((await call(ctx.app, 'GET', `/gateway/${intent.id}`, sk(a))).json() as { status: string }).status;
    expect(status).toBe(paid.statusCode === 200 ? 'SUCCEEDED' : 'PENDING');
    const fresh = ((await signIn(a, phoneNumber, 'ebolowa-2026-x')).json() as { token: string }).token;
    const wallet = (await call(ctx.app, 'GET', '/wallet', { apiKey: a.apiKey, token: fresh })).json() as { balances: { amount: string }[] };
    expect(wallet.balances[0]?.amount).toBe(paid.statusCode === 200 ? '0' : '5000');
    await expectLedgerClean(ctx);
  });

  it('a registration of a never-verified number replaces its unproven password; verifying links the customer', async () => {
    const phoneNumber = newPhone();
    expect((await call(ctx.app, 'POST', '/users', pk(a), { phoneNumber, password: 'first-try-2026' })).statusCode).toBe(202);
    ctx.clock.advance(31_000);
    expect((await call(ctx.app, 'POST', '/users', pk(b), { phoneNumber, password: 'second-try-2026' })).statusCode).toBe(202);
    const code = await lastCode(b, phoneNumber);
    const verified = await call(ctx.app, 'POST', '/users/verify-phone', pk(b), { phoneNumber, code });
    expect(verified.statusCode, verified.body).toBe(200);
    const id = (verified.json() as { id: string }).id;
    expect((await signIn(b, phoneNumber, 'first-try-2026')).statusCode).toBe(401);
    expect((await signIn(b, phoneNumber, 'second-try-2026')).statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', `/users/${id}`, sk(a))).statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', `/users/${id}`, sk(b))).statusCode).toBe(200);
  });
});

describe('the move from per-merchant users to customers', () => {
  /** An empty database of its own (migrations are applied by the test). */
  async function emptyDb(): Promise<OpenedDb & { drop(): Promise<void> }> {
    if (!TEST_DATABASE_URL) {
      // As initdb left it (the global setup's copy), rather than running initdb here: ~3 CPU-s.
      const empty = inject('pgliteEmpty');
      const opened = await openPglite(undefined, empty === undefined ? {} : { loadDataDir: new Blob([readFileSync(empty)]) });
      return { ...opened, drop: () => opened.close() };
    }
    const name = `caisse_mig_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = async (sql: string) => {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(sql);
      await c.end();
    };
    await admin(`create database ${name}`);
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    const opened = openPostgres(url.toString(), 4);
    return {
      ...opened,
      async drop() {
        await opened.close();
        await admin(`drop database if exists ${name} with (force)`);
      },
    };
  }

  it('users of one phone at several merchants become one customer whose wallet holds the sum; every merchant is linked; the ledger verifies', async () => {
    const database = await emptyDb();
    try {
      const { db } = database;
      const all = readMigrations();
      await migrate(
        db,
        all.filter((m) => m.name < '0015'),
      );
      const { sql } = await import('kysely');
      const t = (iso: string) => new Date(iso);
      await sql`insert into merchants (id, name, created_at) values ('mch_a', 'A', ${t('2026-01-01T00:00:00Z')}), ('mch_b', 'B', ${t('2026-01-01T00:00:00Z')}), ('mch_c', 'C', ${t('2026-01-01T00:00:00Z')})`.execute(
        db,
      );
      // One phone at three merchants (the B account is the most recently made and verified), plus a loner.
      await sql`insert into users (id, merchant_id, mode, phone_number, password_hash, phone_verified_at, created_at) values
        ('usr_a', 'mch_a', 'test', '+237650000001', 'hash-a', ${t('2026-02-01T00:00:00Z')}, ${t('2026-02-01T00:00:00Z')}),
        ('usr_b', 'mch_b', 'test', '+237650000001', 'hash-b', ${t('2026-03-01T00:00:00Z')}, ${t('2026-03-01T00:00:00Z')}),
        ('usr_c', 'mch_c', 'test', '+237650000001', 'hash-c', null, ${t('2026-04-01T00:00:00Z')}),
        ('usr_l', 'mch_a', 'live', '+237650000001', 'hash-l', ${t('2026-02-01T00:00:00Z')}, ${t('2026-02-01T00:00:00Z')})`.execute(db);
      await sql`insert into ledger_accounts (id, merchant_id, mode, kind, user_id, currency, balance, created_at) values
        ('acc_ext', 'mch_a', 'test', 'external', null, 'XAF', -9000, now()),
        ('acc_exte', 'mch_a', 'test', 'external', null, 'EUR', -250, now()),
        ('acc_wa', 'mch_a', 'test', 'user_wallet', 'usr_a', 'XAF', 5000, now()),
        ('acc_wae', 'mch_a', 'test', 'user_wallet', 'usr_a', 'EUR', 250, now()),
        ('acc_wb', 'mch_b', 'test', 'user_wallet', 'usr_b', 'XAF', 3000, now()),
        ('acc_wc', 'mch_c', 'test', 'user_wallet', 'usr_c', 'XAF', 1000, now())`.execute(db);
      await sql`insert into ledger_transfers (id, merchant_id, mode, kind, reference, created_at) values
        ('tr_1', 'mch_a', 'test', 'test_funding', null, now()), ('tr_2', 'mch_b', 'test', 'test_funding', null, now()),
        ('tr_3', 'mch_c', 'test', 'test_funding', null, now()), ('tr_4', 'mch_a', 'test', 'test_funding', null, now())`.execute(db);
      await sql`insert into ledger_postings (transfer_id, account_id, currency, amount, created_at) values
        ('tr_1', 'acc_ext', 'XAF', -5000, now()), ('tr_1', 'acc_wa', 'XAF', 5000, now()),
        ('tr_2', 'acc_ext', 'XAF', -3000, now()), ('tr_2', 'acc_wb', 'XAF', 3000, now()),
        ('tr_3', 'acc_ext', 'XAF', -1000, now()), ('tr_3', 'acc_wc', 'XAF', 1000, now()),
        ('tr_4', 'acc_exte', 'EUR', -250, now()), ('tr_4', 'acc_wae', 'EUR', 250, now())`.execute(db);
      expect((await verifyLedger(db)).differences).toEqual([]);
      const postingsBefore = await db.selectFrom('ledger_postings').selectAll().orderBy('id').execute();

      await migrate(db, all);

      const users = await db.selectFrom('users').select(['id', 'merged_into', 'password_hash']).where('mode', '=', 'test').orderBy('id').execute();
      expect(users).toEqual([
        { id: 'usr_a', merged_into: 'usr_b', password_hash: 'hash-a' },
        { id: 'usr_b', merged_into: null, password_hash: 'hash-b' },
        { id: 'usr_c', merged_into: 'usr_b', password_hash: 'hash-c' },
      ]);
      const wallets = await db
        .selectFrom('ledger_accounts')
        .select(['user_id', 'currency', 'balance'])
        .where('kind', '=', 'user_wallet')
        .where('balance', '<>', 0n)
        .orderBy('user_id')
        .orderBy('currency')
        .execute();
      expect(wallets).toEqual(
        [
          { user_id: 'usr_b', currency: 'EUR', balance: 250n },
          { user_id: 'usr_b', currency: 'XAF', balance: 9000n },
          { user_id: 'usr_l', currency: 'XAF', balance: 0n },
        ].filter((w) => w.balance !== 0n),
      );
      const links = await db.selectFrom('customer_links').select(['merchant_id', 'user_id']).orderBy('merchant_id').orderBy('user_id').execute();
      expect(links).toEqual([
        { merchant_id: 'mch_a', user_id: 'usr_b' },
        { merchant_id: 'mch_a', user_id: 'usr_l' },
        { merchant_id: 'mch_b', user_id: 'usr_b' },
        { merchant_id: 'mch_c', user_id: 'usr_b' },
      ]);
      // No posting rewritten; the moves are new transfers; the books still prove every balance.
      const postingsAfter = await db.selectFrom('ledger_postings').selectAll().orderBy('id').execute();
      expect(postingsAfter.slice(0, postingsBefore.length)).toEqual(postingsBefore);
      expect(await db.selectFrom('ledger_transfers').select('kind').where('kind', '=', 'customer_merge').execute()).toHaveLength(3);
      expect((await verifyLedger(db)).differences).toEqual([]);
    } finally {
      await database.drop();
    }
  }, 120_000);
});
