/**
 * One direct mobile-money payment over HTTP (docs/spec/mobile-money-payments.md), as a shop and
 * its payer's browser make it against test mode's providers' sandbox:
 *
 *   create   POST /gateway                          merchant server, API key + secret key
 *   charge   POST /charge  (a mobile-money method)  browser, API key + x-session-token: 202 PROCESSING
 *   (the sandbox approves after about a second and calls the server back; the server reads the
 *    provider's status, settles the attempt and writes payment.completed)
 *   status   GET  /gateway/sessions/:sessionToken?status=PROCESSING&wait=25
 *                                                   browser, held until the intent changes (as @caisse/browser's waitForPayment)
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Requester } from './load.ts';
import { LabelledSamples, Samples, type Summary } from './stats.ts';
import { type Merchant, PAYMENT_AMOUNT, type World } from './world.ts';
import { describeProvider, providersServing } from '../../packages/server/src/modules/connectors/index.ts';

export const MOMO_STEPS = ['create', 'charge', 'status'] as const;

/**
 * How the browser reads the intent while the payer approves: @caisse/browser's waitForPayment, a
 * long-poll held by the server until the intent leaves PROCESSING (decision 0083), read again at
 * once when it comes back unchanged.
 */
const STATUS_WAIT_S = 25;
/** A payment not SUCCEEDED this long after its charge counts as an error. */
const GIVE_UP_MS = 20_000;

/**
 * The provider the phase pays with, read from the descriptions (no provider is named outside its
 * own files): the first that takes XAF in Cameroon by a prompt on the payer's phone, whose
 * callbacks carry their URL (`/callbacks/<name>/<kind>/<reference>/<token>`).
 */
export function benchProvider(): { name: string; displayName: string; numberBase: string } {
  const name = providersServing('CM', 'XAF').find((p) => describeProvider(p)?.approval === 'phone_prompt');
  const d = name === undefined ? undefined : describeProvider(name);
  const sample = d?.testNumbers[0]?.phoneNumber;
  if (!d || !sample) throw new Error('no provider takes XAF in Cameroon by a phone prompt');
  // Its test number without the six last digits: the bench numbers its payers from there.
  return { name: d.name, displayName: d.displayName, numberBase: sample.slice(0, -6) };
}

let numberSeq = 0;

/**
 * A new number of the provider's for each payment (3 prompts per number per 10 minutes), whose
 * last three digits are none of the sandbox's special outcomes (101–109): approved after about a second.
 */
export function nextApprovedNumber(numberBase: string): string {
  for (;;) {
    const n = numberSeq++ % 1_000_000;
    const last3 = n % 1000;
    if (last3 >= 101 && last3 <= 109) continue;
    return `${numberBase}${String(n).padStart(6, '0')}`;
  }
}

export interface MomoContext {
  http: Requester;
  merchant: Merchant;
  provider: { name: string; numberBase: string };
  samples: LabelledSamples;
  /** From the charge's 202 to the status read that saw SUCCEEDED: what the payer waits. */
  settled: Samples;
  /** Status reads made (to give them per payment). */
  statusReads: { count: number };
}

/** The whole payment; throws on any unexpected answer. `startedAt`: the open loop's scheduled start. */
export async function momoPayment(ctx: MomoContext, startedAt?: number): Promise<void> {
  const apiKey = ctx.merchant.apiKey;
  let t0 = startedAt ?? performance.now();
  const created = await ctx.http.request(
    'POST',
    '/gateway',
    { 'x-api-key': apiKey, authorization: `Bearer ${ctx.merchant.secretKey}`, 'idempotency-key': randomUUID() },
    { amount: PAYMENT_AMOUNT, currency: 'XAF', description: 'Bench mobile-money order' },
  );
  ctx.samples.add('create', performance.now() - t0);
  if (created.status !== 201) throw new Error(`create: HTTP ${created.status} ${created.body.slice(0, 200)}`);
  const intent = JSON.parse(created.body) as { id: string; sessionToken: string };
  t0 = performance.now();
  const charged = await ctx.http.request(
    'POST',
    '/charge',
    { 'x-api-key': apiKey, 'x-session-token': intent.sessionToken, 'idempotency-key': randomUUID() },
    { intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider: ctx.provider.name, phoneNumber: nextApprovedNumber(ctx.provider.numberBase) } },
  );
  const chargedAt = performance.now();
  ctx.samples.add('charge', chargedAt - t0);
  if (charged.status !== 202) throw new Error(`charge: HTTP ${charged.status} ${charged.body.slice(0, 200)}`);
  for (;;) {
    t0 = performance.now();
    const read = await ctx.http.request('GET', `/gateway/sessions/${intent.sessionToken}?status=PROCESSING&wait=${STATUS_WAIT_S}`, {
      'x-api-key': apiKey,
    });
    const now = performance.now();
    ctx.samples.add('status', now - t0);
    ctx.statusReads.count++;
    if (read.status !== 200) throw new Error(`status: HTTP ${read.status} ${read.body.slice(0, 200)}`);
    const status = (JSON.parse(read.body) as { status: string }).status;
    if (status === 'SUCCEEDED') {
      ctx.settled.add(now - chargedAt);
      return;
    }
    if (status !== 'PROCESSING') throw new Error(`status: the intent is ${status}`);
    if (now - chargedAt > GIVE_UP_MS) throw new Error(`status: still PROCESSING ${GIVE_UP_MS} ms after the charge`);
  }
}

/**
 * `count` attempts waiting on phones: intents PROCESSING, each with a PENDING attempt whose next
 * poll is an hour away (the payer has not answered; the provider will call back). Inserted with
 * SQL, as the bench's other bulk rows. Returns a function that removes them.
 */
export async function insertWaitingAttempts(
  world: World,
  merchant: Merchant,
  provider: { name: string; numberBase: string },
  count: number,
): Promise<() => Promise<void>> {
  const m = merchant.merchantId;
  await world.db.transaction().execute(async (tx) => {
    await sql`insert into intents (id, merchant_id, mode, status, amount_minor, amount_refunded_minor, currency, description, metadata,
        session_token_hash, attempts, last_error_code, last_error_message, expires_at, created_at, updated_at)
      select 'pi_wait' || lpad(g::text, 23, '0'), ${m}, 'test', 'PROCESSING', 5000, 0, 'XAF', 'Bench waiting', '{}'::json,
        sha256(('bench-waiting-' || g)::bytea), 0, null, null, now() + interval '1 hour', now(), now()
      from generate_series(1, ${count}::int) g`.execute(tx);
    // Each attempt's request first (the attempt points to it), with its timings.
    await sql`insert into provider_requests (id, kind, reference, mode, connector, provider_account, status, submitted_at, next_poll_at,
        polls, deadline_at, created_at, updated_at)
      select 'pa_wait' || lpad(g::text, 23, '0'), 'attempt', gen_random_uuid()::text, 'test', ${provider.name}, 'pac_sandbox_' || ${provider.name},
        'PENDING', now(), now() + interval '1 hour', 0, now() + interval '15 minutes', now(), now()
      from generate_series(1, ${count}::int) g`.execute(tx);
    await sql`insert into payment_attempts (id, merchant_id, mode, intent_id, provider, connector, provider_account, phone_number, amount_minor,
        currency, reference, status, language, approval_expires_at, created_at, updated_at)
      select r.id, ${m}, 'test', 'pi_wait' || substr(r.id, 8), r.connector, r.connector, r.provider_account,
        ${provider.numberBase} || lpad(substr(r.id, 8)::int::text, 6, '0'), 5000, 'XAF', r.reference, 'PENDING', 'en',
        now() + interval '5 minutes', now(), now()
      from provider_requests r where r.id like 'pa_wait%'`.execute(tx);
  });
  await sql`analyze intents, payment_attempts, provider_requests`.execute(world.db);
  return async () => {
    await world.db.transaction().execute(async (tx) => {
      await sql`delete from payment_attempts where id like 'pa_wait%'`.execute(tx);
      await sql`delete from provider_requests where id like 'pa_wait%'`.execute(tx);
      await sql`delete from intents where id like 'pi_wait%'`.execute(tx);
    });
  };
}

/**
 * The provider callbacks the server handled, from its log (one line per request, with its
 * `responseTime`): how many, their status codes and their time in the server, between two byte
 * offsets of the log.
 */
export function callbacksInLog(logFile: string, fromByte: number): { count: number; byStatus: Record<string, number>; latency: Summary } {
  const text = readFileSync(logFile).subarray(fromByte).toString('utf8');
  const samples = new Samples();
  const byStatus: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.includes('/callbacks/')) continue;
    try {
      const entry = JSON.parse(line) as { req?: { url?: string }; res?: { statusCode?: number }; responseTime?: number };
      if (!entry.req?.url?.startsWith('/callbacks/') || entry.responseTime === undefined) continue;
      samples.add(entry.responseTime);
      const status = String(entry.res?.statusCode ?? '?');
      byStatus[status] = (byStatus[status] ?? 0) + 1;
    } catch {
      /* not a JSON line */
    }
  }
  return { count: samples.count, byStatus, latency: samples.summary() };
}
