import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectorKind, newReference, type PaymentRequest, type StatusResult } from '../src/modules/connectors/index.ts';
import { HOUR, MINUTE, SECOND } from '../src/platform/clock.ts';
import { CREDENTIALS, startWorld, type World } from './connectors.support.ts';

/**
 * The `mtn_momo` connector against the MoMo sandbox, both real HTTP on 127.0.0.1: outcomes by
 * number, tokens, idempotent references, callbacks, faults and credentials. Time moves on a
 * ManualClock; the only real waits are HTTP round trips and one 150 ms timeout.
 */

const worlds: World[] = [];
async function world(opts?: Parameters<typeof startWorld>[0]): Promise<World> {
  const w = await startWorld(opts);
  worlds.push(w);
  return w;
}
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

function payment(change: Partial<PaymentRequest> = {}): PaymentRequest {
  return { reference: newReference(), amount: 5000n, currency: 'XAF', phoneNumber: '+237670000001', externalId: 'top_test', ...change };
}

function send(w: World, kind: ConnectorKind, req: PaymentRequest) {
  return kind === 'collection' ? w.connector.collect(req) : w.connector.disburse(req);
}

describe('mtn_momo: collect, disburse and status', () => {
  it('collects: 202, PENDING, and SUCCESSFUL once the payer approves a second later', async () => {
    const w = await world();
    const req = payment({ externalId: 'top_01' });
    expect(await w.connector.collect(req)).toEqual({ status: 'PENDING', duplicate: false });
    const [stored] = w.sandbox.requests();
    expect(stored).toMatchObject({
      referenceId: req.reference,
      kind: 'collection',
      partyId: '237670000001',
      amount: '5000',
      currency: 'XAF',
      externalId: 'top_01',
    });

    expect(await w.connector.status('collection', req.reference)).toEqual({ status: 'PENDING', amount: 5000n, currency: 'XAF', externalId: 'top_01' });
    w.clock.advance(SECOND - 1);
    expect((await w.connector.status('collection', req.reference)).status).toBe('PENDING');
    w.clock.advance(1);
    const done = await w.connector.status('collection', req.reference);
    expect(done).toEqual({
      status: 'SUCCESSFUL',
      amount: 5000n,
      currency: 'XAF',
      externalId: 'top_01',
      providerTransactionId: expect.stringMatching(/^\d{10}$/),
    });
  });

  it('sends amounts as decimal strings and reads them back as minor units', async () => {
    const w = await world();
    const req = payment({ amount: 1250n, currency: 'EUR' });
    await w.connector.disburse(req);
    expect(w.sandbox.requests()[0]).toMatchObject({ kind: 'disbursement', amount: '12.50', currency: 'EUR' });
    expect(await w.connector.status('disbursement', req.reference)).toMatchObject({ status: 'PENDING', amount: 1250n, currency: 'EUR' });
  });

  // [number, [time moved before the look, expected]…]: the sandbox's test numbers (docs/spec/providers.md).
  const OUTCOMES: [string, [number, Partial<StatusResult>][]][] = [
    ['237650000103', [[0, { status: 'FAILED', reason: expect.stringMatching(/^PAYE[RE]_NOT_FOUND$/) as string }]]],
    ['+221770000104', [[0, { status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' }]]],
    [
      '225070000106',
      [
        [5 * MINUTE - 1, { status: 'PENDING' }],
        [1, { status: 'FAILED', reason: 'EXPIRED' }],
      ],
    ],
    [
      '237650000105',
      [
        [0, { status: 'PENDING' }],
        [SECOND, { status: 'FAILED', reason: 'APPROVAL_REJECTED' }],
      ],
    ],
    [
      '237650000102',
      [
        [0, { status: 'PENDING' }],
        [HOUR, { status: 'PENDING' }],
        [24 * HOUR, { status: 'PENDING' }],
      ],
    ],
    [
      '237650000101',
      [
        [0, { status: 'PENDING' }],
        [10 * SECOND - 1, { status: 'PENDING' }],
        [1, { status: 'SUCCESSFUL' }],
      ],
    ],
    [
      '237699000000',
      [
        [0, { status: 'PENDING' }],
        [SECOND, { status: 'SUCCESSFUL' }],
      ],
    ],
  ];

  describe.each(['collection', 'disbursement'] as const)('%s: the number decides the outcome', (kind) => {
    it.each(OUTCOMES)('%s', async (number, steps) => {
      const w = await world();
      const req = payment({ phoneNumber: number });
      expect(await send(w, kind, req)).toEqual({ status: 'PENDING', duplicate: false });
      for (const [move, expected] of steps) {
        w.clock.advance(move);
        const result = await w.connector.status(kind, req.reference);
        expect(result).toMatchObject({ ...expected, amount: 5000n, currency: 'XAF' });
        if (result.status !== 'FAILED') expect(result).not.toHaveProperty('reason');
        if (result.status === 'SUCCESSFUL') expect(result.providerTransactionId).toMatch(/^\d+$/);
      }
    });
  });

  it('106 expires after the approval window: 5 s with fast', async () => {
    const w = await world({ sandbox: { fast: true } });
    const req = payment({ phoneNumber: '+237650000106' });
    await w.connector.collect(req);
    w.clock.advance(5 * SECOND - 1);
    expect((await w.connector.status('collection', req.reference)).status).toBe('PENDING');
    w.clock.advance(1);
    expect(await w.connector.status('collection', req.reference)).toMatchObject({ status: 'FAILED', reason: 'EXPIRED' });
  });

  it('107 answers 500 and 108 hangs on the request; both are then SUCCESSFUL on a status read', async () => {
    const w = await world({ settings: { timeoutMs: 150 } });
    const five = payment({ phoneNumber: '+237650000107' });
    expect(await w.connector.collect(five)).toEqual({ status: 'UNKNOWN', reason: 'HTTP 500 INTERNAL_PROCESSING_ERROR' });
    const hang = payment({ phoneNumber: '+225070000108' });
    expect((await w.connector.collect(hang)).status).toBe('UNKNOWN');
    for (const req of [five, hang]) expect((await w.connector.status('collection', req.reference)).status).toBe('SUCCESSFUL');
    await w.sandbox.tick();
    expect(w.receiver.received).toHaveLength(0);
  });

  it('109 sends the callback twice, the second after the status read', async () => {
    const w = await world();
    const req = payment({ phoneNumber: '+237650000109' });
    await w.connector.collect(req);
    w.clock.advance(SECOND);
    await w.sandbox.tick();
    expect(w.receiver.received).toHaveLength(1);
    expect((await w.connector.status('collection', req.reference)).status).toBe('SUCCESSFUL');
    await w.sandbox.tick();
    expect(w.receiver.received).toHaveLength(2);
    await w.connector.status('collection', req.reference);
    await w.sandbox.tick();
    expect(w.receiver.received).toHaveLength(2);
  });

  it('the sandbox refuses what MTN refuses: amount 0, a currency of another environment, bad messages', async () => {
    const w = await world();
    const headers = async () => {
      const token = await fetch(`${w.sandbox.url}/collection/token/`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${CREDENTIALS.apiUser}:${CREDENTIALS.apiKey}`).toString('base64')}`,
          'ocp-apim-subscription-key': CREDENTIALS.collectionKey,
        },
      });
      const { access_token } = (await token.json()) as { access_token: string };
      return {
        authorization: `Bearer ${access_token}`,
        'ocp-apim-subscription-key': CREDENTIALS.collectionKey,
        'x-target-environment': 'sandbox',
        'content-type': 'application/json',
      };
    };
    const h = await headers();
    const ask = async (change: Record<string, unknown>) => {
      const body = {
        amount: '5000',
        currency: 'XAF',
        externalId: 'x',
        payer: { partyIdType: 'MSISDN', partyId: '237670000001' },
        payerMessage: 'Pay',
        payeeNote: 'Note',
        ...change,
      };
      const res = await fetch(`${w.sandbox.url}/collection/v1_0/requesttopay`, {
        method: 'POST',
        headers: { ...h, 'x-reference-id': newReference() },
        body: JSON.stringify(body),
      });
      return [res.status, ((await res.json()) as { code: string }).code];
    };
    expect(await ask({ amount: '0' })).toEqual([400, 'INVALID_AMOUNT']);
    expect(await ask({ currency: 'GNF' })).toEqual([400, 'INVALID_CURRENCY']);
    for (const payerMessage of ['', 'x'.repeat(161), 'Tom & Jerry', "l'achat", '<b>']) expect(await ask({ payerMessage })).toEqual([400, 'INVALID_REQUEST']);
    expect(w.sandbox.requests()).toHaveLength(0);
    // The connector makes any message one MTN takes.
    expect(await w.connector.collect(payment({ payerMessage: "Commande d'<Awa> & co", payeeNote: '   ' }))).toMatchObject({ status: 'PENDING' });
    expect(w.sandbox.requests()).toHaveLength(1);
  });

  it('a reference sent twice is one request: the second answer is 409, read as accepted', async () => {
    const w = await world();
    const req = payment();
    expect(await w.connector.collect(req)).toEqual({ status: 'PENDING', duplicate: false });
    expect(await w.connector.collect(req)).toEqual({ status: 'PENDING', duplicate: true });
    expect(await w.connector.collect({ ...req, amount: 9999n })).toEqual({ status: 'PENDING', duplicate: true });
    expect(w.sandbox.requests()).toHaveLength(1);
    expect(w.sandbox.requests()[0]?.amount).toBe('5000');
  });

  it('a reference the provider never saw is NOT_FOUND (not FAILED), and can then be sent', async () => {
    const w = await world();
    const req = payment();
    expect(await w.connector.status('collection', req.reference)).toEqual({ status: 'NOT_FOUND' });
    expect(await w.connector.collect(req)).toEqual({ status: 'PENDING', duplicate: false });
    expect((await w.connector.status('collection', req.reference)).status).toBe('PENDING');
    // A collection is not a transfer: the product is part of the lookup.
    expect(await w.connector.status('disbursement', req.reference)).toEqual({ status: 'NOT_FOUND' });
  });

  it('refuses requests it cannot send, before anything leaves', async () => {
    const w = await world();
    expect(await w.connector.collect(payment({ reference: 'order-42' }))).toEqual({ status: 'FAILED', reason: 'INVALID_REFERENCE' });
    expect(await w.connector.collect(payment({ phoneNumber: '+237 6 70' }))).toEqual({ status: 'FAILED', reason: 'INVALID_PHONE_NUMBER' });
    expect(await w.connector.collect(payment({ amount: 0n }))).toEqual({ status: 'FAILED', reason: 'INVALID_AMOUNT' });
    expect(await w.connector.disburse(payment({ amount: -5n }))).toEqual({ status: 'FAILED', reason: 'INVALID_AMOUNT' });
    expect(await w.connector.collect(payment({ externalId: '' }))).toEqual({ status: 'FAILED', reason: 'INVALID_EXTERNAL_ID' });
    expect(await w.connector.status('collection', '../../token')).toEqual({ status: 'UNKNOWN', reason: 'the reference is not a UUID v4' });
    expect(w.sandbox.stats()).toEqual({ tokensIssued: { collection: 0, disbursement: 0 }, requests: 0 });
  });
});

describe('mtn_momo: access tokens', () => {
  it('one token per product, reused while valid, shared by concurrent calls', async () => {
    const w = await world();
    await Promise.all([1, 2, 3, 4, 5].map(() => w.connector.collect(payment())));
    await w.connector.status('collection', newReference());
    expect(w.sandbox.stats().tokensIssued).toEqual({ collection: 1, disbursement: 0 });
    await w.connector.disburse(payment());
    await w.connector.disburse(payment());
    expect(w.sandbox.stats().tokensIssued).toEqual({ collection: 1, disbursement: 1 });
  });

  it('renews a token a minute before it expires, so no call carries a dying token', async () => {
    const w = await world();
    await w.connector.collect(payment());
    // The sandbox's tokens live 3600 s, as MTN's.
    w.clock.advance(3600 * SECOND - 61 * SECOND);
    await w.connector.collect(payment());
    expect(w.sandbox.stats().tokensIssued.collection).toBe(1);
    w.clock.advance(2 * SECOND);
    expect(await w.connector.collect(payment())).toMatchObject({ status: 'PENDING' });
    expect(w.sandbox.stats().tokensIssued.collection).toBe(2);
    // The renewed token is good for its own hour.
    w.clock.advance(3500 * SECOND);
    expect(await w.connector.collect(payment())).toMatchObject({ status: 'PENDING' });
    expect(w.sandbox.stats().tokensIssued.collection).toBe(2);
  });

  it('a short-lived token is renewed a tenth of its life early', async () => {
    const w = await world({ sandbox: { tokenTtlSeconds: 100 } });
    await w.connector.collect(payment());
    w.clock.advance(89 * SECOND);
    await w.connector.collect(payment());
    expect(w.sandbox.stats().tokensIssued.collection).toBe(1);
    w.clock.advance(2 * SECOND);
    await w.connector.collect(payment());
    expect(w.sandbox.stats().tokensIssued.collection).toBe(2);
  });

  it('a token revoked early (API key regenerated) is replaced once, and the call goes through', async () => {
    const w = await world();
    await w.connector.collect(payment());
    expect(w.sandbox.revokeTokens()).toBe(1);
    const req = payment();
    expect(await w.connector.collect(req)).toEqual({ status: 'PENDING', duplicate: false });
    expect(w.sandbox.stats().tokensIssued.collection).toBe(2);
    w.sandbox.revokeTokens();
    expect((await w.connector.status('collection', req.reference)).status).toBe('PENDING');
  });
});

describe('mtn_momo: callbacks', () => {
  it('the final state comes as a callback (PUT for a collection) that verifies against status', async () => {
    const w = await world();
    const req = payment({ externalId: 'top_cb' });
    await w.connector.collect(req);
    expect(w.sandbox.requests()[0]?.callbackUrl).toMatch(
      new RegExp(`^${w.receiver.url}/connectors/mtn_momo/callbacks/collection/${req.reference}/[\\w-]{43}$`),
    );
    await w.sandbox.tick();
    expect(w.receiver.received).toHaveLength(0);

    w.clock.advance(SECOND);
    await w.sandbox.tick();
    expect(w.receiver.received).toHaveLength(1);
    const [cb] = w.receiver.received;
    expect(cb?.method).toBe('PUT');
    expect(JSON.parse(cb?.body ?? '')).toMatchObject({ status: 'SUCCESSFUL', amount: '5000', currency: 'XAF', externalId: 'top_cb' });
    const verified = await w.connector.verifyCallback({ url: cb?.url ?? '', body: cb?.body });
    expect(verified).toEqual({
      ok: true,
      kind: 'collection',
      reference: req.reference,
      claimed: 'SUCCESSFUL',
      result: { status: 'SUCCESSFUL', amount: 5000n, currency: 'XAF', externalId: 'top_cb', providerTransactionId: expect.any(String) },
    });
    expect(w.sandbox.requests()[0]?.callbacks).toEqual([{ at: expect.any(String), method: 'PUT', httpStatus: 200 }]);
  });

  it('a transfer callback is a POST; a failing number calls back at once', async () => {
    const w = await world();
    const req = payment({ phoneNumber: '237650000103' });
    await w.connector.disburse(req);
    await w.sandbox.tick();
    const [cb] = w.receiver.received;
    expect(cb?.method).toBe('POST');
    const verified = await w.connector.verifyCallback({ url: cb?.url ?? '', body: Buffer.from(cb?.body ?? '') });
    expect(verified).toMatchObject({ ok: true, kind: 'disbursement', claimed: 'FAILED', result: { status: 'FAILED', reason: 'PAYEE_NOT_FOUND' } });
  });

  it('duplicated callbacks each verify to the same final state', async () => {
    const w = await world({ sandbox: { faults: { duplicateCallbacks: true } } });
    const req = payment();
    await w.connector.collect(req);
    w.clock.advance(SECOND);
    await w.sandbox.tick();
    expect(w.receiver.received).toHaveLength(2);
    const results = await Promise.all(w.receiver.received.map((cb) => w.connector.verifyCallback({ url: cb.url, body: JSON.parse(cb.body) })));
    expect(results[0]).toMatchObject({ ok: true, result: { status: 'SUCCESSFUL' } });
    expect(results[1]).toEqual(results[0]);
  });

  it('a dropped callback leaves status as the way to learn the outcome', async () => {
    const w = await world();
    w.sandbox.setFaults({ dropCallbacks: true });
    const req = payment();
    await w.connector.collect(req);
    w.clock.advance(SECOND);
    await w.sandbox.tick();
    expect(w.receiver.received).toHaveLength(0);
    expect(w.sandbox.requests()[0]).toMatchObject({ status: 'SUCCESSFUL', callbacks: [] });
    expect((await w.connector.status('collection', req.reference)).status).toBe('SUCCESSFUL');
  });

  it('no callback URL configured: none is asked for', async () => {
    const w = await world({ settings: { callbackUrl: undefined } });
    await w.connector.collect(payment());
    w.clock.advance(SECOND);
    await w.sandbox.tick();
    expect(w.sandbox.requests()[0]).not.toHaveProperty('callbackUrl');
    expect(w.receiver.received).toHaveLength(0);
  });

  it('forged callbacks change nothing: wrong token, another reference, another product, unreadable URL', async () => {
    const w = await world();
    const a = payment({ phoneNumber: '237650000105' });
    const b = payment();
    await w.connector.collect(a);
    await w.connector.collect(b);
    const [urlA, urlB] = w.sandbox.requests().map((r) => new URL(r.callbackUrl ?? '').pathname);
    const tokenA = urlA?.split('/').at(-1) ?? '';
    const tokenB = urlB?.split('/').at(-1) ?? '';
    const body = { status: 'SUCCESSFUL', amount: '5000', currency: 'XAF' };
    const flipped = `${tokenA.slice(0, -1)}${tokenA.endsWith('A') ? 'B' : 'A'}`;
    const forged = [
      `/connectors/mtn_momo/callbacks/collection/${a.reference}/${flipped}`,
      `/connectors/mtn_momo/callbacks/collection/${a.reference}/${tokenB}`,
      `/connectors/mtn_momo/callbacks/disbursement/${a.reference}/${tokenA}`,
      `/connectors/mtn_momo/callbacks/collection/${a.reference}`,
      `/connectors/mtn_momo/callbacks/collection/not-a-uuid/${tokenA}`,
      '/',
    ];
    for (const url of forged) {
      expect(await w.connector.verifyCallback({ url, body }), url).toEqual({ ok: false, reason: expect.any(String) });
    }
    expect(w.logs.filter((l) => l.includes('mobile-money callback refused'))).toHaveLength(forged.length);
  });

  it('a genuine URL with a lying body: the provider status decides', async () => {
    const w = await world();
    const req = payment({ phoneNumber: '237650000105' });
    await w.connector.collect(req);
    const url = w.sandbox.requests()[0]?.callbackUrl ?? '';
    const lie = await w.connector.verifyCallback({ url, body: { status: 'SUCCESSFUL', amount: '5000', currency: 'XAF' } });
    expect(lie).toMatchObject({ ok: true, claimed: 'SUCCESSFUL', result: { status: 'PENDING' } });
    w.clock.advance(SECOND);
    const later = await w.connector.verifyCallback({ url, body: '{"status": "SUCCESSFUL"' });
    expect(later).toMatchObject({ ok: true, claimed: undefined, result: { status: 'FAILED', reason: 'APPROVAL_REJECTED' } });
    expect(w.logs.some((l) => l.includes('callback and status differ'))).toBe(true);
  });
});

describe('mtn_momo: a provider misbehaving is a typed result, never an exception or a success', () => {
  it('500 on submit: UNKNOWN; status then says NOT_FOUND and the same reference can be sent again', async () => {
    const w = await world();
    await w.connector.status('collection', newReference()); // a token first: the fault hits the POST
    w.sandbox.setFaults({ answer500: true });
    const req = payment();
    expect(await w.connector.collect(req)).toEqual({ status: 'UNKNOWN', reason: 'HTTP 500 INTERNAL_PROCESSING_ERROR' });
    expect(await w.connector.status('collection', req.reference)).toEqual({ status: 'UNKNOWN', reason: 'HTTP 500 INTERNAL_PROCESSING_ERROR' });
    w.sandbox.setFaults({ answer500: false });
    expect(await w.connector.status('collection', req.reference)).toEqual({ status: 'NOT_FOUND' });
    expect(await w.connector.collect(req)).toEqual({ status: 'PENDING', duplicate: false });
  });

  it("lists requests only against Caisse's sandbox (MTN cannot): by product and period, or why not", async () => {
    const w = await world();
    expect(w.connector.listRequests).toBeUndefined();
    const listing = w.connectorWith({ sandboxListing: true });
    const start = w.clock.now();
    const collected = payment({ amount: 700n });
    const paidOut = payment({ externalId: 'po_1' });
    await listing.collect(collected);
    await listing.disburse(paidOut);
    w.clock.advance(HOUR);
    await listing.collect(payment());
    const end = new Date(start.getTime() + HOUR);
    expect(await listing.listRequests?.('collection', start, end)).toEqual({
      ok: true,
      requests: [
        { kind: 'collection', reference: collected.reference, status: 'SUCCESSFUL', amount: '700', currency: 'XAF', createdAt: start, externalId: 'top_test' },
      ],
    });
    expect(await listing.listRequests?.('disbursement', start, end)).toMatchObject({
      ok: true,
      requests: [{ reference: paidOut.reference, externalId: 'po_1' }],
    });
    // Not the MoMo API: its faults do not reach the control API; a base URL that is not our sandbox does.
    w.sandbox.setFaults({ answer500: true });
    expect((await listing.listRequests?.('collection', start, end))?.ok).toBe(true);
    const elsewhere = w.connectorWith({ sandboxListing: true, baseUrl: `${w.sandbox.url}/not-the-sandbox` });
    expect(await elsewhere.listRequests?.('collection', start, end)).toEqual({ ok: false, reason: 'HTTP 404' });
  });

  it('500 on the token endpoint: UNKNOWN for submit and status', async () => {
    const w = await world({ sandbox: { faults: { answer500: true } } });
    expect(await w.connector.disburse(payment())).toEqual({ status: 'UNKNOWN', reason: 'token: HTTP 500 INTERNAL_PROCESSING_ERROR' });
    expect((await w.connector.status('disbursement', newReference())).status).toBe('UNKNOWN');
  });

  it('a provider that hangs is cut off at the configured timeout', async () => {
    const w = await world({ settings: { timeoutMs: 150 } });
    const req = payment();
    await w.connector.collect(req);
    w.sandbox.setFaults({ hang: true });
    expect(await w.connector.status('collection', req.reference)).toEqual({ status: 'UNKNOWN', reason: 'no answer within 150 ms' });
    expect(await w.connector.collect(payment())).toEqual({ status: 'UNKNOWN', reason: 'no answer within 150 ms' });
    // The pool is still usable once the provider answers again.
    w.sandbox.setFaults({ hang: false });
    expect((await w.connector.status('collection', req.reference)).status).toBe('PENDING');
  });

  it('a status answer that is not JSON, or JSON of the wrong shape (even one saying SUCCESSFUL)', async () => {
    const w = await world();
    const req = payment();
    await w.connector.collect(req);
    w.sandbox.setFaults({ badJson: true });
    expect(await w.connector.status('collection', req.reference)).toEqual({ status: 'UNKNOWN', reason: 'the answer is not JSON' });
    w.sandbox.setFaults({ badJson: false, badSchema: true });
    expect(await w.connector.status('collection', req.reference)).toEqual({
      status: 'UNKNOWN',
      reason: expect.stringMatching(/^the answer does not match the schema \(\/amount /),
    });
  });

  it('a token answer that is not JSON, or lacks the token', async () => {
    const w = await world({ sandbox: { faults: { badJson: true } } });
    expect(await w.connector.collect(payment())).toEqual({ status: 'UNKNOWN', reason: 'token: the answer is not JSON' });
    w.sandbox.setFaults({ badJson: false, badSchema: true });
    expect(await w.connector.collect(payment())).toEqual({ status: 'UNKNOWN', reason: expect.stringMatching(/^token: the answer does not match the schema/) });
    expect(w.sandbox.stats().requests).toBe(0);
  });

  it('amounts the provider answers that we cannot read exactly are UNKNOWN; readable disagreements are reported', async () => {
    const w = await world();
    const req = payment({ amount: 1250n, currency: 'EUR' });
    await w.connector.collect(req);
    w.clock.advance(SECOND);
    w.sandbox.override(req.reference, { amount: '12.345' });
    expect(await w.connector.status('collection', req.reference)).toEqual({ status: 'UNKNOWN', reason: "the answer's amount 12.345 is not a EUR amount" });
    w.sandbox.override(req.reference, { amount: '12.500' });
    expect(await w.connector.status('collection', req.reference)).toMatchObject({ status: 'SUCCESSFUL', amount: 1250n });
    w.sandbox.override(req.reference, { amount: '10', status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' });
    expect(await w.connector.status('collection', req.reference)).toEqual({
      status: 'FAILED',
      reason: 'NOT_ENOUGH_FUNDS',
      amount: 1000n,
      currency: 'EUR',
      externalId: 'top_test',
    });
  });

  it('nobody listening: UNKNOWN, connection refused', async () => {
    const w = await world();
    const port = w.sandbox.port;
    await w.sandbox.close();
    const c = w.connectorWith({ baseUrl: `http://127.0.0.1:${port}` });
    expect(await c.collect(payment())).toEqual({ status: 'UNKNOWN', reason: 'token: connection refused' });
  });
});

describe('mtn_momo: credentials', () => {
  it('a wrong API key: FAILED for a submit (nothing was created), UNKNOWN for a status', async () => {
    const w = await world();
    const c = w.connectorWith({ apiKey: 'wrong0key' });
    expect(await c.collect(payment())).toEqual({ status: 'FAILED', reason: 'CREDENTIALS_REFUSED' });
    expect(await c.status('collection', newReference())).toEqual({ status: 'UNKNOWN', reason: 'token: credentials refused (HTTP 401)' });
    expect(w.sandbox.stats()).toEqual({ tokensIssued: { collection: 0, disbursement: 0 }, requests: 0 });
  });

  it('a wrong subscription key refuses that product only', async () => {
    const w = await world();
    const c = w.connectorWith({ collectionKey: 'wrong0subscription' });
    expect(await c.collect(payment())).toEqual({ status: 'FAILED', reason: 'CREDENTIALS_REFUSED' });
    expect(await c.disburse(payment())).toEqual({ status: 'PENDING', duplicate: false });
  });

  it('a wrong API user, or a target environment MTN does not allow', async () => {
    const w = await world();
    expect(await w.connectorWith({ apiUser: '11111111-1111-4111-8111-111111111111' }).collect(payment())).toEqual({
      status: 'FAILED',
      reason: 'CREDENTIALS_REFUSED',
    });
    expect(await w.connectorWith({ targetEnvironment: 'mtncameroon' }).collect(payment())).toEqual({
      status: 'FAILED',
      reason: 'NOT_ALLOWED_TARGET_ENVIRONMENT',
    });
  });

  it('logs every reason and never a credential or a token', async () => {
    const w = await world({ settings: { timeoutMs: 150 } });
    const req = payment();
    await w.connector.collect(req);
    await w.connectorWith({ apiKey: 'wrong0key' }).collect(payment());
    w.sandbox.setFaults({ answer500: true });
    await w.connector.status('collection', req.reference);
    w.sandbox.setFaults({ answer500: false, badSchema: true });
    await w.connector.status('collection', req.reference);
    const text = w.logs.join('');
    for (const reason of ['CREDENTIALS_REFUSED', 'HTTP 500 INTERNAL_PROCESSING_ERROR', 'does not match the schema']) expect(text).toContain(reason);
    for (const secret of [CREDENTIALS.apiKey, CREDENTIALS.collectionKey, CREDENTIALS.disbursementKey, 'wrong0key', 'Basic ', 'Bearer ']) {
      expect(text).not.toContain(secret);
    }
  });
});
