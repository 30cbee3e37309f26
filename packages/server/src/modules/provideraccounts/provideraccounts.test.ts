import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.ts';
import { capabilitiesOf, MTN_MOMO_CONNECTOR, newReference, ORANGE_MONEY_CONNECTOR, WAVE_CONNECTOR } from '../connectors/index.ts';
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

  it('a credential is shown as its last four characters at most, and not even those of a short one', () => {
    expect(maskSecret('orange-client-secret-1234')).toBe('…1234');
    expect(maskSecret('short-12345')).toBe('…');
  });
});
