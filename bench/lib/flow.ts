/**
 * One payment over HTTP, as a shop and its customer's browser make it (docs/spec/endpoints.md, docs/spec/otp-and-charge.md):
 *
 *   create   POST /gateway              merchant server, API key + secret key
 *   init     POST /otp/init             browser, API key + the user's access token
 *   code     GET  /test/messages        the bench reads the SMS from the test outbox (test mode)
 *   verify   POST /otp/verify           browser
 *   charge   POST /charge               browser, with x-otp-token
 *
 * Every POST carries an Idempotency-Key, as @caisse/node and @caisse/browser send one on every POST.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { HttpAnswer, Requester } from './load.ts';
import type { LabelledSamples } from './stats.ts';
import { type BenchUser, type Merchant, PAYMENT_AMOUNT } from './world.ts';

export const STEPS = ['create', 'init', 'code', 'verify', 'charge'] as const;

export interface FlowContext {
  http: Requester;
  merchant: Merchant;
  samples: LabelledSamples;
  /** Send Idempotency-Key on POSTs (default true, as the SDKs do). */
  idempotency?: boolean;
}

async function timed(ctx: FlowContext, label: string, expect: number, send: () => Promise<HttpAnswer>, startedAt?: number): Promise<unknown> {
  const t0 = startedAt ?? performance.now();
  const res = await send();
  ctx.samples.add(label, performance.now() - t0);
  if (res.status !== expect) throw new Error(`${label}: HTTP ${res.status} ${res.body.slice(0, 200)}`);
  return JSON.parse(res.body);
}

function merchantHeaders(ctx: FlowContext): Record<string, string> {
  return { 'x-api-key': ctx.merchant.apiKey, authorization: `Bearer ${ctx.merchant.secretKey}`, ...idem(ctx) };
}

function idem(ctx: FlowContext): Record<string, string> {
  return ctx.idempotency === false ? {} : { 'idempotency-key': randomUUID() };
}

let orderSeq = 0;

/** POST /gateway: the intent's id. `startedAt` (open loop) counts a late start in the latency. */
export async function createIntent(ctx: FlowContext, startedAt?: number): Promise<string> {
  const body = { amount: PAYMENT_AMOUNT, currency: 'XAF', description: 'Bench order', metadata: { orderId: String(++orderSeq) } };
  const intent = (await timed(ctx, 'create', 201, () => ctx.http.request('POST', '/gateway', merchantHeaders(ctx), body), startedAt)) as { id: string };
  return intent.id;
}

/** The whole payment; throws on any unexpected answer. */
export async function payment(ctx: FlowContext, user: BenchUser, startedAt?: number): Promise<void> {
  const intentId = await createIntent(ctx, startedAt);
  await pay(ctx, user, intentId);
}

/** initOtp → read the code → verifyOtp → charge, for an existing intent. */
export async function pay(ctx: FlowContext, user: BenchUser, intentId: string): Promise<void> {
  const userHeaders = () => ({ 'x-api-key': ctx.merchant.apiKey, authorization: `Bearer ${user.token}`, ...idem(ctx) });
  await timed(ctx, 'init', 200, () => ctx.http.request('POST', '/otp/init', userHeaders(), { userId: user.id, channel: 'sms', intentionId: intentId }));
  const outbox = (await timed(ctx, 'code', 200, () =>
    ctx.http.request('GET', `/test/messages?userId=${user.id}&limit=1`, {
      'x-api-key': ctx.merchant.apiKey,
      authorization: `Bearer ${ctx.merchant.secretKey}`,
    }),
  )) as { data: { body: string }[] };
  const code = /\b(\d{6})\b/.exec(outbox.data[0]?.body ?? '')?.[1];
  if (!code) throw new Error('code: no 6-digit code in the outbox');
  const auth = (await timed(ctx, 'verify', 200, () => ctx.http.request('POST', '/otp/verify', userHeaders(), { userId: user.id, otp: code }))) as {
    authorizationToken: string;
  };
  const paid = (await timed(ctx, 'charge', 200, () =>
    ctx.http.request('POST', '/charge', { ...userHeaders(), 'x-otp-token': auth.authorizationToken }, { intentionId: intentId }),
  )) as { status: string };
  if (paid.status !== 'SUCCEEDED') throw new Error(`charge: intent is ${paid.status}`);
}
