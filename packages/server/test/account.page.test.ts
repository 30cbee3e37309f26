/**
 * "My Caisse account" (/account, /account/test): the customer signs in on the gateway's own
 * origin (password, then a code by SMS, then a session cookie of its own) and sees every balance
 * and the whole history across merchants, in French or English. A merchant's token opens nothing.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired } from '../src/modules/retention/index.ts';
import { MINUTE } from '../src/platform/clock.ts';
import { newUser, PASSWORD, payAt, type TestUser, through } from './flow.support.ts';
import { call, createMerchant, createTestContext, sk, type TestContext, type TestMerchant } from './harness.ts';

let ctx: TestContext;
let a: TestMerchant;
let b: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  a = await createMerchant(ctx, 'Alpha <Épicerie>');
  b = await createMerchant(ctx, 'Bravo');
});
afterAll(() => ctx?.close());

const form = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });
const cookieOf = (res: LightMyRequestResponse) => String(res.headers['set-cookie']).split(';')[0] as string;

/** The newest sign-in code sent to the customer (an SMS of no merchant's). */
async function accountCode(userId: string): Promise<string> {
  const row = await ctx.deps.db
    .selectFrom('messages')
    .select(['body', 'merchant_id'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  expect(row.merchant_id).toBeNull();
  const code = /\b(\d{6})\b/.exec(row.body ?? '')?.[1];
  if (!code) throw new Error(`no code in ${row.body}`);
  return code;
}

/** A customer who paid A (and was refunded part) and, signed in through B, paid B. */
async function customerOfTwoMerchants() {
  const user = await newUser(ctx, a, { balance: '9000' });
  const atA = await payAt(ctx, a, user, '2000');
  expect((await call(ctx.app, 'POST', `/gateway/${atA.id}/refunds`, sk(a), { amount: '500' })).statusCode).toBe(201);
  ctx.clock.advance(MINUTE);
  const atB = await payAt(ctx, b, await through(ctx, b, user), '1500');
  ctx.clock.advance(MINUTE);
  return { user, atA, atB };
}

async function signIn(user: TestUser, headers: Record<string, string> = {}): Promise<string> {
  const sent = await form('/account/test/sign-in', { phoneNumber: user.phoneNumber, password: PASSWORD }, headers);
  expect(sent.statusCode, sent.body).toBe(200);
  const done = await form('/account/test/code', { phoneNumber: user.phoneNumber, code: await accountCode(user.id) });
  expect(done.statusCode, done.body).toBe(303);
  expect(done.headers.location).toBe('/account/test');
  expect(String(done.headers['set-cookie'])).toMatch(/HttpOnly/i);
  expect(String(done.headers['set-cookie'])).toMatch(/SameSite=Strict/i);
  return cookieOf(done);
}

describe('my Caisse account', () => {
  it('signs in with the password and a code by SMS, then shows every balance and the whole history across merchants', async () => {
    const { user, atA, atB } = await customerOfTwoMerchants();

    const start = await get('/account/test', { 'accept-language': 'en' });
    expect(start.statusCode).toBe(200);
    expect(start.headers['content-type']).toMatch(/text\/html/);
    expect(start.headers['content-security-policy']).toMatch(/form-action 'self'/);
    expect(start.body).toContain('My Caisse account');
    expect(start.body).toContain('action="/account/test/sign-in"');

    // A wrong password: the form again, with the reason, and no code sent.
    const wrong = await form('/account/test/sign-in', { phoneNumber: user.phoneNumber, password: 'not-the-password' }, { 'accept-language': 'en' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('The phone number or the password is incorrect.');

    const sent = await form('/account/test/sign-in', { phoneNumber: user.phoneNumber, password: PASSWORD }, { 'accept-language': 'en' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.body).toContain('action="/account/test/code"');
    const code = await accountCode(user.id);
    const badCode = await form(
      '/account/test/code',
      { phoneNumber: user.phoneNumber, code: code === '000000' ? '111111' : '000000' },
      { 'accept-language': 'en' },
    );
    expect(badCode.statusCode).toBe(400);
    expect(badCode.body).toContain('The code is incorrect or no longer valid.');
    const done = await form('/account/test/code', { phoneNumber: user.phoneNumber, code });
    expect(done.statusCode, done.body).toBe(303);
    const cookie = cookieOf(done);
    // The code is spent.
    expect((await form('/account/test/code', { phoneNumber: user.phoneNumber, code })).statusCode).toBe(400);

    const en = await get('/account/test', { cookie, 'accept-language': 'en' });
    expect(en.statusCode).toBe(200);
    expect(en.body).toContain('<html lang="en">');
    // 9 000 − 2 000 + 500 − 1 500.
    expect(en.body).toMatch(/6,000/);
    for (const seen of [atA.id, atB.id, 'Bravo', 'Alpha &#60;Épicerie&#62;', 'Payment', 'Refund', 'Test funding']) expect(en.body).toContain(seen);
    expect(en.body).not.toContain('<Épicerie>');

    const fr = await get('/account/test', { cookie, 'accept-language': 'fr-CM' });
    expect(fr.body).toContain('<html lang="fr">');
    expect(fr.body).toContain('Mon compte Caisse');
    expect(fr.body).toMatch(/6\s000\sFCFA/);
    expect(fr.body).toContain('Remboursement');

    // The session is of test mode and of this page only.
    expect((await get('/account', { cookie: cookie.replace('caisse_account_test', 'caisse_account') })).body).toContain('action="/account/sign-in"');

    // Sign out: the cookie is cleared and the session gone.
    const out = await form('/account/test/sign-out', {}, { cookie });
    expect(out.statusCode).toBe(303);
    expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/);
    expect((await get('/account/test', { cookie })).body).toContain('action="/account/test/sign-in"');
  });

  it("a merchant's token opens nothing here, and a password change ends the page's sessions", async () => {
    const user = await newUser(ctx, a, { balance: '100' });
    const asMerchantToken = await get('/account/test', { authorization: `Bearer ${user.creds.token}`, 'x-api-key': a.apiKey });
    expect(asMerchantToken.body).toContain('action="/account/test/sign-in"');
    expect(asMerchantToken.body).not.toContain('History');

    const cookie = await signIn(user, { 'accept-language': 'en' });
    expect((await get('/account/test', { cookie, 'accept-language': 'en' })).body).toContain('History');
    const changed = await call(ctx.app, 'POST', '/users/me/password', user.creds, { currentPassword: PASSWORD, newPassword: 'kribi-tide-2027' });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await get('/account/test', { cookie, 'accept-language': 'en' })).body).toContain('action="/account/test/sign-in"');
  });

  it('a session ends after 30 minutes, and retention then deletes it', async () => {
    const user = await newUser(ctx, b, { balance: '100' });
    const cookie = await signIn(user, { 'accept-language': 'en' });
    ctx.clock.advance(29 * MINUTE);
    expect((await get('/account/test', { cookie, 'accept-language': 'en' })).body).toContain('History');
    ctx.clock.advance(MINUTE);
    expect((await get('/account/test', { cookie, 'accept-language': 'en' })).body).toContain('action="/account/test/sign-in"');
    expect((await purgeExpired(ctx.deps, ctx.services)).accountSessions).toBeGreaterThanOrEqual(1);
    const left = await ctx.deps.db.selectFrom('account_sessions').select('user_id').where('user_id', '=', user.id).execute();
    expect(left).toEqual([]);
  });

  it('refuses a bad phone number and unknown numbers alike, with the form again and no 500', async () => {
    const bad = await form('/account/test/sign-in', { phoneNumber: 'not a phone', password: 'x' }, { 'accept-language': 'en' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('with its country code');
    // No merchant here to read a national number in: it needs its country code too.
    const national = await form('/account/test/sign-in', { phoneNumber: '650 99 91 11', password: 'x' }, { 'accept-language': 'fr' });
    expect(national.statusCode).toBe(400);
    expect(national.body).toContain('avec son indicatif pays');
    const unknown = await form('/account/test/sign-in', { phoneNumber: '+237650999111', password: 'whatever-it-is' }, { 'accept-language': 'en' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toContain('The phone number or the password is incorrect.');
    expect((await form('/account/test/code', { phoneNumber: '+237650999111', code: '123456' })).statusCode).toBe(400);
    // Another site's page cannot post the forms.
    expect(
      (await form('/account/test/sign-in', { phoneNumber: '+237650999111', password: 'x' }, { origin: 'https://evil.example', host: 'caisse.example' }))
        .statusCode,
    ).toBe(403);
    expect((await form('/account/test/sign-out', {}, { 'sec-fetch-site': 'cross-site', origin: 'null' })).statusCode).toBe(403);
    // Our own page's form, posted under no-referrer: Origin null, same origin by Sec-Fetch-Site.
    expect((await form('/account/test/sign-out', {}, { 'sec-fetch-site': 'same-origin', origin: 'null' })).statusCode).toBe(303);
    // The API stays JSON-only: a form body elsewhere is still refused.
    const api = await ctx.app.inject({
      method: 'POST',
      url: '/auth/web',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-api-key': a.apiKey },
      payload: 'phoneNumber=1',
    });
    expect(api.statusCode).toBe(415);
  });
});
