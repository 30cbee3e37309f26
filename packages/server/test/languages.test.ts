import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import registerPages from '../src/modules/dashboard/dashboard.pages.ts';
import { smsBody } from '../src/modules/messaging/index.ts';
import en from '../src/messages/en.json' with { type: 'json' };
import { type MessageId, translator } from '../src/platform/i18n.ts';
import { createIntent, lastMessage, newUser, problem, type TestUser } from './flow.support.ts';
import { call, createMerchant, createTestContext, pk, sk, type TestContext, type TestMerchant } from './harness.ts';

/**
 * Languages (docs/spec/languages.md) on the server: a customer's SMS are in the language saved on them (set
 * at registration from `language` or Accept-Language, changed with PATCH /users/me), else in the
 * request's Accept-Language, else in the merchant's default, else French; amounts are written for
 * that locale. Also the dashboard user's language and the pages' `<html lang>`.
 */
let ctx: TestContext;
let m: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Polyglot');
});
afterAll(() => ctx.close());

let seq = 400000;
const phone = () => `+237651${String(seq++).padStart(6, '0')}`;
const PASSWORD = 'limbe-sunset-2026';
const lang = (language: string) => ({ 'accept-language': language });

/** Registers with POST /users, verifies the phone with the SMS code, and signs in: the customer, their first SMS and the sign-in answer. */
async function registered(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const phoneNumber = phone();
  const res = await call(ctx.app, 'POST', '/users', { ...pk(m), headers }, { phoneNumber, password: PASSWORD, ...body });
  expect(res.statusCode, res.body).toBe(202);
  const row = await ctx.deps.db.selectFrom('users').select(['id', 'language']).where('phone_number', '=', phoneNumber).executeTakeFirstOrThrow();
  const sms = await lastMessage(ctx, m, row.id);
  const verified = await call(ctx.app, 'POST', '/users/verify-phone', pk(m), { phoneNumber, code: sms.code });
  expect(verified.statusCode, verified.body).toBe(200);
  const auth = await call(ctx.app, 'POST', '/auth/web', pk(m), { phoneNumber, password: PASSWORD });
  expect(auth.statusCode, auth.body).toBe(200);
  const signedIn = auth.json() as { token: string; language: string | null };
  const user: TestUser = { id: row.id, phoneNumber, creds: { apiKey: m.apiKey, token: signedIn.token } };
  return { user, saved: row.language, sms, verified: verified.json() as { language: string | null }, signedIn };
}

/** initOtp for an intent of `amount` XAF, with the request's headers: the SMS it sent. */
async function codeSms(user: TestUser, headers: Record<string, string> = {}, amount = '7500') {
  const intent = await createIntent(ctx, m, { amount });
  // Past the send limit (one code per 30 s), and so that the newest message sorts last.
  ctx.clock.advance(31_000);
  const res = await call(ctx.app, 'POST', '/otp/init', { ...user.creds, headers }, { userId: user.id, channel: 'sms', intentionId: intent.id });
  expect(res.statusCode, res.body).toBe(200);
  return (await lastMessage(ctx, m, user.id)).body;
}

describe("a customer's SMS", () => {
  it('are in the language saved at registration from Accept-Language, whatever a later request asks', async () => {
    const { user, saved, sms, verified, signedIn } = await registered({}, lang('en-GB,en;q=0.9,fr;q=0.5'));
    expect(saved).toBe('en');
    expect(sms.body).toMatch(/^Your verification code is \d{6}\. It expires in 10 minutes\. Never share it\.$/);
    expect(verified.language).toBe('en');
    // The sign-in answer names it, so a checkout can follow it.
    expect(signedIn.language).toBe('en');
    // The saved language beats the request's Accept-Language; the amount is written for English.
    expect(await codeSms(user, lang('fr-CM'))).toMatch(/^\d{6} is your Caisse code to pay FCFA 7,500 to Polyglot\. It expires in 5 minutes\./);
  });

  it('are in an explicit `language` rather than Accept-Language, and change with PATCH /users/me', async () => {
    const { user, saved, sms } = await registered({ language: 'fr-CM' }, lang('en'));
    expect(saved).toBe('fr');
    expect(sms.body).toMatch(/^Votre code de vérification est \d{6}\. Il expire dans 10 minutes\./);
    expect(await codeSms(user, lang('en'))).toMatch(/^\d{6} est votre code Caisse pour payer 7 500 FCFA à Polyglot\. Il expire dans 5 minutes\./);

    const changed = await call(ctx.app, 'PATCH', '/users/me', user.creds, { language: 'en' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: user.id, object: 'user', language: 'en' });
    expect(await codeSms(user, {}, '12000')).toMatch(/^\d{6} is your Caisse code to pay FCFA 12,000 to Polyglot\./);
    ctx.clock.advance(1000);
    const reset = await call(ctx.app, 'POST', '/auth/password-reset', { ...pk(m), headers: lang('fr') }, { phoneNumber: user.phoneNumber });
    expect(reset.statusCode).toBe(202);
    expect((await lastMessage(ctx, m, user.id)).body).toMatch(/^Your password reset code is \d{6}\./);

    // Only French and English; the customer's token is needed.
    problem(await call(ctx.app, 'PATCH', '/users/me', user.creds, { language: 'de' }), 400, 'validation_error');
    problem(await call(ctx.app, 'PATCH', '/users/me', pk(m), { language: 'fr' }), 401, 'access_token_missing');
  });

  it("without a saved language: the request's Accept-Language, else the merchant's default, else French", async () => {
    const merchant = await createMerchant(ctx, 'Default shop');
    const user = await newUser(ctx, merchant);
    const sms = async (headers: Record<string, string>) => {
      const intent = await createIntent(ctx, merchant, { amount: '5000' });
      ctx.clock.advance(31_000);
      const res = await call(ctx.app, 'POST', '/otp/init', { ...user.creds, headers }, { userId: user.id, channel: 'sms', intentionId: intent.id });
      expect(res.statusCode, res.body).toBe(200);
      return (await lastMessage(ctx, merchant, user.id)).body;
    };
    expect(await sms(lang('de-DE, en-US;q=0.8'))).toMatch(/to pay FCFA 5,000 to Default shop\./);
    expect(await sms(lang('de'))).toMatch(/pour payer 5 000 FCFA à Default shop\./);
    const { sessionToken } = await createIntent(ctx, merchant);
    const read = async () => (await call(ctx.app, 'GET', `/gateway/sessions/${sessionToken}`, pk(merchant))).json() as { merchantLanguage: string };
    expect((await read()).merchantLanguage).toBe('fr');
    await ctx.services.merchants.setLanguage(merchant.merchantId, 'en');
    // A checkout reads the merchant's default with the intent, for a browser that asks for neither language.
    expect((await read()).merchantLanguage).toBe('en');
    expect(await sms({})).toMatch(/to pay FCFA 5,000 to Default shop\./);
    expect(await sms(lang('fr-SN'))).toMatch(/pour payer 5 000 FCFA à Default shop\./);
  });

  it("the daily wrong-code limit's SMS: the saved language, else the request's (issue 20)", async () => {
    /** 20 wrong codes (4 codes, 5 wrong tries each), verifications sent with `headers`: the alert's text. */
    const alert = async (user: TestUser, headers: Record<string, string>) => {
      for (let round = 0; round < 4; round++) {
        ctx.clock.advance(31_000);
        expect((await call(ctx.app, 'POST', '/otp/init', user.creds, { userId: user.id, channel: 'sms' })).statusCode).toBe(200);
        const { code } = await lastMessage(ctx, m, user.id);
        const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
        for (let i = 0; i < 5; i++) await call(ctx.app, 'POST', '/otp/verify', { ...user.creds, headers }, { userId: user.id, otp: wrong });
      }
      const res = await call(ctx.app, 'GET', `/test/messages?userId=${user.id}`, sk(m));
      const texts = (res.json() as { data: { body: string }[] }).data.map((x) => x.body).filter((b) => b.startsWith('Caisse'));
      expect(texts).toHaveLength(1);
      return texts[0];
    };
    // No saved language: the verification's Accept-Language.
    expect(await alert(await newUser(ctx, m), lang('en-CM'))).toBe(
      'Caisse: someone entered 20 wrong codes for your account today, so payment codes are paused until tomorrow (00:00 UTC). If it was not you, change your password.',
    );
    // Saved French beats an English request.
    const { user } = await registered({ language: 'fr' });
    expect(await alert(user, lang('en'))).toMatch(/^Caisse : 20 codes erronés ont été saisis aujourd'hui/);
  });

  it('every SMS text of both catalogues stays in the GSM 7-bit alphabet (160 characters a part, not 70)', () => {
    const GSM7 = new Set('@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà');
    const values = {
      code: '123456',
      minutes: 10,
      count: 20,
      merchant: 'Boutique Akwa',
      provider: 'MTN MoMo',
      inviter: 'owner@akwa.example',
      role: 'analyst',
      link: 'https://caisse.example/dashboard/invitations/inv_x',
      reason: 'The identity document is unreadable',
      email: 'owner@akwa.example',
      signIn: 'https://caisse.example/dashboard',
    };
    for (const language of ['fr-CM', 'fr-SN', 'en'] as const) {
      const t = translator({ requested: [language] });
      for (const id of Object.keys(en) as MessageId[]) {
        // Subjects, the payment link's and the account's web pages and the approval hint shown in
        // checkout (`nextAction.message`) are never sent by SMS.
        if (id.endsWith('Subject') || id === 'otp.subject' || id.startsWith('paymentLinks.') || id.startsWith('account.') || id.startsWith('attempts.'))
          continue;
        const text = smsBody(t.text(id, { ...values, amount: t.amount(1_250_000n, language === 'fr-SN' ? 'XOF' : 'XAF') }));
        const outside = [...text].filter((c) => !GSM7.has(c));
        expect(outside, `${language} ${id}: ${text}`).toEqual([]);
      }
    }
  });
});

describe("the dashboard user's language", () => {
  it('is none until chosen, then remembered across sign-ins; the session names the merchant default', async () => {
    const login = async () => {
      const res = await call(ctx.app, 'POST', '/dashboard/api/login', {}, m.dashboard);
      expect(res.statusCode, res.body).toBe(200);
      return {
        cookie: String(res.headers['set-cookie']).split(';')[0] as string,
        body: res.json() as { csrfToken: string; language: string | null; merchant: { language: string } },
      };
    };
    const first = await login();
    expect(first.body).toMatchObject({ language: null, merchant: { language: 'fr' } });
    const set = await call(
      ctx.app,
      'PATCH',
      '/dashboard/api/session',
      { headers: { cookie: first.cookie, 'x-csrf-token': first.body.csrfToken } },
      { language: 'en' },
    );
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ language: 'en', csrfToken: first.body.csrfToken });
    expect((await login()).body.language).toBe('en');
    const bad = await call(
      ctx.app,
      'PATCH',
      '/dashboard/api/session',
      { headers: { cookie: first.cookie, 'x-csrf-token': first.body.csrfToken } },
      { language: 'de' },
    );
    expect(bad.statusCode).toBe(400);
    const back = await call(
      ctx.app,
      'PATCH',
      '/dashboard/api/session',
      { headers: { cookie: first.cookie, 'x-csrf-token': first.body.csrfToken } },
      { language: null },
    );
    expect(back.json()).toMatchObject({ language: null });
  });
});

describe("the pages' language", () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'caisse-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'checkout.html'), '<!doctype html><html lang="en"><head><meta name="caisse-checkout" content="{}"></head></html>');
    writeFileSync(join(dist, 'dashboard.html'), '<!doctype html><html lang="en"><title>Dashboard</title></html>');
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it("follow Accept-Language, else the merchant's default, else French", async () => {
    const app = Fastify();
    app.decorate('services', ctx.services);
    registerPages(app, dist);
    await app.ready();
    const page = async (url: string, language?: string) => {
      const res = await app.inject({ method: 'GET', url, headers: language ? lang(language) : {} });
      const meta = /content="([^"]*)"/.exec(res.body)?.[1]?.replace(/&quot;/g, '"');
      return { lang: /<html lang="([^"]*)">/.exec(res.body)?.[1], config: meta ? (JSON.parse(meta) as Record<string, unknown>) : undefined };
    };
    const merchant = await createMerchant(ctx, 'Page shop');
    const { sessionToken } = await createIntent(ctx, merchant);
    expect(await page(`/checkout/${sessionToken}`, 'en-US,en;q=0.9')).toMatchObject({
      lang: 'en',
      config: { language: 'en', locale: 'en-US', merchantLanguage: 'fr' },
    });
    expect(await page(`/checkout/${sessionToken}`, 'fr-CM')).toMatchObject({ lang: 'fr', config: { language: 'fr', locale: 'fr-CM' } });
    expect(await page(`/checkout/${sessionToken}`, 'de')).toMatchObject({ lang: 'fr', config: { language: 'fr', locale: 'fr' } });
    await ctx.services.merchants.setLanguage(merchant.merchantId, 'en');
    expect(await page(`/checkout/${sessionToken}`, 'de')).toMatchObject({ lang: 'en', config: { language: 'en', merchantLanguage: 'en' } });
    expect(await page(`/checkout/${sessionToken}`)).toMatchObject({ lang: 'en' });
    expect(await page('/checkout/ps_unknown', 'en')).toMatchObject({ lang: 'en', config: { error: 'not_found', language: 'en' } });
    expect((await page('/dashboard/test/payments', 'fr-CM')).lang).toBe('fr');
    expect((await page('/dashboard', 'en')).lang).toBe('en');
    await app.close();
  });
});
