import { type IncomingCallback, MTN_MOMO_CONNECTOR, ORANGE_MONEY_CONNECTOR, WAVE_CONNECTOR } from '../src/modules/connectors/index.ts';
import { createMtnMomoConnector } from '../src/modules/connectors/mtn-momo/mtn-momo.connector.ts';
import { createOrangeMoneyConnector } from '../src/modules/connectors/orange-money/orange-money.connector.ts';
import { createWaveConnector } from '../src/modules/connectors/wave/wave.connector.ts';
import { waveSignatureHeader } from '../src/modules/connectors/wave/wave.signature.ts';
import { HOUR, MINUTE } from '../src/platform/clock.ts';
import { type ContractProvider, describeConnectorContract } from './connectors.conformance.ts';

/**
 * The connector contract suite (connectors.conformance.ts) for every provider, each against its
 * part of the one sandbox.
 */

const MOMO = {
  apiUser: '0efc4721-b2ec-409c-bcd4-429b4cb8e8e5',
  apiKey: 'momo0api0key',
  collectionKey: 'momo0collection',
  disbursementKey: 'momo0disbursement',
};
const ORANGE = { clientId: 'orange0client', clientSecret: 'orange0secret', merchantKey: 'orange0merchant' };
const WAVE_KEY = 'wave_sn_prod_contract0key';
const WAVE_SECRET = 'wave0webhook0secret';
const RETURN = { returnUrl: 'http://127.0.0.1:9/return', cancelUrl: 'http://127.0.0.1:9/cancel' };

/** The same callback with its last path segment (our token) replaced. */
function otherToken(c: IncomingCallback): IncomingCallback {
  return { ...c, url: c.url.replace(/\/[^/]+$/, '/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA') };
}

const providers: ContractProvider[] = [
  {
    name: 'mtn_momo',
    currency: 'XAF',
    numberPrefix: '+237670000',
    approval: 'phone_prompt',
    numberWithRequest: true,
    canDisburse: true,
    failureReasons: true,
    testNumbers: true,
    tokens: {
      issued: (s) => s.of(MTN_MOMO_CONNECTOR).stats().tokensIssued.collection,
      revoke: (s) => void s.of(MTN_MOMO_CONNECTOR).revokeTokens(),
      lifeMs: HOUR,
    },
    sandboxOptions: () => ({ options: { mtn_momo: { credentials: MOMO } } }),
    connector: (env, change) =>
      createMtnMomoConnector(
        {
          baseUrl: env.sandbox.urls.mtn_momo!,
          targetEnvironment: 'sandbox',
          ...MOMO,
          ...(change?.badCredentials ? { apiKey: 'wrong' } : {}),
          callbackUrl: env.callbackUrl,
          timeoutMs: change?.timeoutMs,
        },
        env.deps,
      ),
    setFaults: (s, f) => void s.of(MTN_MOMO_CONNECTOR).setFaults(f),
    requests: (s) => s.of(MTN_MOMO_CONNECTOR).stats().requests,
    forge: (genuine) => [otherToken(genuine), { ...genuine, url: '/callbacks/mtn_momo/collection' }],
  },
  {
    name: 'orange_money',
    currency: 'XAF',
    numberPrefix: '+237690000',
    approval: 'redirect',
    numberWithRequest: false,
    canDisburse: false,
    failureReasons: false,
    testNumbers: true,
    tokens: { issued: (s) => s.of(ORANGE_MONEY_CONNECTOR).stats().tokensIssued, revoke: (s) => void s.of(ORANGE_MONEY_CONNECTOR).revokeTokens(), lifeMs: HOUR },
    sandboxOptions: () => ({ options: { orange_money: { credentials: ORANGE, tokenTtlSeconds: HOUR / 1000 } } }),
    request: RETURN,
    connector: (env, change) =>
      createOrangeMoneyConnector(
        {
          baseUrl: env.sandbox.urls.orange_money!,
          environment: 'dev',
          ...ORANGE,
          ...(change?.badCredentials ? { clientSecret: 'wrong' } : {}),
          merchantName: 'Contract shop',
          callbackUrl: env.callbackUrl,
          timeoutMs: change?.timeoutMs,
        },
        env.deps,
      ),
    setFaults: (s, f) => void s.of(ORANGE_MONEY_CONNECTOR).setFaults(f),
    requests: (s) => s.of(ORANGE_MONEY_CONNECTOR).stats().payments,
    forge: (genuine) => [
      otherToken(genuine),
      { ...genuine, body: String(genuine.body).replace(/"notif_token":"[^"]+"/, '"notif_token":"forged"') },
      { ...genuine, body: '{"status":"SUCCESS"}' },
    ],
  },
  {
    name: 'wave',
    currency: 'XOF',
    numberPrefix: '+221770000',
    approval: 'redirect',
    numberWithRequest: true,
    canDisburse: true,
    failureReasons: true,
    testNumbers: true,
    sandboxOptions: (callbackUrl) => ({ options: { wave: { apiKey: WAVE_KEY, webhookUrl: callbackUrl, webhookSecret: WAVE_SECRET } } }),
    request: RETURN,
    connector: (env, change) =>
      createWaveConnector(
        { baseUrl: env.sandbox.urls.wave!, apiKey: change?.badCredentials ? 'wave_wrong' : WAVE_KEY, webhookSecret: WAVE_SECRET, timeoutMs: change?.timeoutMs },
        env.deps,
      ),
    setFaults: (s, f) => void s.of(WAVE_CONNECTOR).setFaults(f),
    requests: (s) => s.of(WAVE_CONNECTOR).stats().sessions,
    forge: (genuine, env) => {
      const body = String(genuine.body);
      const now = env.clock.now().getTime();
      return [
        { ...genuine, headers: { 'wave-signature': waveSignatureHeader('another secret', now, body) } },
        { ...genuine, headers: {} },
        // Signed, but long ago: a replay.
        { ...genuine, headers: { 'wave-signature': waveSignatureHeader(WAVE_SECRET, now - 10 * MINUTE, body) } },
        // The body changed after signing.
        { ...genuine, body: body.replace('"succeeded"', '"processing"') },
        // Parsed JSON: the raw bytes are needed to check the signature.
        { ...genuine, body: JSON.parse(body) as unknown },
      ];
    },
  },
];

for (const p of providers) describeConnectorContract(p);
