import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { Caisse, constructEvent, generateTestHeader, generateTestHeaders, WebhookSignatureError } from '../src/index.ts';
import { INTENT } from './support.ts';

const SECRET = 'whsec_' + Buffer.alloc(32, 3).toString('base64');
const OTHER_SECRET = 'whsec_' + Buffer.alloc(32, 4).toString('base64');
const NOW = 1_793_000_000; // unix seconds
const { sessionToken: _omit, ...paymentIntent } = INTENT;
const EVENT = {
  id: 'evt_1',
  object: 'event',
  type: 'payment.completed',
  createdAt: '2026-11-01T10:00:00.000Z',
  livemode: false,
  apiVersion: '2026-11-01',
  data: { paymentIntent: { ...paymentIntent, status: 'SUCCEEDED' } },
};
const BODY = JSON.stringify(EVENT);

/** The specification's algorithm, written out independently of the SDK: HMAC-SHA256(secret as UTF-8, "<t>.<body>"). */
function contractSignature(secret: string, t: number, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.${body}`).digest('hex');
}
const header = (t: number, ...sigs: string[]) => [`t=${t}`, ...sigs.map((s) => `v1=${s}`)].join(',');

function failure(fn: () => unknown): WebhookSignatureError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookSignatureError);
    return err as WebhookSignatureError;
  }
  throw new Error('expected constructEvent to throw');
}

describe('webhooks.constructEvent', () => {
  it('returns the typed event for a body signed as the specification says', () => {
    const event = constructEvent(BODY, header(NOW, contractSignature(SECRET, NOW, BODY)), SECRET, { now: NOW * 1000 });
    expect(event).toEqual(EVENT);
    expect(event.type).toBe('payment.completed');
    expect(event.data.paymentIntent.metadata).toEqual({ orderId: 'ord_42' });
  });

  it('accepts the raw body as a Buffer and is on the client and the class', () => {
    const h = header(NOW, contractSignature(SECRET, NOW, BODY));
    expect(Caisse.webhooks.constructEvent(Buffer.from(BODY), h, SECRET, { now: NOW * 1000 }).id).toBe('evt_1');
    const caisse = new Caisse({ apiKey: 'pk_test_x', secretKey: 'sk_test_x', baseUrl: 'http://localhost:1' });
    expect(caisse.webhooks.constructEvent(new Uint8Array(Buffer.from(BODY)), h, SECRET, { now: new Date(NOW * 1000) }).id).toBe('evt_1');
  });

  it('accepts any of several v1 signatures (a secret being rolled), in any order', () => {
    const h = header(NOW, contractSignature(OTHER_SECRET, NOW, BODY), contractSignature(SECRET, NOW, BODY));
    expect(constructEvent(BODY, h, SECRET, { now: NOW * 1000 }).id).toBe('evt_1');
    expect(constructEvent(BODY, h, OTHER_SECRET, { now: NOW * 1000 }).id).toBe('evt_1');
    // The receiver may also hold both secrets during its own switch.
    expect(constructEvent(BODY, header(NOW, contractSignature(SECRET, NOW, BODY)), [OTHER_SECRET, SECRET], { now: NOW * 1000 }).id).toBe('evt_1');
  });

  it('ignores unknown schemes and spaces in the header', () => {
    const h = ` t=${NOW}, v0=abc, v1=${contractSignature(SECRET, NOW, BODY)} `;
    expect(constructEvent(BODY, h, SECRET, { now: NOW * 1000 }).id).toBe('evt_1');
  });

  it('fails with the wrong secret', () => {
    const err = failure(() => constructEvent(BODY, header(NOW, contractSignature(SECRET, NOW, BODY)), OTHER_SECRET, { now: NOW * 1000 }));
    expect(err.code).toBe('signature_mismatch');
  });

  it('fails when the body was tampered with (one character, or re-serialised JSON)', () => {
    const h = header(NOW, contractSignature(SECRET, NOW, BODY));
    expect(failure(() => constructEvent(BODY.replace('5000', '5001'), h, SECRET, { now: NOW * 1000 })).code).toBe('signature_mismatch');
    expect(failure(() => constructEvent(JSON.stringify(EVENT, null, 2), h, SECRET, { now: NOW * 1000 })).code).toBe('signature_mismatch');
  });

  it('fails when the timestamp in the header was changed (it is signed too)', () => {
    const h = header(NOW + 1, contractSignature(SECRET, NOW, BODY));
    expect(failure(() => constructEvent(BODY, h, SECRET, { now: NOW * 1000 })).code).toBe('signature_mismatch');
  });

  it('fails for an old timestamp (default tolerance 300 s), or one too far ahead; tolerance is adjustable', () => {
    const old = NOW - 301;
    const h = header(old, contractSignature(SECRET, old, BODY));
    const err = failure(() => constructEvent(BODY, h, SECRET, { now: NOW * 1000 }));
    expect(err.code).toBe('timestamp_outside_tolerance');
    // At exactly the tolerance it passes.
    const edge = NOW - 300;
    expect(constructEvent(BODY, header(edge, contractSignature(SECRET, edge, BODY)), SECRET, { now: NOW * 1000 }).id).toBe('evt_1');
    expect(constructEvent(BODY, h, SECRET, { now: NOW * 1000, tolerance: 600 }).id).toBe('evt_1');
    const ahead = NOW + 400;
    expect(failure(() => constructEvent(BODY, header(ahead, contractSignature(SECRET, ahead, BODY)), SECRET, { now: NOW * 1000 })).code).toBe(
      'timestamp_outside_tolerance',
    );
  });

  it('checks the timestamp against the real clock by default', () => {
    const t = Math.floor(Date.now() / 1000);
    expect(constructEvent(BODY, header(t, contractSignature(SECRET, t, BODY)), SECRET).id).toBe('evt_1');
    const stale = t - 3600;
    expect(failure(() => constructEvent(BODY, header(stale, contractSignature(SECRET, stale, BODY)), SECRET)).code).toBe('timestamp_outside_tolerance');
  });

  it('fails when the header is missing or empty', () => {
    expect(failure(() => constructEvent(BODY, undefined, SECRET)).code).toBe('signature_header_missing');
    expect(failure(() => constructEvent(BODY, null, SECRET)).code).toBe('signature_header_missing');
    expect(failure(() => constructEvent(BODY, '  ', SECRET)).code).toBe('signature_header_missing');
  });

  it('fails when the header is malformed: no timestamp, no v1, or a v1 that is not a SHA-256 hex', () => {
    const sig = contractSignature(SECRET, NOW, BODY);
    for (const h of [`v1=${sig}`, `t=${NOW}`, `t=${NOW},v1=${sig.slice(2)}`, `t=abc,v1=${sig}`, 'garbage']) {
      expect(failure(() => constructEvent(BODY, h, SECRET, { now: NOW * 1000 })).code).toBe('signature_header_invalid');
    }
  });

  it('refuses a parsed body with a clear message rather than a false mismatch', () => {
    const h = header(NOW, contractSignature(SECRET, NOW, BODY));
    expect(() => constructEvent(EVENT as unknown as string, h, SECRET, { now: NOW * 1000 })).toThrow(TypeError);
    expect(() => constructEvent(BODY, h, '', { now: NOW * 1000 })).toThrow(TypeError);
  });

  it('generateTestHeader makes headers that constructEvent accepts, so merchants can test their handlers', () => {
    const h = generateTestHeader({ payload: BODY, secret: SECRET, timestamp: NOW });
    expect(h).toBe(header(NOW, contractSignature(SECRET, NOW, BODY)));
    expect(constructEvent(BODY, h, SECRET, { now: NOW * 1000 }).id).toBe('evt_1');
  });

  it('generateTestHeaders makes both families of headers: constructEvent and the Standard Webhooks library accept them', () => {
    const headers = generateTestHeaders({ payload: BODY, secret: SECRET, timestamp: NOW });
    expect(headers).toEqual({
      'pay-signature': generateTestHeader({ payload: BODY, secret: SECRET, timestamp: NOW }),
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(NOW),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(constructEvent(BODY, headers['pay-signature'], SECRET, { now: NOW * 1000 }).id).toBe('evt_1');
    // The reference implementation checks the timestamp against the clock: sign for now.
    const fresh = generateTestHeaders({ payload: Buffer.from(BODY), secret: SECRET, id: 'msg_1' });
    expect(fresh['webhook-id']).toBe('msg_1');
    expect(new Webhook(SECRET).verify(BODY, { ...fresh })).toEqual(EVENT);
    expect(() => new Webhook(OTHER_SECRET).verify(BODY, { ...fresh })).toThrow();
    expect(() => generateTestHeaders({ payload: '[]', secret: SECRET })).toThrow(/needs an id/);
  });
});
