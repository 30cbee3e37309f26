import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createMerchant, createTestContext, setTotpEnrolled, sk, type TestContext, type TestMerchant } from './harness.ts';
import { authorize, charge, newUser, problem } from './flow.support.ts';

/**
 * Payment links (issue 22): the merchant's API with the secret key, and the visit /pay/{id} that
 * creates an intent and sends the browser to its hosted checkout. The visit's per-address limit
 * is 5 a minute here (CAISSE_RATE_LIMIT_IP); each test visits from its own address.
 */
let ctx: TestContext;
let m: TestMerchant;
let other: TestMerchant;
let address = 0;
const nextAddress = () => `10.0.0.${++address}`;

beforeAll(async () => {
  ctx = await createTestContext({ env: { CAISSE_RATE_LIMIT_IP: '5' } });
  m = await createMerchant(ctx, 'Links');
  other = await createMerchant(ctx, 'Other');
}, 60_000);
afterAll(() => ctx.close());

const live = (t: TestMerchant) => ({ apiKey: t.live.apiKey, secretKey: t.live.secretKey });

async function createLink(t: TestMerchant = m, body: Record<string, unknown> = {}, creds = sk(t)) {
  // Ids sort by their millisecond: the manual clock moves on so each link is newer than the last.
  ctx.clock.advance(1);
  const res = await call(ctx.app, 'POST', '/payment-links', creds, { amount: '5000', currency: 'XAF', description: 'Pagne wax, 6 yards', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; url: string; active: boolean; livemode: boolean; amount: string; metadata: Record<string, unknown> };
}

function visit(id: string, opts: { method?: 'GET' | 'HEAD'; ip?: string; language?: string; userAgent?: string } = {}) {
  ctx.clock.advance(1); // each visit's intent is newer than the last (ids sort by millisecond)
  return ctx.app.inject({
    method: opts.method ?? 'GET',
    url: `/pay/${id}`,
    remoteAddress: opts.ip ?? nextAddress(),
    headers: { ...(opts.language ? { 'accept-language': opts.language } : {}), ...(opts.userAgent ? { 'user-agent': opts.userAgent } : {}) },
  });
}

async function payments(id: string, t: TestMerchant = m) {
  const res = await call(ctx.app, 'GET', `/payment-links/${id}/payments`, sk(t));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: { id: string; status: string; amount: string; description: string; metadata: Record<string, unknown> }[]; hasMore: boolean };
}

describe('the merchant API', () => {
  it("a link's url starts with CAISSE_PUBLIC_URL when it is set, whatever host the API was called by", async () => {
    const pub = await createTestContext({ env: { CAISSE_PUBLIC_URL: 'https://pay.example.com/' } });
    try {
      const owner = await createMerchant(pub, 'Public');
      const res = await call(pub.app, 'POST', '/payment-links', sk(owner), { amount: '100', currency: 'XAF', description: 'Public' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().url).toBe(`https://pay.example.com/pay/${res.json().id}`);
    } finally {
      await pub.close();
    }
  });

  it('creates a link with its shareable url, and retrieves and lists it', async () => {
    const link = await createLink(m, { metadata: { sku: 'WAX-6' } });
    expect(link).toMatchObject({
      object: 'payment_link',
      amount: '5000',
      currency: 'XAF',
      description: 'Pagne wax, 6 yards',
      metadata: { sku: 'WAX-6' },
      active: true,
      livemode: false,
    });
    expect(link.id).toMatch(/^plink_[0-9a-z]{26}$/);
    expect(link.url).toBe(`http://localhost:80/pay/${link.id}`);
    const got = await call(ctx.app, 'GET', `/payment-links/${link.id}`, sk(m));
    expect(got.json()).toEqual(link);
    const second = await createLink(m, { amount: '7500' });
    const list = await call(ctx.app, 'GET', '/payment-links?limit=1', sk(m));
    expect(list.json()).toMatchObject({ object: 'list', hasMore: true, data: [{ id: second.id }] });
    const next = await call(ctx.app, 'GET', `/payment-links?limit=100&startingAfter=${second.id}`, sk(m));
    expect((next.json() as { data: { id: string }[] }).data.map((l) => l.id)).toContain(link.id);
  });

  it("refuses bad input with the intents' codes", async () => {
    const post = (body: Record<string, unknown>) =>
      call(ctx.app, 'POST', '/payment-links', sk(m), { amount: '5000', currency: 'XAF', description: 'x', ...body });
    problem(await post({ amount: '5000.5' }), 400, 'amount_invalid');
    problem(await post({ amount: '0' }), 400, 'amount_invalid');
    problem(await post({ amount: '1000000000000' }), 400, 'amount_invalid');
    problem(await post({ amount: 5000 }), 400, 'amount_invalid');
    problem(await post({ currency: 'GBP' }), 400, 'currency_unsupported');
    // A Cameroonian merchant's links are in XAF: no route of Cameroon takes XOF or EUR (decision 0082).
    for (const currency of ['XOF', 'EUR']) expect(problem(await post({ currency }), 400, 'currency_unsupported').param).toBe('currency');
    problem(await post({ metadata: { nested: { a: 1 } } }), 400, 'metadata_invalid');
    problem(await post({ metadata: { payment_link: 'mine' } }), 400, 'metadata_invalid');
    problem(await post({ metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])) }), 400, 'metadata_invalid');
    problem(await post({ description: '' }), 400, 'validation_error');
    problem(await post({ description: 'd'.repeat(1001) }), 400, 'validation_error');
    problem(await post({ expiresIn: 600 }), 400, 'parameter_unknown');
    problem(await call(ctx.app, 'POST', '/payment-links', sk(m), { amount: '5000', currency: 'XAF' }), 400, 'validation_error');
    const link = await createLink();
    problem(await call(ctx.app, 'POST', `/payment-links/${link.id}`, sk(m), { active: 'no' }), 400, 'validation_error');
    problem(await call(ctx.app, 'POST', `/payment-links/${link.id}`, sk(m), { amount: '1' }), 400, 'parameter_unknown');
    problem(
      await call(ctx.app, 'POST', '/payment-links', { apiKey: m.apiKey }, { amount: '5000', currency: 'XAF', description: 'x' }),
      401,
      'secret_key_required',
    );
  });

  it("keeps modes and merchants apart: another mode's or merchant's link is 404", async () => {
    const testLink = await createLink();
    const liveLink = await createLink(m, {}, live(m));
    expect(liveLink.livemode).toBe(true);
    problem(await call(ctx.app, 'GET', `/payment-links/${testLink.id}`, live(m)), 404, 'not_found');
    problem(await call(ctx.app, 'GET', `/payment-links/${liveLink.id}`, sk(m)), 404, 'not_found');
    problem(await call(ctx.app, 'GET', `/payment-links/${testLink.id}`, sk(other)), 404, 'not_found');
    problem(await call(ctx.app, 'POST', `/payment-links/${testLink.id}`, sk(other), { active: false }), 404, 'not_found');
    problem(await call(ctx.app, 'GET', `/payment-links/${testLink.id}/payments`, sk(other)), 404, 'not_found');
    const liveList = (await call(ctx.app, 'GET', '/payment-links?limit=100', live(m))).json() as { data: { id: string }[] };
    expect(liveList.data.map((l) => l.id)).toEqual([liveLink.id]);
    // A live link's visit makes a live intent.
    const res = await visit(liveLink.id);
    expect(res.statusCode).toBe(303);
    const [intent] = (await call(ctx.app, 'GET', `/payment-links/${liveLink.id}/payments`, live(m))).json().data;
    expect(intent.livemode).toBe(true);
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'link-create-1' };
    const body = { amount: '2500', currency: 'XAF', description: 'Once' };
    const first = await call(ctx.app, 'POST', '/payment-links', { ...sk(m), headers }, body);
    const again = await call(ctx.app, 'POST', '/payment-links', { ...sk(m), headers }, body);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    problem(await call(ctx.app, 'POST', '/payment-links', { ...sk(m), headers }, { ...body, amount: '2600' }), 422, 'idempotency_key_reused');
  });
});

describe('a visit', () => {
  it('creates an intent of the link and redirects to its hosted checkout (303); two visits, two intents', async () => {
    const link = await createLink(m, { metadata: { sku: 'WAX-6' } });
    const first = await visit(link.id);
    expect(first.statusCode, first.body).toBe(303);
    expect(first.headers.location).toMatch(/^\/checkout\/ps_[0-9A-Za-z]{69}$/);
    const second = await visit(link.id);
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).not.toBe(first.headers.location);
    const list = await payments(link.id);
    expect(list.data).toHaveLength(2);
    for (const intent of list.data) {
      expect(intent).toMatchObject({ status: 'PENDING', amount: '5000', description: 'Pagne wax, 6 yards', metadata: { sku: 'WAX-6', payment_link: link.id } });
    }
    // The session token in the Location is the intent's (the browser reads it with the API key).
    const token = String(second.headers.location).slice('/checkout/'.length);
    const read = await call(ctx.app, 'GET', `/gateway/sessions/${token}`, { apiKey: m.apiKey });
    expect(read.json().id).toBe(list.data[0]?.id);
  });

  it("an inactive link answers a 410 page in the reader's language, and comes back when reactivated", async () => {
    const link = await createLink();
    const off = await call(ctx.app, 'POST', `/payment-links/${link.id}`, sk(m), { active: false });
    expect(off.json().active).toBe(false);
    const fr = await visit(link.id, { language: 'fr-CM,fr;q=0.9' });
    expect(fr.statusCode).toBe(410);
    expect(fr.headers['content-type']).toMatch(/^text\/html/);
    expect(fr.body).toContain('<html lang="fr">');
    expect(fr.body).toContain('n’est plus actif');
    const en = await visit(link.id, { language: 'en-GB' });
    expect(en.body).toContain('no longer active');
    // Neither the Accept-Language nor… the merchant's default (French).
    expect((await visit(link.id, { language: 'de' })).body).toContain('<html lang="fr">');
    expect((await payments(link.id)).data).toHaveLength(0);
    await call(ctx.app, 'POST', `/payment-links/${link.id}`, sk(m), { active: true });
    expect((await visit(link.id)).statusCode).toBe(303);
  });

  it("a link whose currency its merchant's new country does not take opens nothing, as an inactive one", async () => {
    const moving = await createMerchant(ctx, 'Moving');
    const link = await createLink(moving);
    await ctx.services.merchants.setCountry(moving.merchantId, 'TG');
    expect((await visit(link.id, { language: 'en' })).statusCode).toBe(410);
    expect((await visit(link.id, { method: 'HEAD' })).statusCode).toBe(410);
    expect((await payments(link.id, moving)).data).toHaveLength(0);
    await ctx.services.merchants.setCountry(moving.merchantId, 'CM');
    expect((await visit(link.id)).statusCode).toBe(303);
  });

  it('an unknown link answers a 404 page, never JSON', async () => {
    for (const id of ['plink_00000000000000000000000000', 'nope', 'pi_00000000000000000000000000']) {
      const res = await visit(id, { language: 'en' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('does not exist');
    }
  });

  it('HEAD (a crawler) creates nothing and answers what a GET would', async () => {
    const link = await createLink();
    const head = await visit(link.id, { method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect((await visit('plink_00000000000000000000000000', { method: 'HEAD' })).statusCode).toBe(404);
    await call(ctx.app, 'POST', `/payment-links/${link.id}`, sk(m), { active: false });
    expect((await visit(link.id, { method: 'HEAD' })).statusCode).toBe(410);
    expect((await payments(link.id)).data).toHaveLength(0);
  });

  it("a link-preview robot's GET gets the preview page and creates nothing; a browser's GET does", async () => {
    const link = await createLink(m, { description: 'Pagne <wax>' });
    for (const userAgent of [
      'WhatsApp/2.23.20.0 A',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    ]) {
      const res = await visit(link.id, { userAgent, language: 'en' });
      expect(res.statusCode, userAgent).toBe(200);
      expect(res.body).toContain('<meta property="og:title" content="Pay FCFA');
      expect(res.body).toContain('to Links');
      expect(res.body).toContain('Pagne &lt;wax&gt;');
    }
    expect((await payments(link.id)).data).toHaveLength(0);
    // A phone whose brand ends in "bot" is a person.
    const phone = await visit(link.id, {
      userAgent: 'Mozilla/5.0 (Linux; Android 12; Cubot X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
    });
    expect(phone.statusCode).toBe(303);
    expect((await payments(link.id)).data).toHaveLength(1);
  });

  it('is limited per client address (an HTML 429 with Retry-After), other addresses still pass', async () => {
    const link = await createLink();
    const ip = nextAddress();
    for (let i = 0; i < 5; i++) expect((await visit(link.id, { ip })).statusCode).toBe(303);
    const over = await visit(link.id, { ip, language: 'en' });
    expect(over.statusCode).toBe(429);
    expect(over.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body).toContain('Too many payments');
    expect((await payments(link.id)).data).toHaveLength(5);
    expect((await visit(link.id)).statusCode).toBe(303);
    // The window ends with the minute.
    ctx.clock.advance(60_000);
    expect((await visit(link.id, { ip })).statusCode).toBe(303);
  });

  it("lists the link's payment once paid", async () => {
    const link = await createLink(m, { amount: '3000' });
    const res = await visit(link.id);
    const [intent] = (await payments(link.id)).data;
    expect(intent?.status).toBe('PENDING');
    const user = await newUser(ctx, m, { balance: '10000' });
    const paid = await charge(ctx, user, intent!.id, await authorize(ctx, m, user, intent!.id));
    expect(paid.statusCode, paid.body).toBe(200);
    expect(res.statusCode).toBe(303);
    const after = await payments(link.id);
    expect(after.data).toEqual([expect.objectContaining({ id: intent!.id, status: 'SUCCEEDED', amount: '3000' })]);
  });
});

describe('the dashboard API', () => {
  async function signIn(t: TestMerchant) {
    const res = await ctx.app.inject({ method: 'POST', url: '/dashboard/api/login', remoteAddress: nextAddress(), payload: t.dashboard });
    expect(res.statusCode, res.body).toBe(200);
    // Signed in with the password alone, then enrolled: live mode needs two-factor sign-in.
    await setTotpEnrolled(ctx, t.dashboard.email, true);
    return { cookie: String(res.headers['set-cookie']).split(';')[0] as string, 'x-csrf-token': res.json().csrfToken as string };
  }

  it('creates, lists, shows with its payments and deactivates a link, in the mode of the path', async () => {
    const headers = await signIn(m);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/test/payment-links',
      headers,
      payload: { amount: '1500', currency: 'XAF', description: 'From the dashboard' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json() as { id: string; url: string };
    expect(link.url).toMatch(/\/pay\/plink_/);
    problem(
      await ctx.app.inject({
        method: 'POST',
        url: '/dashboard/api/test/payment-links',
        headers,
        payload: { amount: '1.5', currency: 'XAF', description: 'x' },
      }),
      400,
      'amount_invalid',
    );
    // Without the CSRF token, nothing is created.
    problem(
      await ctx.app.inject({
        method: 'POST',
        url: '/dashboard/api/test/payment-links',
        headers: { cookie: headers.cookie },
        payload: { amount: '1500', currency: 'XAF', description: 'x' },
      }),
      403,
      'csrf_token_invalid',
    );
    const list = await ctx.app.inject({ method: 'GET', url: '/dashboard/api/test/payment-links?limit=100', headers });
    expect((list.json() as { data: { id: string }[] }).data.map((l) => l.id)).toContain(link.id);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/dashboard/api/live/payment-links?limit=100', headers })).json().data.map((l: { id: string }) => l.id),
    ).not.toContain(link.id);
    expect((await visit(link.id)).statusCode).toBe(303);
    const detail = await ctx.app.inject({ method: 'GET', url: `/dashboard/api/test/payment-links/${link.id}`, headers });
    expect(detail.json()).toMatchObject({ link: { id: link.id, active: true }, payments: { data: [{ amount: '1500', metadata: { payment_link: link.id } }] } });
    problem(await ctx.app.inject({ method: 'GET', url: `/dashboard/api/live/payment-links/${link.id}`, headers }), 404, 'not_found');
    const off = await ctx.app.inject({ method: 'POST', url: `/dashboard/api/test/payment-links/${link.id}`, headers, payload: { active: false } });
    expect(off.json().active).toBe(false);
    // Another merchant's session sees nothing of it.
    const theirs = await signIn(other);
    problem(await ctx.app.inject({ method: 'GET', url: `/dashboard/api/test/payment-links/${link.id}/payments`, headers: theirs }), 404, 'not_found');
  });
});
