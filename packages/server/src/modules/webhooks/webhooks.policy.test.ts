import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DAY, MINUTE, SECOND } from '../../platform/clock.ts';
import { backoffMs, nextAttemptAt, RETRY_WINDOW_MS, retryAfterMs } from './retry-policy.ts';
import { paySignature, signedHeaders, standardSignature } from './signing.ts';
import { addressPolicy, addressRefusal, checkEndpointHost, parseEndpointUrl, resolveForDelivery } from './url-policy.ts';
import { loadConfig } from '../../config.ts';

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
    for (const a of [
      '127.0.0.1',
      '::1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      'fe80::1',
      'fd12::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '224.0.0.1',
      '255.255.255.255',
    ]) {
      expect(addressRefusal(a, live), a).not.toBeNull();
    }
    expect(addressRefusal('127.0.0.1', test)).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1', test)).toBeNull();
    expect(addressRefusal('127.0.0.1', { live: false, allowLoopback: false })).not.toBeNull();
    expect(addressRefusal('10.0.0.1', test)).not.toBeNull();
  });

  it('parses URLs strictly', () => {
    expect(parseEndpointUrl('https://shop.example.com/h?x=1', live).toString()).toBe('https://shop.example.com/h?x=1');
    for (const bad of [
      'nope',
      'http://shop.example.com/',
      'https://a:b@shop.example.com/',
      'https://shop.example.com/#x',
      'https://[::1]/',
      'https://0x7f000001/',
      'javascript:alert(1)',
    ]) {
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
    await expect(resolveForDelivery(url, live, async () => [{ address: '93.184.216.34', family: 4 }])).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('IPv6: only global unicast 2000::/3 outside the special ranges (issue 20)', () => {
    for (const a of ['2606:4700::1', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888', '3ffe::1']) {
      expect(addressRefusal(a, live), a).toBeNull();
    }
    const refused = [
      '::127.0.0.1', // IPv4-compatible (deprecated) forms, whatever they embed
      '::a9fe:a9fe', // 169.254.169.254
      '::a00:1', // 10.0.0.1
      '::5db8:d822',
      '::93.184.216.34', // 93.184.216.34 (as glibc prints it), still refused: the form is deprecated
      'fe80::1%eth0',
      '::',
      '::1',
      '::ffff:169.254.169.254',
      '::ffff:0:10.0.0.1', // IPv4-mapped, SIIT
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::c0a8:1',
      '64:ff9b:1::a00:1', // NAT64
      '2002:7f00:1::1',
      '2002:a9fe:a9fe::1',
      '2002:a00:1::', // 6to4 of loopback, link-local, private
      '2001::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      '2001:2::1',
      '2001:10::1',
      '2001:20::1', // benchmarking, ORCHID
      '2001:db8::1',
      '3fff::1', // documentation
      'fc00::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      '100::1',
      '4000::1',
      '5f00::1',
      'e000::1',
    ];
    for (const a of refused) expect(addressRefusal(a, live), a).not.toBeNull();
    expect(addressRefusal('::a9fe:a9fe', live)).toMatch(/IPv4-compatible/);
    expect(addressRefusal('64:ff9b::a9fe:a9fe', live)).toMatch(/embeds 169\.254\.169\.254 is a linkLocal address/);
    // The embedding forms lead to a public IPv4 address: allowed (DNS64 answers, 6to4 hosts).
    for (const a of ['::ffff:93.184.216.34', '64:ff9b::5db8:d822', '2002:5db8:d822::1']) expect(addressRefusal(a, live), a).toBeNull();
    // Loopback in test mode means ::1 and 127/8 (also IPv4-mapped), never one tunnelled in another form.
    for (const a of ['::1', '::ffff:127.0.0.1']) expect(addressRefusal(a, test), a).toBeNull();
    for (const a of ['::127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1']) expect(addressRefusal(a, test), a).not.toBeNull();
  });

  it('the same IPv6 rule at registration (literal or resolved) and at delivery', async () => {
    for (const url of ['https://[::127.0.0.1]/', 'https://[::a9fe:a9fe]/', 'https://[::a00:1]/', 'https://[64:ff9b::a00:1]/', 'https://[2002:a00:1::1]/']) {
      expect(() => parseEndpointUrl(url, live), url).toThrow(expect.objectContaining({ code: 'url_invalid' }));
    }
    const url = new URL('https://aaaa.example/h');
    const resolver = async () => [{ address: '::a9fe:a9fe', family: 6 as const }];
    await expect(checkEndpointHost(url, live, resolver)).rejects.toMatchObject({ code: 'url_invalid' });
    await expect(resolveForDelivery(url, live, resolver)).rejects.toThrow(/refused to connect: aaaa\.example resolves to ::a9fe:a9fe/);
    await expect(resolveForDelivery(url, live, async () => [{ address: '2606:4700::1', family: 6 }])).resolves.toEqual({ address: '2606:4700::1', family: 6 });
  });

  it("loopback is never the gateway's own port, at registration or delivery (issue 20)", async () => {
    const policy = addressPolicy(
      loadConfig({ CAISSE_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'), CAISSE_DATA_DIR: '/tmp/caisse-policy-test', PORT: '8080' }),
      'test',
    );
    expect(policy).toMatchObject({ live: false, allowLoopback: true, gatewayPorts: [8080] });
    for (const url of ['http://127.0.0.1:8080/readyz', 'http://localhost:8080/x', 'http://[::1]:8080/', 'http://[::ffff:127.0.0.1]:8080/']) {
      expect(() => parseEndpointUrl(url, policy), url).toThrow(
        expect.objectContaining({ code: 'url_invalid', detail: expect.stringMatching(/8080 on loopback is this gateway's own/) }),
      );
    }
    expect(parseEndpointUrl('http://127.0.0.1:8081/hooks', policy).port).toBe('8081');
    const local = new URL('http://hooks.localtest.example:8080/x');
    const toLoopback = async () => [{ address: '127.0.0.1', family: 4 as const }];
    await expect(checkEndpointHost(local, policy, toLoopback)).rejects.toMatchObject({ code: 'url_invalid' });
    await expect(resolveForDelivery(local, policy, toLoopback)).rejects.toThrow(/this gateway's own/);
    await expect(resolveForDelivery(new URL('http://hooks.localtest.example:9000/x'), policy, toLoopback)).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
    });
  });
});
