import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DAY, MINUTE, SECOND } from '../../platform/clock.ts';
import { backoffMs, nextAttemptAt, RETRY_WINDOW_MS, retryAfterMs } from './retry-policy.ts';
import { paySignature, signedHeaders, standardSignature } from './signing.ts';
import { addressRefusal, parseEndpointUrl, resolveForDelivery } from './url-policy.ts';

const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

describe('signing', () => {
  it('pay-signature is t=<seconds>,v1=<hex HMAC keyed with the whole secret string>', () => {
    const expected = createHmac('sha256', secret).update('1700000000.{"a":1}').digest('hex');
    expect(paySignature([secret], 1700000000, '{"a":1}')).toBe(`t=1700000000,v1=${expected}`);
    expect(paySignature([secret, 'whsec_b'], 1, 'x').split(',')).toHaveLength(3);
  });

  it('webhook-signature is v1,<base64 HMAC keyed with the decoded bytes after whsec_>', () => {
    const expected = createHmac('sha256', Buffer.alloc(32, 9)).update('evt_1.1700000000.{"a":1}').digest('base64');
    expect(standardSignature([secret], 'evt_1', 1700000000, '{"a":1}')).toBe(`v1,${expected}`);
    expect(standardSignature([secret, secret], 'evt_1', 1, 'x').split(' ')).toHaveLength(2);
  });

  it('headers use the clock given, in whole seconds', () => {
    const h = signedHeaders([secret], 'evt_1', new Date('2026-11-01T10:00:00.900Z'), '{}');
    expect(h['webhook-timestamp']).toBe(String(Date.parse('2026-11-01T10:00:00Z') / 1000));
    expect(h['webhook-id']).toBe('evt_1');
    expect(h['content-type']).toBe('application/json');
  });
});

describe('retry policy', () => {
  it('first retry within a minute, doubling, capped, jittered', () => {
    expect(backoffMs(1, 0)).toBe(24 * SECOND);
    expect(backoffMs(1, 0.999999)).toBeLessThanOrEqual(MINUTE);
    expect(backoffMs(2, 0.5)).toBe(60 * SECOND);
    expect(backoffMs(50, 0.5)).toBe(6 * 3600 * SECOND);
  });

  it('stops after the 3-day window, with one last try at its end', () => {
    const createdAt = new Date('2026-11-01T00:00:00Z');
    const late = new Date(createdAt.getTime() + RETRY_WINDOW_MS - MINUTE);
    expect(nextAttemptAt({ now: late, createdAt, attempts: 15, unit: 0.5 })?.getTime()).toBe(createdAt.getTime() + RETRY_WINDOW_MS);
    expect(nextAttemptAt({ now: new Date(createdAt.getTime() + 3 * DAY), createdAt, attempts: 16, unit: 0.5 })).toBeNull();
    expect(nextAttemptAt({ now: createdAt, createdAt, attempts: 1, unit: 0.5, retryAfterMs: 5 * SECOND })?.getTime()).toBe(createdAt.getTime() + 5 * SECOND);
  });

  it('reads Retry-After as seconds or an HTTP date, within bounds', () => {
    const now = new Date('2026-11-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120 * SECOND);
    expect(retryAfterMs('0', now)).toBe(SECOND);
    expect(retryAfterMs('99999999', now)).toBe(DAY);
    expect(retryAfterMs(new Date(now.getTime() + 90 * SECOND).toUTCString(), now)).toBe(90 * SECOND);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('address policy', () => {
  const live = { live: true, allowLoopback: true };
  const test = { live: false, allowLoopback: true };
  it('allows only global unicast; loopback only in test mode when allowed', () => {
    expect(addressRefusal('93.184.216.34', live)).toBeNull();
    expect(addressRefusal('2606:4700::1', live)).toBeNull();
    for (const a of ['127.0.0.1', '::1', '10.0.0.1', '172.16.5.4', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', 'fe80::1', 'fd12::1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '224.0.0.1', '255.255.255.255']) {
      expect(addressRefusal(a, live), a).not.toBeNull();
    }
    expect(addressRefusal('127.0.0.1', test)).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1', test)).toBeNull();
    expect(addressRefusal('127.0.0.1', { live: false, allowLoopback: false })).not.toBeNull();
    expect(addressRefusal('10.0.0.1', test)).not.toBeNull();
  });

  it('parses URLs strictly', () => {
    expect(parseEndpointUrl('https://shop.example.com/h?x=1', live).toString()).toBe('https://shop.example.com/h?x=1');
    for (const bad of ['nope', 'http://shop.example.com/', 'https://a:b@shop.example.com/', 'https://shop.example.com/#x', 'https://[::1]/', 'https://0x7f000001/', 'javascript:alert(1)']) {
      expect(() => parseEndpointUrl(bad, live), bad).toThrow(expect.objectContaining({ code: 'url_invalid' }));
    }
  });

  it('at delivery, refuses when any resolved address is not allowed', async () => {
    const url = new URL('https://multi.example/h');
    await expect(
      resolveForDelivery(url, live, async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ]),
    ).rejects.toThrow(/10\.0\.0\.1/);
    await expect(resolveForDelivery(url, live, async () => [])).rejects.toThrow(/does not resolve/);
    await expect(resolveForDelivery(url, live, async () => [{ address: '93.184.216.34', family: 4 }])).resolves.toEqual({ address: '93.184.216.34', family: 4 });
  });
});
