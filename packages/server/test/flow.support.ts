/**
 * Helpers for the payment tests (otp, charges, refunds, flow): users with funded wallets and
 * access tokens, intents, codes read from the test outbox, balances, and problem checks.
 */
import { expect } from 'vitest';
import { verifyLedger } from '../src/modules/ledger/ledger.service.ts';
import type { Currency } from '../src/platform/money.ts';
import { call, type Creds, sk, type TestContext, type TestMerchant } from './harness.ts';
import type { MerchantContext } from '../src/platform/tenancy.ts';

export type Res = { statusCode: number; headers: Record<string, unknown>; body: string; json(): unknown };

/** Asserts an RFC 9457 problem with this status and code, and returns its body. */
export function problem(res: Res, status: number, code: string): Record<string, unknown> {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = res.json() as Record<string, unknown>;
  expect(body).toMatchObject({ type: `/errors/${code}`, status, code });
  return body;
}

let phoneSeq = 0;
/** A fresh Cameroonian mobile number for each call (unique within a test file's database). */
export const phone = () => `+2376910${String(phoneSeq++).padStart(5, '0')}`;
export const PASSWORD = 'limbe-market-2026';

export interface TestUser {
  id: string;
  phoneNumber: string;
  /** API key + this user's access token. */
  creds: Creds;
}

/** A verified test-mode user with `balance` XAF (or `currency`) and a fresh access token. */
export async function newUser(ctx: TestContext, m: TestMerchant, opts: { balance?: string; currency?: string; email?: string } = {}): Promise<TestUser> {
  const phoneNumber = phone();
  const res = await call(ctx.app, 'POST', '/test/users', sk(m), {
    phoneNumber,
    password: PASSWORD,
    balance: opts.balance ?? '0',
    ...(opts.currency ? { currency: opts.currency } : {}),
    ...(opts.email ? { email: opts.email } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = (res.json() as { id: string }).id;
  return { id, phoneNumber, creds: { apiKey: m.apiKey, token: await accessToken(ctx, m, id) } };
}

/**
 * Registers a customer with POST /users (202, which names no customer) and returns its id, read
 * from the database as only the customer's own sign-in would reveal it.
 */
export async function registerUser(
  ctx: TestContext,
  creds: Creds,
  body: { phoneNumber: string; password: string; email?: string },
  mode: 'test' | 'live' = 'test',
): Promise<string> {
  const res = await call(ctx.app, 'POST', '/users', creds, body);
  expect(res.statusCode, res.body).toBe(202);
  const row = await ctx.deps.db
    .selectFrom('users')
    .select('id')
    .where('mode', '=', mode)
    .where('phone_number', '=', body.phoneNumber)
    .where('merged_into', 'is', null)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A fresh 15-minute access token (signed as POST /auth/web would, without the password round). */
export async function accessToken(ctx: TestContext, m: TestMerchant, userId: string, mode: 'test' | 'live' = 'test'): Promise<string> {
  const issued = await ctx.services.users.tokens.sign({ userId, merchantId: m.merchantId, mode, roles: ['USER'], version: 0 });
  return issued.token;
}

/** Renews a user's access token (after the ManualClock moved more than 15 minutes). */
export async function refreshToken(ctx: TestContext, m: TestMerchant, user: TestUser): Promise<void> {
  user.creds = { apiKey: m.apiKey, token: await accessToken(ctx, m, user.id) };
}

export interface CreatedIntent {
  id: string;
  sessionToken: string;
  amount: string;
  status: string;
}

export async function createIntent(ctx: TestContext, m: TestMerchant, body: Record<string, unknown> = {}, creds: Creds = sk(m)): Promise<CreatedIntent> {
  const res = await call(ctx.app, 'POST', '/gateway', creds, { amount: '5000', currency: 'XAF', description: 'Order', metadata: { orderId: '42' }, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CreatedIntent;
}

/** The newest message of the user in the test outbox, and the 6-digit code in it. */
export async function lastMessage(ctx: TestContext, m: TestMerchant, userId: string): Promise<{ body: string; code: string; to: string; channel: string }> {
  const res = await call(ctx.app, 'GET', `/test/messages?userId=${userId}`, sk(m));
  expect(res.statusCode, res.body).toBe(200);
  const message = (res.json() as { data: { body: string; to: string; channel: string }[] }).data[0];
  expect(message).toBeDefined();
  const body = message?.body ?? '';
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  expect(code, body).toBeDefined();
  return { body, code: code as string, to: message?.to ?? '', channel: message?.channel ?? '' };
}

/** initOtp then verifyOtp over HTTP: an authorization token (bound to `intentionId` when given). */
export async function authorize(ctx: TestContext, m: TestMerchant, user: TestUser, intentionId?: string): Promise<string> {
  const init = await call(ctx.app, 'POST', '/otp/init', user.creds, { userId: user.id, channel: 'sms', ...(intentionId ? { intentionId } : {}) });
  expect(init.statusCode, init.body).toBe(200);
  const { code } = await lastMessage(ctx, m, user.id);
  const verify = await call(ctx.app, 'POST', '/otp/verify', user.creds, { userId: user.id, otp: code });
  expect(verify.statusCode, verify.body).toBe(200);
  return (verify.json() as { authorizationToken: string }).authorizationToken;
}

/** The same customer signed in through another merchant (a token bound to that merchant's keys). */
export async function through(ctx: TestContext, m: TestMerchant, user: TestUser): Promise<TestUser> {
  return { ...user, creds: { apiKey: m.apiKey, token: await accessToken(ctx, m, user.id) } };
}

/** An intent of `amount` at `m`, paid by the customer (signed in through `m`) with a code; the intent. */
export async function payAt(ctx: TestContext, m: TestMerchant, user: TestUser, amount: string): Promise<CreatedIntent> {
  const intent = await createIntent(ctx, m, { amount });
  const paid = await charge(ctx, user, intent.id, await authorize(ctx, m, user, intent.id));
  expect(paid.statusCode, paid.body).toBe(200);
  return intent;
}

export function charge(ctx: TestContext, user: TestUser, intentionId: string, otpToken: string | undefined, extra: Record<string, unknown> = {}) {
  const headers: Record<string, string> = otpToken === undefined ? {} : { 'x-otp-token': otpToken };
  return call(ctx.app, 'POST', '/charge', { ...user.creds, headers }, { intentionId, ...extra });
}

/** The user's wallet balance in minor units (0 when it has no wallet in that currency). */
export async function walletMinor(ctx: TestContext, userId: string, currency: Currency = 'XAF'): Promise<bigint> {
  const row = await ctx.deps.db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('user_id', '=', userId)
    .where('currency', '=', currency)
    .executeTakeFirst();
  return row?.balance ?? 0n;
}

/** The merchant's money (available + pending) in minor units in one mode and currency. */
export async function merchantMinor(ctx: TestContext, merchantId: string, mode: 'test' | 'live' = 'test', currency: Currency = 'XAF'): Promise<bigint> {
  const rows = await ctx.deps.db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('merchant_id', '=', merchantId)
    .where('mode', '=', mode)
    .where('kind', 'in', ['merchant_balance', 'merchant_pending'])
    .where('currency', '=', currency)
    .execute();
  return rows.reduce((sum, r) => sum + r.balance, 0n);
}

/** The event types written for an intent, oldest first (events of one clock millisecond: in any order). */
export async function eventTypes(ctx: TestContext, intentId: string): Promise<string[]> {
  const rows = await ctx.deps.db.selectFrom('events').select(['type']).where('intent_id', '=', intentId).orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => r.type);
}

export async function merchantContext(ctx: TestContext, m: TestMerchant): Promise<MerchantContext> {
  return ctx.services.merchants.authenticate(m.apiKey, undefined, false);
}

/** The afterEach of every payment test file: the ledger recomputes to the same balances. */
export async function expectLedgerClean(ctx: TestContext): Promise<void> {
  const report = await verifyLedger(ctx.deps.db);
  expect(report.differences).toEqual([]);
  expect(report.ok).toBe(true);
}
