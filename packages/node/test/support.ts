import { Caisse, type CaisseOptions } from '../src/index.ts';

export const KEYS = { apiKey: 'pk_test_abcdefghijklmnopqrstuvwx', secretKey: 'sk_test_abcdefghijklmnopqrstuvwx' };
export const BASE = 'http://127.0.0.1:9999';

export interface Recorded {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Step = { status: number; body?: unknown; headers?: Record<string, string> } | { networkError: string };

/** A fetch that answers from a script, step by step, and records every request. */
export function scriptedFetch(steps: Step[]) {
  const calls: Recorded[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    calls.push({
      url,
      method: String(init.method),
      headers: Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v])),
      body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
    });
    const step = steps.shift();
    if (step === undefined) throw new Error('the script has no more answers');
    if ('networkError' in step) throw new TypeError(step.networkError);
    const isProblem = step.status >= 400;
    return new Response(step.body === undefined ? null : JSON.stringify(step.body), {
      status: step.status,
      headers: { 'content-type': isProblem ? 'application/problem+json' : 'application/json', 'request-id': `req_${calls.length}`, ...step.headers },
    });
  };
  return { fetch, calls };
}

/** A client on a scripted fetch whose waits are recorded instead of slept. */
export function scriptedClient(steps: Step[], options: Partial<CaisseOptions> = {}) {
  const { fetch, calls } = scriptedFetch(steps);
  const sleeps: number[] = [];
  const caisse = new Caisse({
    ...KEYS,
    baseUrl: BASE,
    fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { caisse, calls, sleeps };
}

export function problem(status: number, code: string, extra: Record<string, unknown> = {}) {
  return { type: `/errors/${code}`, title: code, status, detail: `detail of ${code}`, code, requestId: 'req_x', ...extra };
}

export const INTENT = {
  id: 'pi_1',
  object: 'payment_intent',
  amount: '5000',
  currency: 'XAF',
  description: 'Order 42',
  status: 'PENDING',
  expiresAt: '2026-11-01T10:30:00.000Z',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  livemode: false,
  amountRefunded: '0',
  lastError: null,
  attempts: 0,
  metadata: { orderId: 'ord_42' },
  sessionToken: 'ps_secret',
};
