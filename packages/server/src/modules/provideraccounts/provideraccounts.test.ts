import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.ts';
import {
  CINETPAY_CONNECTOR,
  capabilitiesOf,
  checkLiveSettings,
  MTN_MOMO_CONNECTOR,
  newReference,
  ORANGE_MONEY_CONNECTOR,
  PAWAPAY_CONNECTOR,
  readAccountSettings,
  WAVE_CONNECTOR,
} from '../connectors/index.ts';
import { systemRandom } from '../../platform/crypto.ts';
import { maskSecret } from './provideraccounts.service.ts';

/**
 * Each connector's account shape (its folder's `account`): the credentials section 14 names become
 * the connector's settings, and what the credentials lack is what the account cannot do.
 */
const deps = { clock: new ManualClock(), logger: { debug() {}, info() {}, warn() {} }, callbackKey: Buffer.alloc(32, 3) };

/** A token endpoint that records the Authorization header of each product's token request. */
let seen: { path: string; headers: IncomingHttpHeaders }[] = [];
const server = createServer((req, res) => {
  seen.push({ path: req.url ?? '', headers: req.headers });
  res.setHeader('content-type', 'application/json');
  if (req.url?.endsWith('/token/')) res.end(JSON.stringify({ access_token: 'tok', token_type: 'access_token', expires_in: 3600 }));
  else res.writeHead(404).end(JSON.stringify({ code: 'RESOURCE_NOT_FOUND' }));
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const basicOf = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

describe('account shapes', () => {
  it('MTN: each product with its own API user and key; without the disbursement keys, collection only', async () => {
    const shape = MTN_MOMO_CONNECTOR.account;
    expect(shape?.credentials.map((c) => c.name)).toEqual([
      'collectionUserId',
      'collectionApiKey',
      'collectionSubscriptionKey',
      'disbursementUserId',
      'disbursementApiKey',
      'disbursementSubscriptionKey',
    ]);
    const collection = { collectionUserId: '11111111-1111-4111-8111-111111111111', collectionApiKey: 'ck', collectionSubscriptionKey: 'cs' };
    const both = { ...collection, disbursementUserId: '22222222-2222-4222-8222-222222222222', disbursementApiKey: 'dk', disbursementSubscriptionKey: 'ds' };
    const open = { baseUrl, targetEnvironment: 'mtncameroon' };

    const collectOnly = MTN_MOMO_CONNECTOR.create(shape!.build(open, collection), deps);
    expect(capabilitiesOf(MTN_MOMO_CONNECTOR.description, collectOnly)).toEqual({ collect: true, disburse: false, refund: false });
    await collectOnly.close();

    const connector = MTN_MOMO_CONNECTOR.create(shape!.build(open, both), deps);
    expect(capabilitiesOf(MTN_MOMO_CONNECTOR.description, connector)).toEqual({ collect: true, disburse: true, refund: true });
    seen = [];
    expect(await connector.status('collection', newReference(systemRandom))).toEqual({ status: 'NOT_FOUND' });
    expect(await connector.status('disbursement', newReference(systemRandom))).toEqual({ status: 'NOT_FOUND' });
    const tokens = seen.filter((s) => s.path.endsWith('/token/'));
    expect(tokens.map((t) => [t.path, t.headers.authorization, t.headers['ocp-apim-subscription-key'], t.headers['x-target-environment']])).toEqual([
      ['/collection/token/', basicOf(collection.collectionUserId, 'ck'), 'cs', undefined],
      ['/disbursement/token/', basicOf(both.disbursementUserId, 'dk'), 'ds', undefined],
    ]);
    await connector.close();
  });

  it("Orange and Wave: their credentials are the connector's own fields", () => {
    const orange = ORANGE_MONEY_CONNECTOR.account!.build(
      { baseUrl, environment: 'sn', callbackUrl: 'https://pay.example/callbacks/x' },
      { clientId: 'id', clientSecret: 'secret', merchantKey: 'mk' },
    );
    expect(orange).toMatchObject({
      baseUrl,
      environment: 'sn',
      clientId: 'id',
      clientSecret: 'secret',
      merchantKey: 'mk',
      callbackUrl: 'https://pay.example/callbacks/x',
    });
    const wave = WAVE_CONNECTOR.account!.build({ baseUrl }, { apiKey: 'wave_k', webhookSecret: 'whsec' });
    expect(wave).toMatchObject({ baseUrl, apiKey: 'wave_k', webhookSecret: 'whsec' });
  });

  it('pawaPay: a token as long as its JWTs; pinned public keys need signed callbacks and must be keys', async () => {
    const shape = PAWAPAY_CONNECTOR.account!;
    expect(shape.credentials).toEqual([{ name: 'apiToken', required: true, maxLength: 2048 }]);
    const mine = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const der = (k: typeof mine) => k.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    const read = (given: Record<string, string>) => readAccountSettings(PAWAPAY_CONNECTOR.description, shape.settings, { baseUrl, ...given }, 'development');
    expect(read({})).toEqual({ ok: true, values: { baseUrl, callbackSignatures: 'off' } });
    expect(read({ publicKeys: `k1:${der(mine)}` })).toMatchObject({
      ok: false,
      key: 'publicKeys',
      message: expect.stringContaining('callbackSignatures=required'),
    });
    expect(read({ callbackSignatures: 'required', publicKeys: 'k1:bm90IGEga2V5' })).toMatchObject({
      ok: false,
      key: 'publicKeys',
      message: 'the key k1 is not a public key (base64 of its DER, SubjectPublicKeyInfo)',
    });
    const settings = read({ callbackSignatures: 'required', publicKeys: `k1:${der(mine)},k2:${der(mine)}` });
    expect(settings.ok).toBe(true);
    const token = `eyJhbGciOiJFUzI1NiJ9.${'a'.repeat(380)}.sig`;
    const built = shape.build((settings as { values: Record<string, string> }).values, { apiToken: token });
    expect(built).toMatchObject({ baseUrl, apiToken: token, callbackSignatures: 'required' });
    const connector = PAWAPAY_CONNECTOR.create(built, deps);
    expect(capabilitiesOf(PAWAPAY_CONNECTOR.description, connector)).toEqual({ collect: true, disburse: true, refund: true });
    await connector.close();
  });

  it('CinetPay: apikey, secret key and transfer password are credentials; without the password it collects only; its notify_url is shown', async () => {
    const shape = CINETPAY_CONNECTOR.account!;
    expect(shape.credentials.map((c) => [c.name, c.required])).toEqual([
      ['apiKey', true],
      ['secretKey', true],
      ['transferPassword', false],
    ]);
    const read = readAccountSettings(
      CINETPAY_CONNECTOR.description,
      shape.settings,
      { siteId: '5870012', callbackUrl: 'https://pay.example/callbacks/cinetpay/' },
      'development',
    );
    expect(read).toEqual({
      ok: true,
      values: {
        baseUrl: 'https://api-checkout.cinetpay.com',
        transferBaseUrl: 'https://client.cinetpay.com',
        siteId: '5870012',
        callbackUrl: 'https://pay.example/callbacks/cinetpay',
      },
    });
    const values = (read as { values: Record<string, string> }).values;
    const collectOnly = CINETPAY_CONNECTOR.create(shape.build(values, { apiKey: 'ck_live_1', secretKey: 'sk_live_1' }), deps);
    expect(capabilitiesOf(CINETPAY_CONNECTOR.description, collectOnly)).toEqual({ collect: true, disburse: false, refund: false });
    await collectOnly.close();
    expect(shape.build(values, { apiKey: 'ck', secretKey: 'sk', transferPassword: 'pw' })).toMatchObject({
      apiKey: 'ck',
      siteId: '5870012',
      secretKey: 'sk',
      transferPassword: 'pw',
      callbackUrl: 'https://pay.example/callbacks/cinetpay',
    });
    expect(shape.callbacks?.({ webhookPath: undefined, settings: values })).toEqual([
      { purpose: 'notifications', path: null, url: 'https://pay.example/callbacks/cinetpay/{kind}/{reference}/{token}', setAtProvider: false },
    ]);
    expect(PAWAPAY_CONNECTOR.account?.callbacks?.({ webhookPath: '/callbacks/pawapay/pac_1', settings: {} }).map((c) => [c.purpose, c.path])).toEqual([
      ['deposits', '/callbacks/pawapay/pac_1'],
      ['payouts', '/callbacks/pawapay/pac_1'],
      ['refunds', '/callbacks/pawapay/pac_1'],
    ]);
  });

  it("live refusals: the aggregators' sandbox values, credentials included, each named and never quoted", () => {
    const live = { mode: 'live', countries: ['CM'], production: false } as const;
    expect(checkLiveSettings('pawapay', { baseUrl: 'https://api.sandbox.pawapay.io', apiToken: 'pawapay_sandbox_token' }, live)).toEqual([
      { setting: 'baseUrl', message: expect.stringContaining("pawaPay's sandbox") },
      { setting: 'apiToken', message: expect.stringContaining("Caisse's sandbox token") },
    ]);
    expect(checkLiveSettings('pawapay', { baseUrl: 'https://api.pawapay.io', apiToken: 'eyJx.y.z' }, live)).toEqual([]);
    const sandboxLike = { apiKey: 'cinetpay_sandbox_key', secretKey: 'cinetpay_sandbox_sk_abc', transferPassword: 'cinetpay_sandbox_transfer' };
    const problems = checkLiveSettings(
      'cinetpay',
      { baseUrl: 'https://api-checkout.cinetpay.com', callbackUrl: 'http://127.0.0.1/callbacks/cinetpay', ...sandboxLike },
      live,
    );
    expect(problems.map((p) => p.setting)).toEqual(['apiKey', 'secretKey', 'transferPassword']);
    for (const p of problems) for (const secret of Object.values(sandboxLike)) expect(p.message).not.toContain(secret);
    // In production, CinetPay must be able to post to the notify_url base.
    expect(
      checkLiveSettings(
        'cinetpay',
        { baseUrl: 'https://api-checkout.cinetpay.com', callbackUrl: 'https://10.0.0.5/callbacks/cinetpay' },
        { ...live, production: true },
      ),
    ).toEqual([{ setting: 'callbackUrl', message: expect.stringContaining('not 10.0.0.5') }]);
    // Test mode only ever calls Caisse's sandbox: nothing refused there.
    expect(checkLiveSettings('cinetpay', { callbackUrl: 'http://127.0.0.1/callbacks/cinetpay', ...sandboxLike }, { ...live, mode: 'test' })).toEqual([]);
  });

  it('a credential is shown as its last four characters at most, and not even those of a short one', () => {
    expect(maskSecret('orange-client-secret-1234')).toBe('…1234');
    expect(maskSecret('short-12345')).toBe('…');
  });
});
