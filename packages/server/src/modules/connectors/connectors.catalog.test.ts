import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { COUNTRY_CODES } from '../../platform/countries.ts';
import { ApiError } from '../../platform/errors.ts';
import {
  assertProviderTakes,
  checkAmountBounds,
  describeProvider,
  fitMessage,
  formatProvidersReport,
  isAcceptableMessage,
  lookupNumber,
  providerNames,
  providerDescriptions,
  parseProviderHealth,
  providersReport,
  providersServing,
  readAccountSettings,
  refundRefusal,
  servedMethods,
  servesNumber,
} from './index.ts';
import { providerPrefixes, servedCurrencies, suggestProvider } from './connectors.catalog.ts';
import { NUMBERING_PLAN } from './connectors.numbering.ts';
import { acceptedCurrencies } from './connectors.registry.ts';
import { TEST_NUMBER_OUTCOMES } from './connectors.testnumbers.ts';

describe('provider descriptions', () => {
  it('the registry lists one description per provider, named as in the registry', () => {
    expect(providerDescriptions().map((d) => d.name)).toEqual(providerNames());
    for (const d of providerDescriptions()) {
      expect(describeProvider(d.name)).toBe(d);
      for (const c of d.currencies) {
        const b = d.limits[c];
        expect(b !== undefined && b.min > 0n && b.min <= b.max).toBe(true);
      }
      // Every provider's sandbox answers the same table (docs/spec/providers.md).
      expect(d.testNumbers.map((t) => t.phoneNumber.slice(-3))).toEqual(Object.keys(TEST_NUMBER_OUTCOMES));
      for (const t of d.testNumbers) expect(servesNumber(d, t.phoneNumber)).toBe(true);
    }
    expect(describeProvider('paypal')).toBeUndefined();
    expect(describeProvider('toString')).toBeUndefined();
  });

  it('mtn_momo: Cameroon, XAF, phone prompt, *126#, MTN prefixes and message rules', () => {
    const mtn = describeProvider('mtn_momo');
    expect(mtn).toMatchObject({ displayName: 'MTN MoMo', countries: ['CM'], currencies: ['XAF'], approval: 'phone_prompt', ussd: '*126#' });
    expect(mtn?.capabilities).toEqual({ collect: true, disburse: true, refund: true });
    expect(mtn?.settings.filter((s) => s.secret).map((s) => s.env)).toEqual([
      'CAISSE_MOMO_API_KEY',
      'CAISSE_MOMO_COLLECTION_KEY',
      'CAISSE_MOMO_DISBURSEMENT_KEY',
    ]);
    expect(providerPrefixes(mtn!)).toEqual(['+237650', '+237651', '+237652', '+237653', '+237654', '+237680', '+237681', '+237682', '+237683', '+23767']);
    expect(providersServing('CM', 'XAF')).toEqual(['mtn_momo', 'orange_money']);
    // The merchant's country fixes the currency (XAF in CM); the descriptions alone do not pair them.
    expect(providersServing('CM', 'XOF')).toEqual(['orange_money']);
    // Free Money through an aggregator (CinetPay), in the country's currency only.
    expect(providersServing('SN', 'XOF')).toEqual(['orange_money', 'wave', 'free_money']);
  });

  it('checkAmountBounds answers why an amount cannot go through', () => {
    const mtn = describeProvider('mtn_momo')!;
    expect(checkAmountBounds(mtn, 'XAF', 100n)).toEqual({ ok: true });
    expect(checkAmountBounds(mtn, 'XAF', 500_000n)).toEqual({ ok: true });
    expect(checkAmountBounds(mtn, 'XAF', 99n)).toMatchObject({ ok: false, reason: 'below_minimum', bounds: { min: 100n } });
    expect(checkAmountBounds(mtn, 'XAF', 500_001n)).toMatchObject({ ok: false, reason: 'above_maximum', bounds: { max: 500_000n } });
    expect(checkAmountBounds(mtn, 'EUR', 1000n)).toEqual({ ok: false, reason: 'currency_unsupported' });
  });

  it('cinetpay: an aggregator, never a method itself; multiples of 5; card payments cannot be refunded', () => {
    const cinetpay = describeProvider('cinetpay')!;
    expect(cinetpay).toMatchObject({ displayName: 'CinetPay', countries: [], approval: 'redirect', network: null, statusByReference: true });
    // No checkout lists the aggregator: it reaches operators and cards.
    for (const country of COUNTRY_CODES) expect(providersServing(country, country === 'CM' ? 'XAF' : 'XOF')).not.toContain('cinetpay');
    const served: Record<string, string[]> = {};
    for (const m of servedMethods(cinetpay)) served[m.method] = [...(served[m.method] ?? []), ...m.countries];
    expect(served).toMatchObject({ moov_money: ['CI', 'ML', 'BF', 'TG', 'BJ'], free_money: ['SN'], card: ['CI', 'CM'] });
    // Cards take USD besides the country's currency; mobile money the country's only (decision 0098).
    expect(servedCurrencies(cinetpay, 'card', 'CI')).toEqual(['XOF', 'USD']);
    expect(servedCurrencies(cinetpay, 'card', 'CM')).toEqual(['XAF', 'USD']);
    expect(servedCurrencies(cinetpay, 'orange_money', 'CM')).toEqual(['XAF']);
    expect(servedCurrencies(cinetpay, 'card', 'SN')).toBeUndefined();
    expect(servedCurrencies(describeProvider('mtn_momo')!, 'mtn_momo', 'CM')).toBeUndefined();
    // ... where the account's service takes them: USD is opt-in per account, named in `cardCurrencies`.
    expect(cinetpay.optInCurrencies).toEqual(['USD']);
    expect(acceptedCurrencies('CM', ['cinetpay'], () => ['XAF', 'XOF'])).toEqual(['XAF']);
    expect(acceptedCurrencies('CM', ['cinetpay'], () => ['XAF', 'XOF', 'USD'])).toEqual(['XAF', 'USD']);
    expect(acceptedCurrencies('SN', ['cinetpay'], () => ['XAF', 'XOF', 'USD'])).toEqual(['XOF']);
    const settings = (cardCurrencies: string) =>
      readAccountSettings(
        cinetpay,
        ['siteId', 'callbackUrl', 'baseUrl', 'cardCurrencies'],
        { siteId: '1', callbackUrl: 'http://127.0.0.1/cb', cardCurrencies },
        'development',
      );
    expect(settings(' xaf , usd ')).toMatchObject({ ok: true, values: { cardCurrencies: 'XAF,USD' } });
    expect(settings('EUR')).toMatchObject({ ok: false, key: 'cardCurrencies', message: expect.stringContaining('XOF, XAF, CDF, GNF, USD') });
    expect(settings('CDF')).toMatchObject({ ok: false, key: 'cardCurrencies', message: expect.stringContaining('no country Caisse serves') });
    expect(settings('US-D')).toMatchObject({ ok: false, key: 'cardCurrencies', message: expect.stringContaining('currency codes') });
    expect(providersServing('CI', 'USD')).toEqual([]);
    expect(checkAmountBounds(cinetpay, 'USD', 2500n)).toEqual({ ok: true });
    expect(checkAmountBounds(cinetpay, 'USD', 1250n)).toMatchObject({ ok: false, reason: 'not_a_multiple', bounds: { step: 500n } });
    expect(checkAmountBounds(cinetpay, 'USD', 250_500n)).toMatchObject({ ok: false, reason: 'above_maximum' });
    expect(checkAmountBounds(cinetpay, 'EUR', 2500n)).toEqual({ ok: false, reason: 'currency_unsupported' });
    for (const countries of Object.values(served)) for (const c of countries) expect(['CM', 'SN', 'CI', 'BJ', 'BF', 'ML', 'TG']).toContain(c);
    expect(servesNumber(cinetpay, '+2250100000001')).toBe(true);
    expect(checkAmountBounds(cinetpay, 'XOF', 5000n)).toEqual({ ok: true });
    expect(checkAmountBounds(cinetpay, 'XOF', 5001n)).toMatchObject({ ok: false, reason: 'not_a_multiple', bounds: { step: 5n } });
    expect(checkAmountBounds(cinetpay, 'XAF', 95n)).toMatchObject({ ok: false, reason: 'below_minimum' });
    expect(checkAmountBounds(cinetpay, 'XAF', 1_500_005n)).toMatchObject({ ok: false, reason: 'above_maximum' });
    // Refused before anything is stored, saying why.
    let refused: unknown;
    try {
      assertProviderTakes(cinetpay, { phoneNumber: '+2250100000001', currency: 'XOF', amount: 1002n }, { phoneNumber: 'phoneNumber', amount: 'amount' });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'amount_out_of_bounds', message: expect.stringContaining('in multiples of 5') });
    expect(refundRefusal(cinetpay, 'card')).toContain('no refund');
    expect(refundRefusal(cinetpay, 'moov_money')).toBeUndefined();
    expect(refundRefusal(describeProvider('mtn_momo'), 'mtn_momo')).toBeUndefined();
  });

  it("messages are made acceptable to MTN: no &'<>, never empty, at most 160 characters", () => {
    const rules = describeProvider('mtn_momo')!.messages;
    expect(isAcceptableMessage(rules, "Tom & Jerry's <shop>")).toBe(false);
    expect(fitMessage(rules, "Tom & Jerry's <shop>", 'pi_1')).toBe('Tom Jerry s shop');
    expect(fitMessage(rules, '', 'pi_1')).toBe('pi_1');
    expect(fitMessage(rules, '&&<>', 'pi_1')).toBe('pi_1');
    const long = fitMessage(rules, 'é'.repeat(200), 'pi_1');
    expect([...long]).toHaveLength(160);
    expect(isAcceptableMessage(rules, long)).toBe(true);
    expect(isAcceptableMessage(rules, '')).toBe(false);
  });
});

describe('numbering table', () => {
  it('Cameroon: MTN 650–654, 67x, 680–683; Orange 655–659, 69x', () => {
    for (const n of ['+237650123456', '+237654123456', '+237677123456', '+237680123456', '+237683123456'])
      expect(lookupNumber(n)).toEqual({ country: 'CM', operator: 'mtn' });
    for (const n of ['+237655123456', '+237659123456', '+237690123456', '+237699123456'])
      expect(lookupNumber(n)).toEqual({ country: 'CM', operator: 'orange' });
    expect(lookupNumber('+237684123456')).toEqual({ country: 'CM', operator: undefined });
  });

  it("Senegal and Côte d'Ivoire", () => {
    expect(lookupNumber('+221771234567')).toEqual({ country: 'SN', operator: 'orange' });
    expect(lookupNumber('+221761234567')).toEqual({ country: 'SN', operator: 'free' });
    expect(lookupNumber('+2250712345678')).toEqual({ country: 'CI', operator: 'orange' });
    expect(lookupNumber('+2250512345678')).toEqual({ country: 'CI', operator: 'mtn' });
    expect(lookupNumber('+2250112345678')).toEqual({ country: 'CI', operator: 'moov' });
  });

  it('refuses what is not a mobile number of a country served', () => {
    for (const n of ['237677123456', '+23767712345', '+2376771234567', '+33612345678', '+237 677 12 34 56', '', '+']) expect(lookupNumber(n)).toBeUndefined();
  });

  it('each country of the table is served, and no national prefix is listed twice', () => {
    const seen = new Set<string>();
    for (const e of NUMBERING_PLAN) {
      expect(COUNTRY_CODES).toContain(e.country);
      for (const p of e.prefixes) {
        expect(seen.has(`${e.country}${p}`)).toBe(false);
        seen.add(`${e.country}${p}`);
      }
    }
  });

  it("suggestProvider picks the provider of the number's network, among the allowed ones", () => {
    expect(suggestProvider('+237677123456')).toBe('mtn_momo');
    expect(suggestProvider('+237651123456', ['mtn_momo'])).toBe('mtn_momo');
    expect(suggestProvider('+237677123456', [])).toBeUndefined();
    expect(suggestProvider('+237699123456')).toBe('orange_money');
    expect(suggestProvider('+221771234567')).toBe('orange_money'); // Wave has no network: never suggested by prefix
    expect(suggestProvider('+2250512345678')).toBe('mtn_momo'); // MTN in Côte d'Ivoire: an aggregator reaches it there
    expect(suggestProvider('not a number')).toBeUndefined();
  });

  it("servesNumber: the provider's network in its countries", () => {
    const mtn = describeProvider('mtn_momo')!;
    expect(servesNumber(mtn, '+237677123456')).toBe(true);
    expect(servesNumber(mtn, '+237699123456')).toBe(false);
    expect(servesNumber(mtn, '+2250512345678')).toBe(false);
    expect(servesNumber(mtn, '677123456')).toBe(false);
  });
});

describe('providers list', () => {
  const env = {
    CAISSE_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    CAISSE_MOMO_BASE_URL: 'https://momo.example.com',
    CAISSE_MOMO_API_USER: '00000000-0000-4000-8000-000000000000',
    CAISSE_MOMO_API_KEY: 'secret-api-key',
    CAISSE_MOMO_COLLECTION_KEY: 'secret-collection',
    CAISSE_MOMO_DISBURSEMENT_KEY: 'secret-disbursement',
  };

  it('says what is configured in each mode and which settings are set, never their values', () => {
    const [mtn] = providersReport(loadConfig(env), env);
    expect(mtn).toMatchObject({
      provider: 'mtn_momo',
      live: 'configured',
      test: 'sandbox (in-process, with start)',
      limits: { XAF: { min: '100', max: '500000' } },
      available: { test: null, live: null },
    });
    expect(mtn?.settings.find((s) => s.env === 'CAISSE_MOMO_API_KEY')).toMatchObject({ set: true, secret: true });
    expect(mtn?.settings.find((s) => s.env === 'CAISSE_MOMO_CALLBACK_URL')).toMatchObject({ set: false, required: false });
    const text = formatProvidersReport(providersReport(loadConfig(env), env)) + JSON.stringify(providersReport(loadConfig(env), env));
    for (const secret of ['secret-api-key', 'secret-collection', 'secret-disbursement']) expect(text).not.toContain(secret);
    const bare = { CAISSE_MASTER_KEY: env.CAISSE_MASTER_KEY, CAISSE_SANDBOX_URL: 'http://127.0.0.1:8090' };
    expect(providersReport(loadConfig(bare), bare)[0]).toMatchObject({ live: 'not configured', test: 'sandbox' });
  });

  it('lists Orange Money and Wave as configured once their variables are set, secrets hidden', () => {
    const all = { ...env, CAISSE_WAVE_API_KEY: 'wave_secret_key', CAISSE_WAVE_WEBHOOK_SECRET: 'wave_secret_hook' };
    const report = providersReport(loadConfig(all), all);
    expect(report.map((r) => [r.provider, r.live])).toEqual([
      ['mtn_momo', 'configured'],
      ['orange_money', 'not configured'],
      ['wave', 'configured'],
      ['cinetpay', 'not configured'],
      ['pawapay', 'not configured'],
    ]);
    expect(report[2]?.settings.find((s) => s.env === 'CAISSE_WAVE_BASE_URL')).toMatchObject({ set: false, required: false });
    const text = formatProvidersReport(report);
    expect(text).toContain('CAISSE_ORANGE_CLIENT_SECRET');
    for (const secret of ['wave_secret_key', 'wave_secret_hook']) expect(text + JSON.stringify(report)).not.toContain(secret);
  });

  it("shows each mode's health as the running server's /metrics says it", () => {
    const metrics = [
      '# HELP caisse_provider_available Whether new charges go to the provider',
      '# TYPE caisse_provider_available gauge',
      'caisse_provider_available{mode="test",provider="wave"} 0',
      'caisse_provider_available{provider="mtn_momo",mode="live"} 1',
      'caisse_provider_calls_total{mode="test",provider="wave",outcome="timeout"} 1',
    ].join('\n');
    const health = parseProviderHealth(metrics);
    expect([...health.entries()]).toEqual([
      ['test:wave', false],
      ['live:mtn_momo', true],
    ]);
    const report = providersReport(loadConfig(env), env, health);
    expect(report.map((r) => [r.provider, r.available])).toEqual([
      ['mtn_momo', { test: null, live: true }],
      ['orange_money', { test: null, live: null }],
      ['wave', { test: false, live: null }],
      ['cinetpay', { test: null, live: null }],
      ['pawapay', { test: null, live: null }],
    ]);
    // Not called yet in a mode: said so, in words a person reads (it counts as available).
    const lines = formatProvidersReport(report)
      .split('\n')
      .filter((l) => l.includes('available:'));
    expect(lines[0]).toContain('available: live yes, test not called yet');
    // Live accounts not configured: nothing to call there.
    expect(lines[1]).toContain('available: live -, test not called yet');
    expect(lines[2]).toContain('available: live -, test no');
    // Per account: the mode is available while one of its accounts is; each account is listed.
    const perAccount = parseProviderHealth(
      [
        'caisse_provider_available{mode="live",provider="wave",account="pac_env_wave_aaa"} 0',
        'caisse_provider_available{mode="live",provider="wave",account="pac_env_wave_bbb"} 1',
      ].join('\n'),
    );
    const [wave] = providersReport(loadConfig(env), env, perAccount).filter((r) => r.provider === 'wave');
    expect(wave).toMatchObject({
      available: { test: null, live: true },
      accounts: [
        { mode: 'live', account: 'pac_env_wave_aaa', available: false },
        { mode: 'live', account: 'pac_env_wave_bbb', available: true },
      ],
    });
    expect(formatProvidersReport([wave as NonNullable<typeof wave>])).toContain('accounts: live pac_env_wave_aaa unavailable; live pac_env_wave_bbb available');
    expect(formatProvidersReport(providersReport(loadConfig(env), env), { serverReached: false })).toContain(
      'available: live server not reached, test server not reached',
    );
  });
});
