import { describe, expect, it } from 'vitest';
import { CaisseClient, CaisseError, type PayerIntent, type Timers } from '../src/index.ts';
import { API_KEY, type Answer, BASE, fakeApi, INTENT as OPEN } from './fake-api.ts';

const INTENT = { ...OPEN, attempts: [] };

const NEXT_ACTION = {
  type: 'approve_on_phone',
  provider: 'mtn_momo',
  phoneNumber: '+237670000000',
  expiresAt: '2026-11-01T10:05:00.000Z',
  message: 'Approuvez le paiement sur votre téléphone',
  ussd: '*126#',
};
const attempt = (status: string, failureCode?: string) => ({
  id: 'att_1',
  provider: 'mtn_momo',
  status,
  ...(failureCode ? { failureCode } : {}),
  createdAt: '2026-11-01T10:00:00.000Z',
});
const processing = { ...INTENT, status: 'PROCESSING', attempts: [attempt('PENDING')], nextAction: NEXT_ACTION };

/** Timers that run nothing by themselves: the test says when the next delay is over, and sees each delay asked for. */
function manualTimers() {
  const pending: { run: () => void; ms: number }[] = [];
  const timers: Timers = {
    setTimeout: (run, ms) => {
      const entry = { run, ms };
      pending.push(entry);
      return entry;
    },
    clearTimeout: (handle) => {
      const i = pending.indexOf(handle as (typeof pending)[number]);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  const delays: number[] = [];
  /** Lets the client read once more, then ends the delay it asked for. */
  const tick = async () => {
    for (let i = 0; i < 20 && pending.length === 0; i++) await Promise.resolve();
    const next = pending.shift();
    if (!next) return false;
    delays.push(next.ms);
    next.run();
    return true;
  };
  return { timers, delays, tick, pending };
}

const client = (routes: Record<string, Answer[]>) => {
  const api = fakeApi(routes);
  return { ...api, client: new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch: api.fetch, maxRetries: 0 }) };
};

describe('direct mobile-money payments', () => {
  it('getPaymentMethods reads the methods of the session token with the API key only', async () => {
    const methods = [
      { type: 'mobile_money', provider: 'mtn_momo', name: 'MTN MoMo', approval: 'phone_prompt', available: true, prefixes: ['67'], ussd: '*126#' },
      { type: 'wallet' },
    ];
    const { client: caisse, calls } = client({ 'GET /payment-methods': [{ status: 200, body: { data: methods } }] });
    expect(await caisse.getPaymentMethods('ps_token')).toEqual(methods);
    expect(calls[0]?.url).toBe(`${BASE}/payment-methods?sessionToken=ps_token`);
    expect(calls[0]?.headers['x-api-key']).toBe(API_KEY);
    expect(calls[0]?.headers.authorization).toBeUndefined();
  });

  it('payWithMobileMoney posts the method with the session token and answers the 202 with nextAction', async () => {
    const { client: caisse, calls } = client({ 'POST /charge': [{ status: 202, body: processing }] });
    const intent = await caisse.payWithMobileMoney({
      sessionToken: 'ps_token',
      intentionId: 'pi_1',
      provider: 'mtn_momo',
      phoneNumber: '+237670000000',
      idempotencyKey: 'key-1',
    });
    expect(intent.status).toBe('PROCESSING');
    expect(intent.nextAction).toEqual(NEXT_ACTION);
    const call = calls[0];
    expect(call?.body).toEqual({ intentionId: 'pi_1', paymentMethod: { type: 'mobile_money', provider: 'mtn_momo', phoneNumber: '+237670000000' } });
    expect(call?.headers['x-session-token']).toBe('ps_token');
    expect(call?.headers['idempotency-key']).toBe('key-1');
    // No user token and no OTP token: the operator's PIN is the authentication.
    expect(call?.headers.authorization).toBeUndefined();
    expect(call?.headers['x-otp-token']).toBeUndefined();
  });

  it('payWithMobileMoney reports a refused number as a CaisseError with its code and param', async () => {
    const { client: caisse } = client({
      'POST /charge': [{ status: 400, body: { code: 'provider_unsupported', status: 400, detail: 'Unknown provider', param: 'paymentMethod.provider' } }],
    });
    const err = (await caisse
      .payWithMobileMoney({ sessionToken: 'ps_token', intentionId: 'pi_1', provider: 'nope', phoneNumber: '+237670000000' })
      .catch((e: unknown) => e)) as CaisseError;
    expect(err).toBeInstanceOf(CaisseError);
    expect(err.code).toBe('provider_unsupported');
    expect(err.param).toBe('paymentMethod.provider');
  });

  it('waitForPayment reads the intent with a growing delay until it is no longer PROCESSING, reporting each read', async () => {
    const paid = { ...INTENT, status: 'SUCCEEDED', attempts: [attempt('SUCCEEDED')] };
    const { client: caisse, calls } = client({
      'GET /gateway/sessions/ps_token': [
        { status: 200, body: processing },
        { status: 200, body: processing },
        { status: 503, body: { code: 'unavailable' } },
        'network-error',
        { status: 200, body: paid },
      ],
    });
    const { timers, delays, tick } = manualTimers();
    const seen: string[] = [];
    const done = caisse.waitForPayment('ps_token', { timers, onUpdate: (i) => seen.push(i.status) });
    while (await tick());
    const intent = await done;
    expect(intent.status).toBe('SUCCEEDED');
    expect(seen).toEqual(['PROCESSING', 'PROCESSING', 'SUCCEEDED']);
    expect(calls).toHaveLength(5);
    // A lost answer or a 5xx is read again later, not an error; the delay grows to its cap.
    expect(delays).toEqual([1000, 1500, 2250, 3375]);
  });

  it('waitForPayment answers a failed attempt (the intent PENDING again) so the payer can retry', async () => {
    const failed = { ...INTENT, attempts: [attempt('FAILED', 'approval_rejected')], lastError: { code: 'approval_rejected', message: 'Declined' } };
    const { client: caisse } = client({
      'GET /gateway/sessions/ps_token': [
        { status: 200, body: processing },
        { status: 200, body: failed },
      ],
    });
    const { timers, tick } = manualTimers();
    const done = caisse.waitForPayment('ps_token', { timers, maxIntervalMs: 1000 });
    while (await tick());
    const intent: PayerIntent = await done;
    expect(intent.status).toBe('PENDING');
    expect(intent.attempts).toEqual([attempt('FAILED', 'approval_rejected')]);
  });

  it('waitForPayment long-polls: a held read that comes back unchanged is sent again at once, no delay', async () => {
    const paid = { ...INTENT, status: 'SUCCEEDED', attempts: [attempt('SUCCEEDED')] };
    const held = { 'caisse-wait': 'held' };
    const { client: caisse, calls } = client({
      'GET /gateway/sessions/ps_token': [
        { status: 200, body: processing, headers: held },
        { status: 200, body: processing, headers: held },
        { status: 200, body: paid, headers: held },
      ],
    });
    const { timers, delays, tick } = manualTimers();
    const done = caisse.waitForPayment('ps_token', { timers });
    while (await tick());
    expect((await done).status).toBe('SUCCEEDED');
    expect(delays).toEqual([]);
    expect(calls.map((c) => c.url)).toEqual(Array(3).fill(`${BASE}/gateway/sessions/ps_token?status=PROCESSING&wait=25`));
  });

  it('waitForPayment waits for Retry-After when the server holds no more reads, then long-polls again', async () => {
    const paid = { ...INTENT, status: 'SUCCEEDED', attempts: [attempt('SUCCEEDED')] };
    const { client: caisse, calls } = client({
      'GET /gateway/sessions/ps_token': [
        { status: 200, body: processing, headers: { 'caisse-wait': 'busy', 'retry-after': '3' } },
        { status: 200, body: paid, headers: { 'caisse-wait': 'held' } },
      ],
    });
    const { timers, delays, tick } = manualTimers();
    const done = caisse.waitForPayment('ps_token', { timers });
    while (await tick());
    expect((await done).status).toBe('SUCCEEDED');
    expect(delays).toEqual([3000]);
    expect(calls[1]?.url).toContain('?status=PROCESSING&wait=25');
  });

  it('waitForPayment falls back to plain reads on a server that ignores the wait or refuses its parameters', async () => {
    const paid = { ...INTENT, status: 'SUCCEEDED', attempts: [attempt('SUCCEEDED')] };
    for (const first of [
      { status: 200, body: processing },
      { status: 400, body: { code: 'parameter_unknown', status: 400 } },
    ]) {
      const { client: caisse, calls } = client({
        'GET /gateway/sessions/ps_token': [first, { status: 200, body: processing }, { status: 200, body: paid }],
      });
      const { timers, delays, tick } = manualTimers();
      const done = caisse.waitForPayment('ps_token', { timers });
      while (await tick());
      expect((await done).status).toBe('SUCCEEDED');
      expect(calls.map((c) => c.url.slice(BASE.length))).toEqual([
        '/gateway/sessions/ps_token?status=PROCESSING&wait=25',
        '/gateway/sessions/ps_token',
        '/gateway/sessions/ps_token',
      ]);
      // The 400 is read again at once; an unheld answer after the usual delay.
      expect(delays).toEqual(first.status === 400 ? [1000] : [1000, 1500]);
    }
  });

  it('waitForPayment abandons the held read when its signal aborts', async () => {
    let seen: AbortSignal | undefined;
    const fetch = ((_url: string, init: RequestInit) => {
      seen = init.signal ?? undefined;
      return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    }) as unknown as typeof globalThis.fetch;
    const caisse = new CaisseClient({ apiKey: API_KEY, baseUrl: BASE, fetch, maxRetries: 0 });
    const abort = new AbortController();
    const { timers, pending } = manualTimers();
    const done = caisse.waitForPayment('ps_token', { timers, signal: abort.signal });
    for (let i = 0; i < 20 && seen === undefined; i++) await Promise.resolve();
    expect(seen?.aborted).toBe(false);
    abort.abort(new Error('left the page'));
    await expect(done).rejects.toThrow('left the page');
    expect(seen?.aborted).toBe(true);
    expect(pending).toHaveLength(0);
  });

  it('waitForPayment shares one held read between callers waiting on one intent, until the last one stops', async () => {
    const paid = { ...INTENT, status: 'SUCCEEDED', attempts: [attempt('SUCCEEDED')] };
    const held = { 'caisse-wait': 'held' };
    const { client: caisse, calls } = client({
      'GET /gateway/sessions/ps_token': [
        { status: 200, body: processing, headers: held },
        { status: 200, body: paid, headers: held },
        { status: 200, body: paid, headers: held },
      ],
    });
    const { timers, tick } = manualTimers();
    const first: string[] = [];
    const second: string[] = [];
    const leaving = new AbortController();
    const one = caisse.waitForPayment('ps_token', { timers, onUpdate: (i) => first.push(i.status) });
    const two = caisse.waitForPayment('ps_token', { timers, onUpdate: (i) => second.push(i.status) });
    const three = caisse.waitForPayment('ps_token', { timers, signal: leaving.signal });
    leaving.abort(new Error('left the step'));
    await expect(three).rejects.toThrow('left the step');
    while (await tick());
    expect((await one).status).toBe('SUCCEEDED');
    expect((await two).status).toBe('SUCCEEDED');
    // One caller leaving stops nothing; the two still waiting saw every read of one wait.
    expect(calls).toHaveLength(2);
    expect(first).toEqual(['PROCESSING', 'SUCCEEDED']);
    expect(second).toEqual(['PROCESSING', 'SUCCEEDED']);
    // A wait started after it ended reads again.
    expect((await caisse.waitForPayment('ps_token', { timers })).status).toBe('SUCCEEDED');
    expect(calls).toHaveLength(3);
  });

  it('waitForPayment stops when its signal aborts, and rejects a 4xx at once', async () => {
    const { client: caisse } = client({ 'GET /gateway/sessions/ps_token': [{ status: 200, body: processing }] });
    const { timers, pending } = manualTimers();
    const abort = new AbortController();
    const done = caisse.waitForPayment('ps_token', { timers, signal: abort.signal });
    for (let i = 0; i < 20 && pending.length === 0; i++) await Promise.resolve();
    abort.abort(new Error('left the page'));
    await expect(done).rejects.toThrow('left the page');
    expect(pending).toHaveLength(0);

    const { client: other } = client({ 'GET /gateway/sessions/ps_gone': [{ status: 404, body: { code: 'not_found', status: 404 } }] });
    await expect(other.waitForPayment('ps_gone', { timers })).rejects.toMatchObject({ code: 'not_found' });
  });
});
