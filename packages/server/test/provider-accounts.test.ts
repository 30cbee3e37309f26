/**
 * Provider accounts as data (issue 54, docs/spec/provider-accounts.md): operators add accounts in
 * the console; each merchant's country chooses its account (the newest active one); a disabled
 * account takes no new request while those in flight finish through it; credentials are
 * write-only. Real HTTP between the app and the providers' sandbox, on one ManualClock.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../src/admin.ts';
import { ORANGE_MONEY_CONNECTOR, PAWAPAY_CONNECTOR, type Sandbox, WAVE_CONNECTOR } from '../src/modules/connectors/index.ts';
import { signCallback } from '../src/modules/connectors/pawapay/pawapay.signature.ts';
import { waveSignatureHeader } from '../src/modules/connectors/wave/wave.signature.ts';
import { SECOND } from '../src/platform/clock.ts';
import { appWithAllSandboxes } from './connectors.support.ts';
import { createIntent, problem } from './flow.support.ts';
import { call, createMerchant, pk, sk, type TestContext, type TestMerchant } from './harness.ts';
import { type OperatorBrowser, operatorConsole } from './operators.support.ts';

let ctx: TestContext;
let sandbox: Sandbox;
let cm: TestMerchant;
let sn: TestMerchant;
let ops: ReturnType<typeof operatorConsole>;
let admin: OperatorBrowser;

/** Live mode's platform account, from the environment variables (as existing deployments have it). */
const ENV_WAVE = { CAISSE_WAVE_API_KEY: 'wave_sn_prod_env-key-Qa12Ws', CAISSE_WAVE_WEBHOOK_SECRET: 'wave-env-webhook-secret-Ed34Rf' };
/** Every secret this file gives Caisse: none may come back anywhere. */
const SECRETS: string[] = [ENV_WAVE.CAISSE_WAVE_API_KEY, ENV_WAVE.CAISSE_WAVE_WEBHOOK_SECRET];
let seq = 0;
/** Orange credentials of one account, each secret unique to it (and remembered). */
function orangeCredentials() {
  seq++;
  const credentials = {
    clientId: `orange-client-id-${seq}-Zq81`,
    clientSecret: `orange-client-secret-${seq}-Kp47Wm`,
    merchantKey: `orange-merchant-key-${seq}-Vt93Xr`,
  };
  SECRETS.push(credentials.clientSecret, credentials.merchantKey);
  return credentials;
}

type Account = {
  id: string;
  connector: string;
  mode: string;
  status: string;
  countries: string[];
  credentials: Record<string, string>;
  supersededBy: { country: string; account: string }[];
  source: string;
  lastCheck: { ok: boolean; detail: string } | null;
};

/** Adds an Orange Money test account on the sandbox for these countries (environment by country), in the console. */
async function addOrange(countries: string[], environment: string): Promise<Account> {
  const res = await ops.send('POST', '/operator/api/provider-accounts', admin, {
    connector: 'orange_money',
    mode: 'test',
    countries,
    settings: {
      baseUrl: `${sandbox.url}/orange-money`,
      environment,
      callbackUrl: `${ctx.deps.config.sandbox.callbacksUrl}/orange_money`,
    },
    credentials: orangeCredentials(),
  });
  expect(res.statusCode, res.body).toBe(201);
  // Each add is a moment apart: the newest is the one created last.
  ctx.clock.advance(SECOND);
  return res.json() as Account;
}

const list = async () => ((await ops.send('GET', '/operator/api/provider-accounts', admin)).json() as { data: Account[] }).data;

let numbers = 0;
const orangeNumber = (country: 'CM' | 'SN') =>
  country === 'CM' ? `+2376900${String(++numbers).padStart(2, '0')}000` : `+2217700${String(++numbers).padStart(2, '0')}000`;

async function charge(m: TestMerchant, intent: { id: string; sessionToken: string }, phoneNumber: string) {
  return call(
    ctx.app,
    'POST',
    '/charge',
    { ...pk(m), headers: { 'x-session-token': intent.sessionToken } },
    { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'orange_money', phoneNumber } },
  );
}

const attemptsOf = async (m: TestMerchant, id: string) =>
  (await call(ctx.app, 'GET', `/gateway/${id}`, sk(m))).json() as { status: string; attempts: { status: string; providerAccount: string }[] };

/** What the payer does on the sandbox's page: the form's POST. */
async function onPage(url: string, action: 'approve' | 'decline', phoneNumber: string) {
  const form = new URLSearchParams({ action, lang: 'fr', phoneNumber });
  return fetch(url, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
}

beforeAll(async () => {
  ({ ctx, sandbox } = await appWithAllSandboxes({ env: ENV_WAVE }));
  cm = await createMerchant(ctx, 'Douala shop');
  sn = await createMerchant(ctx, 'Dakar shop');
  await ctx.services.merchants.setCountry(sn.merchantId, 'SN');
  ops = operatorConsole(ctx);
  admin = await ops.operator('admin');
  // These tests are about the operators' own connectors' accounts: each method's route is its own
  // connector alone, or the aggregators' sandbox accounts would take what a disabled account refuses.
  for (const [country, method] of [
    ['CM', 'orange_money'],
    ['SN', 'orange_money'],
    ['SN', 'wave'],
    ['CI', 'orange_money'],
  ] as const)
    await runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country, kind: 'payment', method, connectors: [method] });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
});

describe('provider accounts in the operator console', () => {
  it('adds, lists (secrets masked), checks and disables; other roles may not; every change is audited', async () => {
    const added = await addOrange(['CI'], 'ci');
    expect(added).toMatchObject({
      object: 'provider_account',
      connector: 'orange_money',
      mode: 'test',
      countries: ['CI'],
      status: 'active',
      source: 'operator',
    });
    expect(added.id).toMatch(/^pac_[0-9a-z]{26}$/);
    // At most the last four characters of a credential.
    expect(Object.keys(added.credentials).sort()).toEqual(['clientId', 'clientSecret', 'merchantKey']);
    for (const masked of Object.values(added.credentials)) expect(masked).toMatch(/^….{0,4}$/);
    expect((added as unknown as { capabilities: string[] }).capabilities).toEqual(['collect']);
    // Orange is told where to call back with each request: no address to paste anywhere.
    expect((added as unknown as { webhookPath: unknown }).webhookPath).toBeNull();

    const listed = await list();
    expect(listed.find((a) => a.id === added.id)).toMatchObject({ status: 'active', supersededBy: [] });
    // The platform's own accounts are listed too: test mode's sandbox, read-only.
    expect(listed.find((a) => a.id === 'pac_sandbox_orange_money')).toMatchObject({ source: 'sandbox', status: 'active' });
    // …and live mode's, from its environment variables: listed, never changed here.
    const fromEnv = listed.find((a) => a.connector === 'wave' && a.mode === 'live');
    expect(fromEnv).toMatchObject({ source: 'environment', status: 'active', credentials: {} });
    expect(fromEnv?.id).toMatch(/^pac_env_wave_[0-9a-f]{12}$/);
    problem(await ops.send('POST', `/operator/api/provider-accounts/${fromEnv?.id}/disable`, admin, {}), 400, 'validation_error');
    problem(await ops.send('POST', '/operator/api/provider-accounts/pac_sandbox_orange_money/disable', admin, {}), 400, 'validation_error');

    // Orange's check asks the sandbox for a token with the account's credentials: said, and recorded.
    const checked = await ops.send('POST', `/operator/api/provider-accounts/${added.id}/check`, admin, {});
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toMatchObject({ id: added.id, ok: true, detail: expect.stringContaining('token issued') });
    expect((await list()).find((a) => a.id === added.id)?.lastCheck).toMatchObject({ ok: true, detail: expect.stringContaining('token issued') });

    const disabled = await ops.send('POST', `/operator/api/provider-accounts/${added.id}/disable`, admin, {});
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ id: added.id, status: 'disabled' });

    for (const role of ['finance', 'support', 'compliance'] as const) {
      const who = await ops.operator(role);
      problem(await ops.send('GET', '/operator/api/provider-accounts', who), 403, 'permission_denied');
      problem(await ops.send('POST', `/operator/api/provider-accounts/${added.id}/disable`, who, {}), 403, 'permission_denied');
    }
    problem(await ops.send('GET', '/operator/api/provider-accounts'), 401, 'session_required');

    const audit = (await ops.send('GET', '/operator/api/audit', admin)).json() as { data: { action: string; targetId: string }[] };
    const mine = audit.data.filter((e) => e.targetId === added.id).map((e) => e.action);
    expect(mine.sort()).toEqual(['provider_account.added', 'provider_account.checked', 'provider_account.disabled']);
  });

  it('refuses bad input with a problem naming the field, never quoting a credential', async () => {
    const base = {
      connector: 'orange_money',
      mode: 'test',
      countries: ['CM'],
      settings: { baseUrl: `${sandbox.url}/orange-money`, environment: 'cm', callbackUrl: 'http://127.0.0.1:9/callbacks/orange_money' },
    };
    const send = (body: Record<string, unknown>) => ops.send('POST', '/operator/api/provider-accounts', admin, { ...base, ...body });
    const secret = 'a-secret-that-must-not-echo-8812';
    SECRETS.push(secret);
    expect(problem(await send({ credentials: { clientId: 'x', clientSecret: secret } }), 400, 'validation_error')).toMatchObject({
      param: 'credentials.merchantKey',
    });
    expect(
      problem(await send({ credentials: { clientId: 'x', clientSecret: secret, merchantKey: 'k', apiKey: secret } }), 400, 'validation_error'),
    ).toMatchObject({
      param: 'credentials.apiKey',
    });
    const bad = await send({ credentials: { clientId: 'x', clientSecret: `${secret} with spaces`, merchantKey: 'k' } });
    expect(problem(bad, 400, 'validation_error')).toMatchObject({ param: 'credentials.clientSecret' });
    expect(bad.body).not.toContain(secret);
    expect(
      problem(await send({ settings: { ...base.settings, environment: 'xx' }, credentials: orangeCredentials() }), 400, 'provider_settings_invalid'),
    ).toMatchObject({
      param: 'settings.environment',
    });
    expect(
      problem(await send({ settings: { ...base.settings, nonsense: '1' }, credentials: orangeCredentials() }), 400, 'provider_settings_invalid'),
    ).toMatchObject({
      param: 'settings.nonsense',
    });
    expect(problem(await send({ countries: ['BJ'], credentials: orangeCredentials() }), 400, 'validation_error')).toMatchObject({ param: 'countries' });
    expect(problem(await send({ connector: 'airtel_money', credentials: orangeCredentials() }), 400, 'provider_unsupported')).toMatchObject({
      param: 'connector',
    });
  });
});

describe('choosing the account', () => {
  it("by the merchant's country: a CM and an SN Orange account on one server each take their own merchants' payments", async () => {
    const forCm = await addOrange(['CM'], 'cm');
    const forSn = await addOrange(['SN'], 'sn');
    for (const [m, country, account, currency] of [
      [cm, 'CM', forCm, 'XAF'],
      [sn, 'SN', forSn, 'XOF'],
    ] as const) {
      const intent = await createIntent(ctx, m, { currency });
      const res = await charge(m, intent, orangeNumber(country));
      expect(res.statusCode, res.body).toBe(202);
      expect((await attemptsOf(m, intent.id)).attempts).toEqual([expect.objectContaining({ providerAccount: account.id })]);
      // The sandbox saw the request in the account's environment (its currency), not the platform's `dev` (OUV).
      const payToken = (
        await ctx.deps.db.selectFrom('payment_attempts').select('provider_reference').where('intent_id', '=', intent.id).executeTakeFirstOrThrow()
      ).provider_reference;
      expect(
        sandbox
          .of(ORANGE_MONEY_CONNECTOR)
          .payments()
          .find((p) => p.payToken === payToken)?.currency,
      ).toBe(currency);
    }
  });

  it('the newest active account wins, and the list says which one supersedes which', async () => {
    const older = await addOrange(['CM'], 'cm');
    const newer = await addOrange(['CM'], 'cm');
    const accounts = await list();
    expect(accounts.find((a) => a.id === older.id)?.supersededBy).toEqual([{ country: 'CM', account: newer.id }]);
    expect(accounts.find((a) => a.id === newer.id)?.supersededBy).toEqual([]);
    // The platform's sandbox account no longer serves CM either.
    expect(accounts.find((a) => a.id === 'pac_sandbox_orange_money')?.supersededBy).toEqual(expect.arrayContaining([{ country: 'CM', account: newer.id }]));
    const intent = await createIntent(ctx, cm);
    expect((await charge(cm, intent, orangeNumber('CM'))).statusCode).toBe(202);
    expect((await attemptsOf(cm, intent.id)).attempts[0]?.providerAccount).toBe(newer.id);
  });

  it('a disabled account takes no new payment, and no request reaches the provider; the one in flight finishes through it', async () => {
    const account = await addOrange(['CM'], 'cm');
    const inFlight = await createIntent(ctx, cm);
    const payer = orangeNumber('CM');
    const started = await charge(cm, inFlight, payer);
    expect(started.statusCode, started.body).toBe(202);
    const page = (started.json() as { nextAction: { url: string } }).nextAction.url;
    expect((await attemptsOf(cm, inFlight.id)).attempts[0]?.providerAccount).toBe(account.id);

    // Every CM Orange account disabled: CM payments by Orange are refused (not sent through the sandbox's account either).
    for (const a of await list()) {
      if (a.source === 'operator' && a.status === 'active' && a.countries.includes('CM')) {
        expect((await ops.send('POST', `/operator/api/provider-accounts/${a.id}/disable`, admin, {})).statusCode).toBe(200);
      }
    }
    const before = sandbox.of(ORANGE_MONEY_CONNECTOR).payments().length;
    const refused = problem(await charge(cm, await createIntent(ctx, cm), orangeNumber('CM')), 503, 'provider_unavailable');
    expect(refused).toMatchObject({ param: 'paymentMethod.provider', providerAccount: account.id });
    expect(String(refused.detail)).toMatch(/disabled/);
    expect(sandbox.of(ORANGE_MONEY_CONNECTOR).payments()).toHaveLength(before);
    // SN merchants are not concerned.
    expect((await charge(sn, await createIntent(ctx, sn, { currency: 'XOF' }), orangeNumber('SN'))).statusCode).toBe(202);

    // The payer approves the payment started before: its notification and status read go through the disabled account.
    expect((await onPage(page, 'approve', payer)).status).toBe(303);
    ctx.clock.advance(2 * SECOND);
    await sandbox.tick();
    // Answered once recorded: the status read and the settle run behind the answer.
    await ctx.services.callbacks.drain();
    const done = await attemptsOf(cm, inFlight.id);
    expect(done.status).toBe('SUCCEEDED');
    expect(done.attempts[0]).toMatchObject({ status: 'SUCCEEDED', providerAccount: account.id });
  });
});

describe('live routes', () => {
  it("an operator's live account makes its connector the method's default live route in its countries", async () => {
    const routeOf = async (country: string) =>
      (await runAdminCommand(ctx.services, 'routes.list', { mode: 'live' })).find(
        (r) => r.country === country && r.kind === 'payment' && r.method === 'orange_money',
      );
    // No live Orange account yet (only the environment's Wave): no connector to go through.
    expect(await routeOf('CM')).toMatchObject({ connectors: [], overridden: false });
    const res = await ops.send('POST', '/operator/api/provider-accounts', admin, {
      connector: 'orange_money',
      mode: 'live',
      countries: ['CM'],
      settings: { baseUrl: `${sandbox.url}/orange-money`, environment: 'cm', callbackUrl: `${ctx.deps.config.sandbox.callbacksUrl}/orange_money` },
      credentials: orangeCredentials(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const key = { mode: 'live', country: 'CM', kind: 'payment', method: 'orange_money' } as const;
    expect(await routeOf('CM')).toMatchObject({ connectors: ['orange_money'], defaultConnectors: ['orange_money'], overridden: false });
    // What a new live attempt reads: the route has a connector with an account, so it is not refused as not configured.
    expect(await ctx.services.routes.connectorsOf(key)).toEqual(['orange_money']);
    expect(await ctx.services.routes.availability(key)).toBe('ok');
    // Senegal has no live Orange account: still none there.
    expect(await routeOf('SN')).toMatchObject({ connectors: [] });
  });
});

describe('callbacks', () => {
  it("an account's own webhook address: only its secret verifies it, and only its requests are decided by it", async () => {
    const credentials = { apiKey: 'wave_sn_test_account-key-Mn56Bv', webhookSecret: 'wave-account-webhook-secret-Lk78Jh' };
    SECRETS.push(credentials.apiKey, credentials.webhookSecret);
    const res = await ops.send('POST', '/operator/api/provider-accounts', admin, {
      connector: 'wave',
      mode: 'test',
      countries: ['SN'],
      settings: { baseUrl: `${sandbox.url}/wave` },
      credentials,
    });
    expect(res.statusCode, res.body).toBe(201);
    const account = res.json() as Account & { webhookPath: string | null };
    // Wave's webhooks go to one address per account, set in Wave's own dashboard: the console shows it.
    expect(account.webhookPath).toBe(`/callbacks/wave/${account.id}`);
    const intent = await createIntent(ctx, sn, { currency: 'XOF' });
    const payer = `+2217700${String(++numbers).padStart(2, '0')}000`;
    const started = await call(
      ctx.app,
      'POST',
      '/charge',
      { ...pk(sn), headers: { 'x-session-token': intent.sessionToken } },
      { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: 'wave', phoneNumber: payer } },
    );
    expect(started.statusCode, started.body).toBe(202);
    expect((await attemptsOf(sn, intent.id)).attempts[0]?.providerAccount).toBe(account.id);
    const { reference } = await ctx.deps.db.selectFrom('payment_attempts').select('reference').where('intent_id', '=', intent.id).executeTakeFirstOrThrow();

    // The payer pays; the sandbox's webhook goes to the platform's address, signed with the
    // sandbox's secret: verified there, but it is not this account's and decides nothing.
    expect((await onPage((started.json() as { nextAction: { url: string } }).nextAction.url, 'approve', payer)).status).toBe(303);
    ctx.clock.advance(2 * SECOND);
    await sandbox.tick();
    expect((await attemptsOf(sn, intent.id)).attempts[0]?.status).toBe('PENDING');

    const session = sandbox
      .of(WAVE_CONNECTOR)
      .sessions()
      .find((x) => x.client_reference === reference);
    const body = JSON.stringify({
      id: 'AE_account',
      type: 'checkout.session.completed',
      data: { id: session?.id, client_reference: reference, payment_status: 'succeeded' },
    });
    const send = (secret: string) =>
      call(
        ctx.app,
        'POST',
        `/callbacks/wave/${account.id}`,
        { headers: { 'content-type': 'application/json', 'wave-signature': waveSignatureHeader(secret, ctx.clock.now().getTime(), body) } },
        body,
      );
    // Signed with the environment's (another account's) secret: refused at this address.
    problem(await send(ENV_WAVE.CAISSE_WAVE_WEBHOOK_SECRET), 400, 'callback_invalid');
    expect((await attemptsOf(sn, intent.id)).attempts[0]?.status).toBe('PENDING');
    const genuine = await send(credentials.webhookSecret);
    expect(genuine.statusCode, genuine.body).toBe(204);
    expect(await attemptsOf(sn, intent.id)).toMatchObject({ status: 'SUCCEEDED', attempts: [{ status: 'SUCCEEDED', providerAccount: account.id }] });

    // Disabled, it sends no payout either: refused before the balance is touched or Wave asked.
    expect((await ops.send('POST', `/operator/api/provider-accounts/${account.id}/disable`, admin, {})).statusCode).toBe(200);
    const sessions = sandbox.of(WAVE_CONNECTOR).sessions().length;
    const payout = await call(ctx.app, 'POST', '/payouts', sk(sn), { amount: '1000', currency: 'XOF', destination: { provider: 'wave', phoneNumber: payer } });
    expect(problem(payout, 503, 'provider_unavailable')).toMatchObject({ param: 'destination.provider', providerAccount: account.id });
    const again = await createIntent(ctx, sn, { currency: 'XOF' });
    const refused = await call(
      ctx.app,
      'POST',
      '/charge',
      { ...pk(sn), headers: { 'x-session-token': again.sessionToken } },
      { intentionId: again.id, paymentMethod: { type: 'mobile_money', provider: 'wave', phoneNumber: payer } },
    );
    expect(problem(refused, 503, 'provider_unavailable')).toMatchObject({ providerAccount: account.id });
    expect(sandbox.of(WAVE_CONNECTOR).sessions()).toHaveLength(sessions);
  });
});

describe('aggregator accounts: pawaPay and CinetPay', () => {
  type Callbacks = { callbacks: { purpose: string; path: string | null; url: string | null; setAtProvider: boolean }[]; webhookPath: string | null };
  const add = (body: Record<string, unknown>) => ops.send('POST', '/operator/api/provider-accounts', admin, body);

  it("a pawaPay account: its token masked, the three callback URLs for pawaPay's dashboard, checked; its own URL decides its payments", async () => {
    // As long as pawaPay's own tokens (JWTs of about 400 characters).
    const apiToken = `eyJhbGciOiJFUzI1NiJ9.${'pawaPayAccountToken'.repeat(20)}.Xc41Ty`;
    SECRETS.push(apiToken);
    const res = await add({
      connector: 'pawapay',
      mode: 'test',
      countries: ['CM'],
      settings: { baseUrl: sandbox.urls.pawapay, callbackSignatures: 'required' },
      credentials: { apiToken },
    });
    expect(res.statusCode, res.body).toBe(201);
    const account = res.json() as Account & Callbacks & { capabilities: string[]; settings: Record<string, unknown> };
    expect(account).toMatchObject({
      connector: 'pawapay',
      credentials: { apiToken: '…41Ty' },
      settings: { baseUrl: sandbox.urls.pawapay, callbackSignatures: 'required' },
      capabilities: ['collect', 'disburse', 'refund'],
    });
    const path = `/callbacks/pawapay/${account.id}`;
    expect(account.webhookPath).toBe(path);
    expect(account.callbacks).toEqual(['deposits', 'payouts', 'refunds'].map((purpose) => ({ purpose, path, url: null, setAtProvider: true })));
    // The platform's pawaPay account (test mode's sandbox) keeps the address without an account.
    expect((await list()).find((a) => a.id === 'pac_sandbox_pawapay')).toMatchObject({
      callbacks: ['deposits', 'payouts', 'refunds'].map((purpose) => expect.objectContaining({ purpose, path: '/callbacks/pawapay' })),
    });
    const checked = await ops.send('POST', `/operator/api/provider-accounts/${account.id}/check`, admin, {});
    expect(checked.json()).toMatchObject({ id: account.id, ok: true, detail: expect.stringContaining('MTN_MOMO_CMR') });
    ctx.clock.advance(SECOND);

    // Cameroon's MTN payments go through pawaPay: through this account, the newest for CM.
    await runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country: 'CM', kind: 'payment', method: 'mtn_momo', connectors: ['pawapay'] });
    try {
      const intent = await createIntent(ctx, cm);
      const started = await call(
        ctx.app,
        'POST',
        '/charge',
        { ...pk(cm), headers: { 'x-session-token': intent.sessionToken } },
        {
          intentionId: intent.id,
          paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: `+2376773${String(++numbers).padStart(2, '0')}000` },
        },
      );
      expect(started.statusCode, started.body).toBe(202);
      expect((started.json() as { attempts: { connector: string; providerAccount: string }[] }).attempts).toEqual([
        expect.objectContaining({ connector: 'pawapay', providerAccount: account.id }),
      ]);
      await ctx.services.callbacks.drain();
      // pawaPay completes it; the sandbox's own callback goes to the platform's address: not this account's, it decides nothing.
      ctx.clock.advance(2 * SECOND);
      await sandbox.tick();
      expect((await attemptsOf(cm, intent.id)).attempts[0]?.status).toBe('PENDING');
      const { reference } = await ctx.deps.db.selectFrom('payment_attempts').select('reference').where('intent_id', '=', intent.id).executeTakeFirstOrThrow();
      const pawapay = sandbox.of(PAWAPAY_CONNECTOR);
      expect(pawapay.payments('deposit').find((d) => d.id === reference)).toMatchObject({ status: 'COMPLETED' });
      const body = JSON.stringify({ depositId: reference, status: 'COMPLETED' });
      const send = (key: { keyId: string; privateKey: KeyObject }) =>
        call(
          ctx.app,
          'POST',
          path,
          {
            headers: {
              host: 'pay.example',
              ...signCallback(
                { key: key.privateKey, keyId: key.keyId, nowMs: ctx.clock.now().getTime() },
                { method: 'POST', authority: 'pay.example', path, body, contentType: 'application/json' },
              ),
            },
          },
          body,
        );
      // A key pawaPay does not publish: refused at the account's address.
      problem(await send({ keyId: 'forged', privateKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey }), 400, 'callback_invalid');
      expect((await attemptsOf(cm, intent.id)).attempts[0]?.status).toBe('PENDING');
      const genuine = await send(pawapay.signingKey());
      expect(genuine.statusCode, genuine.body).toBe(204);
      expect(await attemptsOf(cm, intent.id)).toMatchObject({ status: 'SUCCEEDED', attempts: [{ status: 'SUCCEEDED', providerAccount: account.id }] });
    } finally {
      await runAdminCommand(ctx.services, 'routes.set', { mode: 'test', country: 'CM', kind: 'payment', method: 'mtn_momo', connectors: null });
      expect((await ops.send('POST', `/operator/api/provider-accounts/${account.id}/disable`, admin, {})).statusCode).toBe(200);
    }
  });

  it('a CinetPay account: apikey and secret key masked, its notify URL shown, checked; without the transfer password it collects only', async () => {
    const credentials = { apiKey: 'cinetpay_account-apikey-Gh27Lp', secretKey: 'cinetpay-account-secret-key-Wq83Zs' };
    SECRETS.push(credentials.apiKey, credentials.secretKey);
    const callbackUrl = `${ctx.deps.config.sandbox.callbacksUrl}/cinetpay`;
    const res = await add({
      connector: 'cinetpay',
      mode: 'test',
      countries: ['CI', 'SN'],
      settings: { baseUrl: sandbox.urls.cinetpay, transferBaseUrl: sandbox.urls.cinetpay, siteId: '5870012', callbackUrl },
      credentials,
    });
    expect(res.statusCode, res.body).toBe(201);
    const account = res.json() as Account & Callbacks & { capabilities: string[]; settings: Record<string, unknown> };
    expect(account).toMatchObject({
      connector: 'cinetpay',
      countries: ['CI', 'SN'],
      credentials: { apiKey: '…27Lp', secretKey: '…83Zs' },
      settings: { siteId: '5870012', callbackUrl },
      capabilities: ['collect'],
      webhookPath: null,
    });
    // notify_url goes with each request: nothing to paste in CinetPay's back office, but the operator sees where it points.
    expect(account.callbacks).toEqual([{ purpose: 'notifications', path: null, url: `${callbackUrl}/{kind}/{reference}/{token}`, setAtProvider: false }]);
    const checked = (await ops.send('POST', `/operator/api/provider-accounts/${account.id}/check`, admin, {})).json();
    expect(checked).toMatchObject({ ok: true, detail: expect.stringContaining('transfers: not configured') });
    expect((await list()).find((a) => a.id === account.id)).toMatchObject({ lastCheck: { ok: true } });
    expect((await ops.send('POST', `/operator/api/provider-accounts/${account.id}/disable`, admin, {})).statusCode).toBe(200);
  });

  it('a CinetPay account takes USD by card only when cardCurrencies names it; a currency CinetPay does not document is refused', async () => {
    const callbackUrl = `${ctx.deps.config.sandbox.callbacksUrl}/cinetpay`;
    const cinetpay = (cardCurrencies: string) =>
      add({
        connector: 'cinetpay',
        mode: 'test',
        countries: ['CM'],
        settings: { baseUrl: sandbox.urls.cinetpay, transferBaseUrl: sandbox.urls.cinetpay, siteId: '5870013', callbackUrl, cardCurrencies },
        credentials: { apiKey: 'cinetpay_account-apikey-Ux61Nb', secretKey: 'cinetpay-account-secret-key-Ty40Vc' },
      });
    SECRETS.push('cinetpay_account-apikey-Ux61Nb', 'cinetpay-account-secret-key-Ty40Vc');
    for (const [value, words] of [
      ['EUR', 'does not take'],
      ['XAF,GNF', 'no country Caisse serves'],
      ['XAF;USD', 'currency codes'],
    ] as const) {
      expect(problem(await cinetpay(value), 400, 'provider_settings_invalid')).toMatchObject({
        param: 'settings.cardCurrencies',
        detail: expect.stringContaining(words),
      });
    }
    const currencies = async () => ctx.services.intents.currenciesTaken('test', 'CM');
    expect(await currencies()).toEqual(['XAF']);
    const res = await cinetpay('XAF,USD');
    expect(res.statusCode, res.body).toBe(201);
    const account = res.json() as Account & { settings: Record<string, unknown> };
    expect(account.settings).toMatchObject({ cardCurrencies: 'XAF,USD' });
    expect(await currencies()).toEqual(['XAF', 'USD']);
    expect((await ops.send('POST', `/operator/api/provider-accounts/${account.id}/disable`, admin, {})).statusCode).toBe(200);
    expect(await currencies()).toEqual(['XAF']);
  });

  it("live mode refuses the sandbox's token, keys and hosts, naming the setting or credential and never quoting it", async () => {
    const pawapayLive = (settings: Record<string, string>, apiToken: string) =>
      add({ connector: 'pawapay', mode: 'live', countries: ['CM'], settings: { baseUrl: 'https://api.pawapay.io', ...settings }, credentials: { apiToken } });
    const token = problem(await pawapayLive({}, 'pawapay_sandbox_token'), 400, 'provider_settings_invalid');
    expect(token).toMatchObject({ param: 'credentials.apiToken', detail: expect.stringContaining("Caisse's sandbox token") });
    expect(
      problem(await pawapayLive({ baseUrl: 'https://api.sandbox.pawapay.io' }, 'eyJhbGciOiJFUzI1NiJ9.live.Token-Ab12'), 400, 'provider_settings_invalid'),
    ).toMatchObject({ param: 'settings.baseUrl' });
    // Pinned keys only make sense when the account signs its callbacks.
    expect(problem(await pawapayLive({ publicKeys: 'k1:AAAA' }, 'eyJhbGciOiJFUzI1NiJ9.live.Token-Ab12'), 400, 'provider_settings_invalid')).toMatchObject({
      param: 'settings.publicKeys',
    });
    expect(problem(await pawapayLive({}, `eyJ${'x'.repeat(2100)}`), 400, 'validation_error')).toMatchObject({ param: expect.stringMatching(/apiToken/) });

    const sandboxSecret = 'cinetpay_sandbox_sk_copied-from-test-Rt52';
    const cinetpayLive = (credentials: Record<string, string>) =>
      add({
        connector: 'cinetpay',
        mode: 'live',
        countries: ['CI'],
        settings: { siteId: '5870012', callbackUrl: 'https://pay.example.com/callbacks/cinetpay' },
        credentials: { apiKey: 'live-apikey-Jk29Xc', secretKey: 'live-secret-key-Pm18Dv', ...credentials },
      });
    const apiKey = problem(await cinetpayLive({ apiKey: 'cinetpay_sandbox_key' }), 400, 'provider_settings_invalid');
    expect(apiKey).toMatchObject({ param: 'credentials.apiKey' });
    const secret = problem(await cinetpayLive({ secretKey: sandboxSecret }), 400, 'provider_settings_invalid');
    expect(secret).toMatchObject({ param: 'credentials.secretKey' });
    expect(JSON.stringify(secret)).not.toContain(sandboxSecret);
    expect(problem(await cinetpayLive({ transferPassword: 'cinetpay_sandbox_transfer' }), 400, 'provider_settings_invalid')).toMatchObject({
      param: 'credentials.transferPassword',
    });
    // Its own values pass: a live account, listed masked.
    const good = await cinetpayLive({ transferPassword: 'live-transfer-password-Nb64' });
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json()).toMatchObject({
      mode: 'live',
      credentials: { apiKey: '…29Xc', transferPassword: '…Nb64' },
      capabilities: ['collect', 'disburse', 'refund'],
    });
    SECRETS.push('live-apikey-Jk29Xc', 'live-secret-key-Pm18Dv', 'live-transfer-password-Nb64');
    expect((await ops.send('POST', `/operator/api/provider-accounts/${(good.json() as Account).id}/disable`, admin, {})).statusCode).toBe(200);
  });
});

describe('credentials are write-only', () => {
  it('no answer of the console, no audit entry, no log line and no stored column holds a credential this file gave', async () => {
    expect(SECRETS.length).toBeGreaterThan(5);
    const answers = [
      (await ops.send('GET', '/operator/api/provider-accounts', admin)).body,
      (await ops.send('GET', '/operator/api/audit?limit=100', admin)).body,
      (await ops.send('GET', '/operator/api/providers', admin)).body,
    ];
    const stored = await ctx.deps.db.selectFrom('provider_accounts').selectAll().execute();
    expect(stored.length).toBeGreaterThan(3);
    const columns = stored.map((r) => JSON.stringify({ ...r, credentials: Buffer.from(r.credentials).toString('latin1') }));
    const everything = [...answers, ...ctx.logs, ...columns].join('\n');
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
  });
});
