import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { SECOND } from '../src/platform/clock.ts';
import { HTML, PDF, PNG } from './documents.support.ts';
import { problem } from './flow.support.ts';
import { createMessagingService } from '../src/modules/messaging/index.ts';
import { createOnboardingService } from '../src/modules/onboarding/index.ts';
import { call, createTestContext, dashboardBrowserOf, dashboardCall, setTotpEnrolled, type DashboardBrowser, type TestContext } from './harness.ts';

/**
 * Merchant sign-up over HTTP (issue 34): the public sign-up and its e-mail verification, test mode
 * at once, the business profile with its identity document (checked by content, stored
 * encrypted), live mode refused until an operator approves, the review and its e-mails.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const PASSWORD = 'correct horse battery';
const DETAILS = {
  legalName: 'Boulangerie Ndiaye SARL',
  tradeName: 'Chez Ndiaye',
  registrationNumber: 'SN-DKR-2024-B-12345',
  taxNumber: '0123456 2G3',
  address: '12 rue Carnot, Dakar',
  activity: 'Bakery',
  website: 'https://facebook.com/chezndiaye',
  ownerName: 'Awa Ndiaye',
};

let seq = 0;
const newEmail = () => `owner-${++seq}-${Math.random().toString(36).slice(2, 7)}@shop.example`;
const askSignUp = (email: string, extra: Record<string, unknown> = {}) =>
  dashboardCall(ctx.app, 'POST', '/dashboard/api/sign-up', undefined, { businessName: `Shop ${seq}`, country: 'SN', email, password: PASSWORD, ...extra });
const verify = (token: string) => dashboardCall(ctx.app, 'POST', '/dashboard/api/sign-up/verify', undefined, { token });
const login = (email: string, password = PASSWORD) => dashboardCall(ctx.app, 'POST', '/dashboard/api/login', undefined, { email, password });

/** The operator outbox's messages to `email` (proofs of control: never in a merchant's outbox). */
async function proofsTo(email: string) {
  return (await ctx.services.messaging.listForOperators({ to: email, limit: 100 })).data;
}

async function verificationTokens(email: string): Promise<string[]> {
  return (await proofsTo(email)).flatMap((m) => /\/dashboard\/verify-email\?token=(ver_[0-9A-Za-z]+)/.exec(m.body ?? '')?.[1] ?? []);
}

async function verificationToken(email: string): Promise<string> {
  const [token] = await verificationTokens(email);
  expect(token, `no verification e-mail to ${email}`).toBeDefined();
  return token as string;
}

/** A business signed up, its link opened from the operator outbox, its owner signed in. */
async function signUp(language?: 'fr' | 'en') {
  const email = newEmail();
  const res = await askSignUp(email, language ? { language } : {});
  expect(res.statusCode, res.body).toBe(202);
  expect((await verify(await verificationToken(email))).statusCode).toBe(200);
  const browser = dashboardBrowserOf(await login(email));
  const merchantId = (await dashboardCall(ctx.app, 'GET', '/dashboard/api/profile', browser)).json().merchantId as string;
  return { email, merchantId, browser };
}

/** The merchant's own test outbox (what GET /test/messages shows it) to `email`. */
async function mailsTo(merchantId: string, email: string) {
  return (await ctx.services.messaging.list({ merchantId, mode: 'test', limit: 100 })).data.filter((m) => m.to === email);
}

function upload(who: DashboardBrowser, body: Buffer, type: string): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'PUT',
    url: '/dashboard/api/profile/document',
    headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, 'content-type': type },
    payload: body,
  });
}

/** A merchant signed up, verified, with its profile and document submitted. */
async function submitted(language?: 'fr' | 'en') {
  const shop = await signUp(language);
  expect((await dashboardCall(ctx.app, 'PATCH', '/dashboard/api/profile', shop.browser, DETAILS)).statusCode).toBe(200);
  expect((await upload(shop.browser, PDF, 'application/pdf')).statusCode).toBe(200);
  const res = await dashboardCall(ctx.app, 'POST', '/dashboard/api/profile/submit', shop.browser, {});
  expect(res.json(), res.body).toMatchObject({ state: 'submitted' });
  return shop;
}

// ---- operators ----------------------------------------------------------------------------------

interface OpBrowser {
  cookie: string;
  csrf: string;
}
function opSend(method: 'GET' | 'POST', url: string, who?: OpBrowser, body?: unknown) {
  const headers: Record<string, string> = who ? { cookie: who.cookie, 'x-csrf-token': who.csrf } : {};
  return ctx.app.inject({ method, url, headers, ...(body !== undefined ? { payload: body as object } : {}) });
}
async function operator(role: 'admin' | 'compliance' | 'finance' | 'support'): Promise<OpBrowser> {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@ops.example`;
  const { password } = await ctx.services.operators.createFromCli(email, role);
  const res = await opSend('POST', '/operator/api/login', undefined, { email, password });
  const browser = { cookie: String(res.headers['set-cookie']).split(';')[0] as string, csrf: res.json().csrfToken as string };
  const { secret } = (await opSend('POST', '/operator/api/totp', browser, {})).json();
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: ctx.clock.now().getTime() });
  expect((await opSend('POST', '/operator/api/totp/confirm', browser, { code })).statusCode).toBe(200);
  ctx.clock.advance(30 * SECOND);
  return browser;
}

describe('sign-up', () => {
  it('asks only: the link goes to the operator outbox, and opening it makes the merchant, whose owner then signs in and uses test mode', async () => {
    const email = newEmail();
    const res = await askSignUp(email.toUpperCase(), { language: 'en' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ object: 'sign_up_request', expiresInSeconds: 7 * 24 * 3600, delivery: 'operator_outbox' });
    // Nothing exists before the link is opened: the sign-in fails as for any unknown address.
    problem(await login(email), 401, 'invalid_credentials');
    const [mail] = await proofsTo(email);
    expect(mail?.body).toMatch(/^Welcome to Caisse, Shop \d+\./);

    const token = await verificationToken(email);
    const ok = await verify(token);
    expect(ok.json(), ok.body).toEqual({ object: 'email_verification', email, verified: true });
    // A link used again answers the same, and makes nothing more.
    expect((await verify(token)).json()).toEqual(ok.json());
    expect(ctx.logs.join('\n')).not.toContain(token);

    const browser = dashboardBrowserOf(await login(email));
    const profile = (await dashboardCall(ctx.app, 'GET', '/dashboard/api/profile', browser)).json();
    expect(profile).toMatchObject({ state: 'not_submitted', liveApproved: false, emailVerified: true, emailVerifiedVia: 'outbox', taxNumberName: 'NINEA' });
    expect(profile.merchantName).toMatch(/^Shop \d+$/);
    const key = await dashboardCall(ctx.app, 'POST', '/dashboard/api/test/keys', browser, { kind: 'secret', name: 'server' });
    expect(key.statusCode, key.body).toBe(201);
    // The merchant's test outbox (dashboard and API alike) never holds the link.
    expect(await mailsTo(profile.merchantId, email)).toEqual([]);
    const outbox = await dashboardCall(ctx.app, 'GET', '/dashboard/api/test/messages?limit=100', browser);
    expect(outbox.statusCode).toBe(200);
    expect(outbox.body).not.toContain('verify-email');

    const fr = newEmail();
    await askSignUp(fr, { language: 'fr' });
    expect((await proofsTo(fr))[0]?.body).toMatch(/^Bienvenue sur Caisse/);
  });

  it('answers an existing address exactly as a new one, and tells its owner that someone tried', async () => {
    const shop = await signUp('en');
    const fresh = newEmail();
    const known = await askSignUp(shop.email, { businessName: 'Someone else', password: 'another fine password' });
    const unknown = await askSignUp(fresh, { businessName: 'Someone else', password: 'another fine password' });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.rawPayload.equals(known.rawPayload)).toBe(true);
    for (const header of ['content-type', 'content-length', 'cache-control']) expect(unknown.headers[header]).toBe(known.headers[header]);

    const notice = (await proofsTo(shop.email)).find((m) => /tried to sign up/.test(m.body ?? ''));
    expect(notice?.body).toContain(`Someone tried to sign up for Caisse with ${shop.email}`);
    expect(notice?.body).toContain('/dashboard');
    expect(notice?.body).not.toMatch(/ver_/);
    expect(await mailsTo(shop.merchantId, shop.email)).toEqual([]);
    // Nothing changed: the owner's password still works, the other one does not, no second merchant.
    expect((await login(shop.email)).statusCode).toBe(200);
    problem(await login(shop.email, 'another fine password'), 401, 'invalid_credentials');
    expect((await ctx.services.merchants.listMerchants()).filter((m) => m.name === 'Someone else')).toEqual([]);
  });

  it("takes Benin, Burkina Faso, Mali and Togo, each with its tax number's name (IFU, NIF)", async () => {
    for (const [country, taxNumberName] of [
      ['BJ', 'IFU'],
      ['BF', 'IFU'],
      ['ML', 'NIF'],
      ['TG', 'NIF'],
    ] as const) {
      const email = newEmail();
      expect((await askSignUp(email, { country })).statusCode).toBe(202);
      await verify(await verificationToken(email));
      const browser = dashboardBrowserOf(await login(email));
      const profile = (await dashboardCall(ctx.app, 'GET', '/dashboard/api/profile', browser)).json();
      expect(profile, country).toMatchObject({ taxNumberName });
      expect((await ctx.services.merchants.findMerchant(profile.merchantId))?.country).toBe(country);
    }
  });

  it('refuses a weak password and an unknown country, whoever owns the address', async () => {
    const body = { businessName: 'Again', country: 'CM', email: 'new@shop.example', password: PASSWORD };
    problem(await dashboardCall(ctx.app, 'POST', '/dashboard/api/sign-up', undefined, { ...body, password: '12345678' }), 400, 'password_weak');
    problem(await dashboardCall(ctx.app, 'POST', '/dashboard/api/sign-up', undefined, { ...body, country: 'FR' }), 400, 'validation_error');
  });

  it('refuses a wrong or expired link; a second sign-up of the address replaces the first', async () => {
    problem(await verify('ver_nope'), 400, 'verification_link_invalid');
    const email = newEmail();
    await askSignUp(email, { businessName: 'First' });
    const [first] = await verificationTokens(email);
    ctx.clock.advance(SECOND); // newest first, by id
    await askSignUp(email, { businessName: 'Second', password: 'the second password' });
    const [second] = await verificationTokens(email);
    expect(second).not.toBe(first);
    problem(await verify(first as string), 400, 'verification_link_invalid');
    expect((await verify(second as string)).statusCode).toBe(200);
    expect((await login(email, 'the second password')).statusCode).toBe(200);

    const late = newEmail();
    await askSignUp(late);
    const lateToken = await verificationToken(late);
    ctx.clock.advance(8 * 24 * 3600 * SECOND);
    problem(await verify(lateToken), 400, 'verification_link_invalid');
    problem(await login(late), 401, 'invalid_credentials');
  });

  it('the operator console reads the outbox and shows how the address was verified; other roles and merchants cannot', async () => {
    const shop = await signUp();
    const compliance = await operator('compliance');
    const outbox = await opSend('GET', `/operator/api/messages?to=${encodeURIComponent(shop.email)}`, compliance);
    expect(outbox.statusCode, outbox.body).toBe(200);
    expect(outbox.json().data[0]).toMatchObject({ object: 'message', to: shop.email, provider: 'outbox' });
    expect(outbox.json().data[0].body).toMatch(/\/dashboard\/verify-email\?token=ver_/);
    const profile = await opSend('GET', `/operator/api/merchants/${shop.merchantId}/profile`, compliance);
    expect(profile.json()).toMatchObject({ emailVerified: true, emailVerifiedVia: 'outbox' });
    // A CLI merchant was never checked by e-mail.
    const cli = await ctx.services.merchants.createMerchant({ name: 'By the CLI' });
    expect((await opSend('GET', `/operator/api/merchants/${cli.merchantId}/profile`, compliance)).json()).toMatchObject({ emailVerifiedVia: null });

    problem(await opSend('GET', '/operator/api/messages', await operator('support')), 403, 'permission_denied');
    expect((await opSend('GET', '/operator/api/messages')).statusCode).toBe(401);
    expect((await dashboardCall(ctx.app, 'GET', '/operator/api/messages', shop.browser)).statusCode).toBe(401);
  });

  it('an address with SMTP: the link is sent, and the profile says it was verified through it', async () => {
    const sent: { to: string; body: string }[] = [];
    const email = { name: 'smtp', send: async (to: string, _subject: string, body: string) => (sent.push({ to, body }), { ref: 'smtp-1' }) };
    const config = {
      ...ctx.deps.config,
      messaging: { ...ctx.deps.config.messaging, email: { provider: 'smtp' as const, url: 'smtp://mail.example', from: 'caisse@example.com' } },
    };
    const deps = { ...ctx.deps, config };
    const onboarding = createOnboardingService(deps, { merchants: ctx.services.merchants, messaging: createMessagingService(deps, { email }) });
    const address = newEmail();
    const answer = await onboarding.signUp(
      { businessName: 'Mailed', country: 'CM', email: address, password: PASSWORD, language: 'en' },
      'https://pay.example.com',
    );
    expect(answer).toMatchObject({ object: 'sign_up_request', delivery: 'email' });
    expect(await proofsTo(address)).toEqual([]);
    const token = /token=(ver_[0-9A-Za-z]+)/.exec(sent.find((m) => m.to === address)?.body ?? '')?.[1] as string;
    await onboarding.verifyEmail(token);
    const browser = dashboardBrowserOf(await login(address));
    const profile = (await dashboardCall(ctx.app, 'GET', '/dashboard/api/profile', browser)).json();
    expect(profile).toMatchObject({ emailVerified: true, emailVerifiedVia: 'smtp' });
  });
});

describe('the payer-facing short name', () => {
  const setName = (who: DashboardBrowser, shortName: string | null) => dashboardCall(ctx.app, 'PUT', '/dashboard/api/profile/short-name', who, { shortName });

  it('defaults to the trade name made to fit, else the merchant name; the merchant sets a valid one, or back to the default', async () => {
    const shop = await signUp();
    const fresh = (await dashboardCall(ctx.app, 'GET', '/dashboard/api/profile', shop.browser)).json();
    // No trade name yet: the business name given at sign-up ("Shop N").
    expect(fresh.shortName).toEqual({ name: fresh.merchantName, custom: false, default: fresh.merchantName });
    const patched = await dashboardCall(ctx.app, 'PATCH', '/dashboard/api/profile', shop.browser, { tradeName: "L'Épicerie de Mamadou & Fils, Dakar" });
    // Accents stripped, punctuation dropped, cut to 22 at a word.
    expect(patched.json().shortName).toEqual({ name: 'L Epicerie de Mamadou', custom: false, default: 'L Epicerie de Mamadou' });
    expect((await ctx.services.merchants.shortName(shop.merchantId)).name).toBe('L Epicerie de Mamadou');

    const set = await setName(shop.browser, '  Chez Awa 2  ');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().shortName).toEqual({ name: 'Chez Awa 2', custom: true, default: 'L Epicerie de Mamadou' });
    // The trade name changing later leaves the merchant's choice alone.
    await dashboardCall(ctx.app, 'PATCH', '/dashboard/api/profile', shop.browser, { tradeName: 'Awa' });
    expect((await ctx.services.merchants.shortName(shop.merchantId)).name).toBe('Chez Awa 2');
    // Null: back to the default ("Awa" is too short, so the merchant's name).
    expect((await setName(shop.browser, null)).json().shortName).toEqual({ name: fresh.merchantName, custom: false, default: fresh.merchantName });
  });

  it('refuses 3 characters, accents, punctuation and more than 22 with 400 short_name_invalid, and keeps the name', async () => {
    const shop = await signUp();
    expect((await setName(shop.browser, 'Boutique Awa')).statusCode).toBe(200);
    for (const bad of ['Awa', 'Épicerie Awa', 'Awa & Co', 'A'.repeat(23), '    ']) {
      const body = problem(await setName(shop.browser, bad), 400, 'short_name_invalid');
      expect(body.param).toBe('shortName');
      expect(body.detail).toMatch(/4 to 22 ASCII letters, digits and spaces/);
    }
    expect((await ctx.services.merchants.shortName(shop.merchantId)).name).toBe('Boutique Awa');
    // Under review the profile is locked, the short name is not.
    await dashboardCall(ctx.app, 'PATCH', '/dashboard/api/profile', shop.browser, DETAILS);
    expect((await upload(shop.browser, PDF, 'application/pdf')).statusCode).toBe(200);
    expect((await dashboardCall(ctx.app, 'POST', '/dashboard/api/profile/submit', shop.browser, {})).statusCode).toBe(200);
    expect((await setName(shop.browser, 'Chez Ndiaye')).json().shortName.name).toBe('Chez Ndiaye');
  });
});

describe('a fresh verification link', () => {
  const resend = (email: string) => dashboardCall(ctx.app, 'POST', '/dashboard/api/sign-up/resend', undefined, { email });

  it('replaces the link before, answers 202 for an unknown address, and 429 past the limit', async () => {
    const email = newEmail();
    await askSignUp(email);
    const [first] = await verificationTokens(email);
    const res = await resend(email.toUpperCase());
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ object: 'email_verification_request', expiresInSeconds: 7 * 24 * 3600 });
    const tokens = await verificationTokens(email);
    expect(tokens).toHaveLength(2);
    const second = tokens.find((t) => t !== first) as string;
    problem(await verify(first as string), 400, 'verification_link_invalid');
    const ok = await verify(second);
    expect(ok.json(), ok.body).toMatchObject({ verified: true, email });

    // Verified: a resend still answers 202 and sends nothing.
    expect((await resend(email)).statusCode).toBe(202);
    expect(await verificationTokens(email)).toHaveLength(2);

    // An unknown address: the same answer.
    const unknown = await resend('nobody-here@shop.example');
    expect(unknown.statusCode).toBe(202);
    expect(unknown.json()).toEqual(res.json());

    // Three an hour per e-mail address, then 429 with Retry-After; an hour later it works again.
    const other = newEmail();
    await askSignUp(other);
    for (let i = 0; i < 3; i++) expect((await resend(other)).statusCode).toBe(202);
    const refused = problem(await resend(other), 429, 'rate_limited');
    expect(refused).toBeDefined();
    ctx.clock.advance(3601 * SECOND);
    expect((await resend(other)).statusCode).toBe(202);
  });
});

describe('the identity document', () => {
  it('takes a PDF, JPEG or PNG checked by content, at most 5 MB; anything else is 400 and stores nothing', async () => {
    const shop = await signUp();
    const doc = () => ctx.deps.db.selectFrom('merchant_documents').selectAll().where('merchant_id', '=', shop.merchantId).executeTakeFirst();

    problem(await upload(shop.browser, PDF, 'image/png'), 400, 'document_invalid');
    problem(await upload(shop.browser, Buffer.from('GIF89a' + 'x'.repeat(100)), 'image/gif'), 400, 'document_invalid');
    problem(await upload(shop.browser, Buffer.from('not a pdf at all'), 'application/pdf'), 400, 'document_invalid');
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5 * 1024 * 1024, 0x41)]);
    problem(await upload(shop.browser, big, 'application/pdf'), 400, 'document_invalid');
    // Polyglots: a valid file with a page riding along (the checks themselves: onboarding.documents.test.ts).
    problem(await upload(shop.browser, Buffer.concat([PDF, HTML]), 'application/pdf'), 400, 'document_invalid');
    problem(await upload(shop.browser, Buffer.concat([PNG, HTML]), 'image/png'), 400, 'document_invalid');
    expect(await doc()).toBeUndefined();

    const png = await upload(shop.browser, PNG, 'image/png');
    expect(png.json(), png.body).toMatchObject({ document: { contentType: 'image/png', size: PNG.length } });
    const ok = await upload(shop.browser, PDF, 'application/pdf');
    expect(ok.json()).toMatchObject({ document: { contentType: 'application/pdf', size: PDF.length } });
    // Encrypted at rest: the stored bytes hold neither the file nor its base64.
    const stored = (await doc())?.bytes_encrypted as Buffer;
    expect(stored.includes(PDF.subarray(0, 64))).toBe(false);
    expect(stored.toString('latin1')).not.toContain(PDF.toString('base64').slice(0, 40));
    // Not served to the merchant's browser nor publicly.
    expect((await dashboardCall(ctx.app, 'GET', `/operator/api/merchants/${shop.merchantId}/profile/document`, shop.browser)).statusCode).toBe(401);
  });
});

describe('live mode before and after approval', () => {
  it('refuses live keys and live calls until an operator approves; a rejection tells the reason; the approval opens live mode', async () => {
    const shop = await submitted('en');
    await setTotpEnrolled(ctx, shop.email, true);
    problem(
      await dashboardCall(ctx.app, 'POST', '/dashboard/api/live/keys', shop.browser, { kind: 'publishable', name: 'site' }),
      403,
      'merchant_not_approved',
    );
    expect(await ctx.deps.db.selectFrom('api_keys').select('id').where('merchant_id', '=', shop.merchantId).where('mode', '=', 'live').execute()).toEqual([]);

    // A profile under review does not change.
    problem(await dashboardCall(ctx.app, 'PATCH', '/dashboard/api/profile', shop.browser, { activity: 'Other' }), 409, 'profile_state_invalid');

    const finance = await operator('finance');
    const denied = problem(await opSend('GET', '/operator/api/profiles', finance), 403, 'permission_denied');
    expect(denied).toMatchObject({ permission: 'merchants:review' });
    problem(await opSend('POST', `/operator/api/merchants/${shop.merchantId}/profile/approve`, finance, {}), 403, 'permission_denied');

    const compliance = await operator('compliance');
    const list = (await opSend('GET', '/operator/api/profiles', compliance)).json();
    expect(list.data.map((p: { merchantId: string }) => p.merchantId)).toContain(shop.merchantId);
    const file = await opSend('GET', `/operator/api/merchants/${shop.merchantId}/profile/document`, compliance);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['cache-control']).toBe('no-store');
    expect(file.rawPayload.equals(PDF)).toBe(true);
    expect((await opSend('GET', `/operator/api/merchants/${shop.merchantId}/profile/document`)).statusCode).toBe(401);

    // Rejected with a reason: told by e-mail, resubmittable.
    problem(await opSend('POST', `/operator/api/merchants/${shop.merchantId}/profile/reject`, compliance, { reason: '' }), 400, 'validation_error');
    const rejected = await opSend('POST', `/operator/api/merchants/${shop.merchantId}/profile/reject`, compliance, { reason: 'The ID is unreadable' });
    expect(rejected.json(), rejected.body).toMatchObject({ state: 'rejected', rejectionReason: 'The ID is unreadable', liveApproved: false });
    const rejectMail = (await mailsTo(shop.merchantId, shop.email)).find((m) => /not approved/.test(m.body ?? ''));
    expect(rejectMail?.body).toContain('The ID is unreadable');
    expect((await upload(shop.browser, PNG, 'image/png')).statusCode).toBe(200);
    expect((await dashboardCall(ctx.app, 'POST', '/dashboard/api/profile/submit', shop.browser, {})).json()).toMatchObject({
      state: 'submitted',
      rejectionReason: null,
    });

    // Two approvals at once: one effect, one audit entry.
    const [a, b] = await Promise.all([
      opSend('POST', `/operator/api/merchants/${shop.merchantId}/profile/approve`, compliance, {}),
      opSend('POST', `/operator/api/merchants/${shop.merchantId}/profile/approve`, compliance, {}),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const audit = (await opSend('GET', `/operator/api/audit?targetId=${shop.merchantId}`, await operator('admin'))).json();
    const actions = audit.data.map((e: { action: string }) => e.action);
    expect(actions.filter((x: string) => x === 'merchant.approved')).toHaveLength(1);
    expect(audit.data.find((e: { action: string }) => e.action === 'merchant.approved')).toMatchObject({
      before: { state: 'submitted' },
      after: { state: 'approved' },
    });
    expect(audit.data.find((e: { action: string }) => e.action === 'merchant.rejected')).toMatchObject({ reason: 'The ID is unreadable' });
    expect((await mailsTo(shop.merchantId, shop.email)).some((m) => /Live mode is open/.test(m.body ?? ''))).toBe(true);

    // Live mode open: keys, and calls with them.
    const pkLive = await dashboardCall(ctx.app, 'POST', '/dashboard/api/live/keys', shop.browser, { kind: 'publishable', name: 'site' });
    expect(pkLive.statusCode, pkLive.body).toBe(201);
    const skLive = await ctx.services.merchants.createKey(shop.merchantId, { kind: 'secret', mode: 'live', name: 'server' });
    const balance = await call(ctx.app, 'GET', '/balance', { apiKey: pkLive.json().secret, secretKey: skLive.secret });
    expect(balance.statusCode, balance.body).toBe(200);

    // Approval withdrawn (as the column says): live calls answer 403 at once.
    await ctx.deps.db.transaction().execute((tx) => ctx.services.merchants.setApproved(tx, shop.merchantId, null));
    problem(await call(ctx.app, 'GET', '/balance', { apiKey: pkLive.json().secret, secretKey: skLive.secret }), 403, 'merchant_not_approved');
  });

  it('merchants made by the CLI are approved at creation: their live keys work as before', async () => {
    const made = await ctx.services.merchants.createMerchant({ name: 'Cli Shop' });
    const key = await ctx.services.merchants.createKey(made.merchantId, { kind: 'publishable', mode: 'live', name: 'live' });
    const sk = await ctx.services.merchants.createKey(made.merchantId, { kind: 'secret', mode: 'live', name: 'live sk' });
    expect((await call(ctx.app, 'GET', '/balance', { apiKey: key.secret, secretKey: sk.secret })).statusCode).toBe(200);
  });

  it('a French merchant is told of the approval in French', async () => {
    const shop = await submitted('fr');
    const admin = await operator('admin');
    expect((await opSend('POST', `/operator/api/merchants/${shop.merchantId}/profile/approve`, admin, {})).statusCode).toBe(200);
    expect((await mailsTo(shop.merchantId, shop.email)).some((m) => /^Bonne nouvelle/.test(m.body ?? ''))).toBe(true);
  });
});
