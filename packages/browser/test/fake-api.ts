import { vi } from 'vitest';

export const API_KEY = 'pk_test_abcdefghijklmnopqrstuvwx';
export const BASE = 'http://localhost:8080';
/** An open intent as the session-token read answers it. */
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
};

export interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
}
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'network-error';

/** A fetch that answers by route from a table (each entry used in turn), recording requests. */
export function fakeApi(routes: Record<string, Answer[]>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({
      url,
      method,
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      credentials: init?.credentials,
    });
    const key = `${method} ${new URL(url).pathname}`;
    const answer = routes[key]?.shift();
    if (answer === undefined) throw new Error(`unexpected ${key}`);
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    // A 204 has no body at all.
    return new Response(answer.status === 204 ? null : JSON.stringify(answer.body ?? {}), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}
