import { describe, expect, it } from 'vitest';
import { ManualClock, SECOND } from '../../platform/clock.ts';
import { createProviderHealth, outcomeOf, watched } from './connectors.health.ts';
import type { Connector } from './connectors.types.ts';

const rules = { windowMs: 60 * SECOND, minOutcomes: 4, failureRatio: 0.5, coolDownMs: 30 * SECOND };

describe('provider health', () => {
  it('reads outcomes from results: any answer of the provider is a success, UNKNOWN says why', () => {
    expect(outcomeOf({ status: 'FAILED', reason: 'PAYER_NOT_FOUND' })).toBe('success');
    expect(outcomeOf({ status: 'NOT_FOUND' })).toBe('success');
    expect(outcomeOf({ status: 'UNKNOWN', reason: 'no answer within 10000 ms' })).toBe('timeout');
    expect(outcomeOf({ status: 'UNKNOWN', reason: 'token: no answer within 10000 ms' })).toBe('timeout');
    expect(outcomeOf({ status: 'UNKNOWN', reason: 'HTTP 503 SERVICE_UNAVAILABLE' })).toBe('server_error');
    expect(outcomeOf({ status: 'UNKNOWN', reason: 'the answer is not JSON' })).toBe('unknown');
    expect(outcomeOf({ status: 'UNKNOWN', reason: 'connection refused' })).toBe('unknown');
    // Our side's: the provider was not asked, which says nothing of it.
    expect(outcomeOf({ status: 'UNKNOWN', reason: 'the pay_token and amount of this request are not known' })).toBeUndefined();
  });

  it('counts every outcome of a busy provider, thousands a second, and lets a whole second fall out at once', () => {
    const clock = new ManualClock(new Date('2026-11-26T08:00:00Z'));
    const health = createProviderHealth(clock, rules);
    for (let i = 0; i < 10_000; i++) health.record('pac_mtn_momo', 'mtn_momo', 'success');
    clock.advance(SECOND / 2);
    for (let i = 0; i < 9_999; i++) health.record('pac_mtn_momo', 'mtn_momo', 'timeout');
    expect(health.available('pac_mtn_momo', 'mtn_momo')).toBe(true);
    health.record('pac_mtn_momo', 'mtn_momo', 'timeout');
    expect(health.available('pac_mtn_momo', 'mtn_momo')).toBe(false);
    expect(health.views().find((v) => v.method === 'mtn_momo')?.outcomes).toMatchObject({ success: 10_000, timeout: 10_000 });

    const other = createProviderHealth(clock, rules);
    for (let i = 0; i < 10_000; i++) other.record('pac_wave', 'wave', 'success');
    clock.advance(rules.windowMs);
    // The ten thousand successes have left the window: four timeouts alone decide.
    for (let i = 0; i < 4; i++) other.record('pac_wave', 'wave', 'timeout');
    expect(other.available('pac_wave', 'wave')).toBe(false);
  });

  it('a few failures decide nothing; mostly failures in the window make it unavailable; old ones fall out', () => {
    const clock = new ManualClock(new Date('2026-11-26T08:00:00Z'));
    const health = createProviderHealth(clock, rules);
    expect(health.available('pac_wave', 'wave')).toBe(true);
    for (const o of ['timeout', 'server_error', 'success'] as const) health.record('pac_wave', 'wave', o);
    expect(health.admit('pac_wave', 'wave')).toBe(true);
    clock.advance(61 * SECOND);
    // The two failures are out of the window: 1 bad of 4 stays available.
    for (const o of ['success', 'success', 'success', 'timeout'] as const) health.record('pac_wave', 'wave', o);
    expect(health.available('pac_wave', 'wave')).toBe(true);
    health.record('pac_wave', 'wave', 'unknown');
    health.record('pac_wave', 'wave', 'timeout');
    expect(health.available('pac_wave', 'wave')).toBe(false);
    expect(health.admit('pac_wave', 'wave')).toBe(false);
    expect(health.available('pac_orange_money', 'orange_money')).toBe(true);
    expect(health.views().find((v) => v.method === 'wave')).toEqual({
      account: 'pac_wave',
      method: 'wave',
      available: false,
      outcomes: { success: 4, timeout: 3, server_error: 1, unknown: 1 },
    });
  });

  it('after the cool-down one probe goes through: a success brings it back, a failure starts another cool-down', () => {
    const clock = new ManualClock(new Date('2026-11-26T08:00:00Z'));
    const health = createProviderHealth(clock, rules);
    for (let i = 0; i < 4; i++) health.record('pac_mtn_momo', 'mtn_momo', 'timeout');
    expect(health.admit('pac_mtn_momo', 'mtn_momo')).toBe(false);
    // Answers during the cool-down (polls) change nothing.
    health.record('pac_mtn_momo', 'mtn_momo', 'success');
    clock.advance(30 * SECOND);
    expect(health.available('pac_mtn_momo', 'mtn_momo')).toBe(true);
    expect(health.admit('pac_mtn_momo', 'mtn_momo')).toBe(true);
    expect(health.admit('pac_mtn_momo', 'mtn_momo')).toBe(false);
    health.record('pac_mtn_momo', 'mtn_momo', 'server_error');
    expect(health.available('pac_mtn_momo', 'mtn_momo')).toBe(false);
    clock.advance(29 * SECOND);
    expect(health.admit('pac_mtn_momo', 'mtn_momo')).toBe(false);
    clock.advance(SECOND);
    expect(health.admit('pac_mtn_momo', 'mtn_momo')).toBe(true);
    health.record('pac_mtn_momo', 'mtn_momo', 'success');
    expect(health.available('pac_mtn_momo', 'mtn_momo')).toBe(true);
    expect(health.admit('pac_mtn_momo', 'mtn_momo')).toBe(true);
    expect(health.admit('pac_mtn_momo', 'mtn_momo')).toBe(true);
  });

  it('a failure of a call begun before the cool-down ended does not close it again; one begun after does', () => {
    const clock = new ManualClock(new Date('2026-11-26T08:00:00Z'));
    const health = createProviderHealth(clock, rules);
    for (let i = 0; i < 4; i++) health.record('pac_mtn_momo', 'mtn_momo', 'timeout');
    clock.advance(29 * SECOND);
    // A status read that hung through the end of the cool-down.
    const hung = health.now();
    clock.advance(2 * SECOND);
    health.record('pac_mtn_momo', 'mtn_momo', 'timeout', hung);
    expect(health.available('pac_mtn_momo', 'mtn_momo')).toBe(true);
    health.record('pac_mtn_momo', 'mtn_momo', 'timeout', health.now());
    expect(health.available('pac_mtn_momo', 'mtn_momo')).toBe(false);
    // A success begun before still brings it back once the new cool-down is over.
    const late = health.now();
    clock.advance(30 * SECOND);
    health.record('pac_mtn_momo', 'mtn_momo', 'success', late);
    expect(health.available('pac_mtn_momo', 'mtn_momo')).toBe(true);
    expect(health.admit('pac_mtn_momo', 'mtn_momo')).toBe(true);
    expect(health.admit('pac_mtn_momo', 'mtn_momo')).toBe(true);
  });

  it('once it is back, failures of calls begun before it came back do not count; later ones do', () => {
    const clock = new ManualClock(new Date('2026-11-26T08:00:00Z'));
    const health = createProviderHealth(clock, rules);
    for (let i = 0; i < 4; i++) health.record('pac_mtn_momo', 'mtn_momo', 'timeout');
    clock.advance(30 * SECOND);
    // Status reads sent just after the cool-down, while the provider still hung.
    const hung = health.now();
    clock.advance(SECOND);
    health.record('pac_mtn_momo', 'mtn_momo', 'success', health.now());
    expect(health.available('pac_mtn_momo', 'mtn_momo')).toBe(true);
    clock.advance(2 * SECOND);
    for (let i = 0; i < 4; i++) health.record('pac_mtn_momo', 'mtn_momo', 'timeout', hung);
    health.record('pac_mtn_momo', 'mtn_momo', 'success', health.now());
    expect(health.available('pac_mtn_momo', 'mtn_momo')).toBe(true);
    expect(health.views().find((v) => v.method === 'mtn_momo')?.outcomes).toMatchObject({ success: 2, timeout: 8 });
    // Calls begun since it came back count as before.
    for (let i = 0; i < 3; i++) health.record('pac_mtn_momo', 'mtn_momo', 'timeout', health.now());
    expect(health.available('pac_mtn_momo', 'mtn_momo')).toBe(false);
  });

  it('a probe that never reports stops blocking after another cool-down', () => {
    const clock = new ManualClock(new Date('2026-11-26T08:00:00Z'));
    const health = createProviderHealth(clock, rules);
    for (let i = 0; i < 4; i++) health.record('pac_wave', 'wave', 'timeout');
    clock.advance(30 * SECOND);
    expect(health.admit('pac_wave', 'wave')).toBe(true);
    clock.advance(10 * SECOND);
    expect(health.admit('pac_wave', 'wave')).toBe(false);
    clock.advance(20 * SECOND);
    expect(health.admit('pac_wave', 'wave')).toBe(true);
  });

  it('a watched connector reports every call and verified callback, and changes no answer', async () => {
    const clock = new ManualClock(new Date('2026-11-26T08:00:00Z'));
    const health = createProviderHealth(clock, rules);
    const unknown = { status: 'UNKNOWN', reason: 'HTTP 502' } as const;
    const inner: Connector = {
      provider: 'wave',
      submitTimeoutMs: 10,
      collect: async () => ({ status: 'UNKNOWN', reason: 'no answer within 10 ms' }),
      disburse: async () => ({ status: 'PENDING', duplicate: false }),
      status: async () => unknown,
      verifyCallback: async () => ({ ok: true, kind: 'collection', reference: 'r', claimed: undefined, result: unknown }),
      refund: async () => ({ status: 'FAILED', reason: 'checkout-refund-failed' }),
      close: async () => {},
    };
    const c = watched(inner, health, 'pac_wave');
    const req = { reference: 'r', amount: 1n, currency: 'XOF' as const, phoneNumber: '+221770000000', externalId: 'x' };
    // The lifecycle reads the bound on a submit through the wrapper.
    expect(c.submitTimeoutMs).toBe(10);
    expect(await c.collect(req)).toEqual({ status: 'UNKNOWN', reason: 'no answer within 10 ms' });
    expect(await c.disburse(req)).toEqual({ status: 'PENDING', duplicate: false });
    expect(await c.status('collection', 'r')).toBe(unknown);
    expect(await c.verifyCallback({ url: '/', body: '' })).toMatchObject({ ok: true });
    expect(await c.refund?.({ ...req, providerReference: 'cos-1' })).toEqual({ status: 'FAILED', reason: 'checkout-refund-failed' });
    // 3 bad of 5: unavailable.
    expect(health.views()).toEqual([
      { account: 'pac_wave', method: 'wave', available: false, outcomes: { success: 2, timeout: 1, server_error: 2, unknown: 0 } },
    ]);
  });

  it("one account's outage greys only that account, and an aggregator account's only the failing operator", async () => {
    const clock = new ManualClock(new Date('2026-11-26T08:00:00Z'));
    const health = createProviderHealth(clock, rules);
    // Two accounts of one connector: the first fails, the second answers.
    for (let i = 0; i < 4; i++) health.record('pac_env_mtn_momo_aaa', 'mtn_momo', 'timeout');
    for (let i = 0; i < 4; i++) health.record('pac_env_mtn_momo_bbb', 'mtn_momo', 'success');
    expect(health.available('pac_env_mtn_momo_aaa', 'mtn_momo')).toBe(false);
    expect(health.admit('pac_env_mtn_momo_aaa', 'mtn_momo')).toBe(false);
    expect(health.available('pac_env_mtn_momo_bbb', 'mtn_momo')).toBe(true);
    expect(health.admit('pac_env_mtn_momo_bbb', 'mtn_momo')).toBe(true);
    // The same account's other methods go on.
    expect(health.available('pac_env_mtn_momo_aaa', 'orange_money')).toBe(true);

    // An aggregator's account reaching two operators: a call names the operator (`method`).
    const failing = new Set(['mtn_momo']);
    const aggregator: Connector = {
      provider: 'test_aggregator',
      submitTimeoutMs: 10,
      collect: async (r) => (failing.has(r.method ?? '') ? { status: 'UNKNOWN', reason: 'HTTP 503' } : { status: 'PENDING', duplicate: false }),
      disburse: async () => ({ status: 'PENDING', duplicate: false }),
      status: async () => ({ status: 'NOT_FOUND' }),
      verifyCallback: async () => ({ ok: false, reason: 'unsigned' }),
      close: async () => {},
    };
    const c = watched(aggregator, health, 'pac_agg_1');
    const req = { reference: 'r', amount: 1n, currency: 'XOF' as const, phoneNumber: '+2250700000000', externalId: 'x' };
    for (let i = 0; i < 4; i++) {
      await c.collect({ ...req, method: 'mtn_momo' });
      await c.collect({ ...req, method: 'orange_money' });
    }
    expect(health.available('pac_agg_1', 'mtn_momo')).toBe(false);
    expect(health.available('pac_agg_1', 'orange_money')).toBe(true);
    expect(
      health
        .views()
        .filter((v) => !v.available)
        .map((v) => `${v.account}/${v.method}`),
    ).toEqual(['pac_env_mtn_momo_aaa/mtn_momo', 'pac_agg_1/mtn_momo']);
  });
});
