/**
 * The full-flow load the crash and failover tests share (scripts/crash-test.ts,
 * scripts/failover-test.ts): wallet payments (create → initOtp → the code → verifyOtp → charge,
 * refunds, cancels, declines), direct MTN MoMo, Orange Money and Wave payments through the
 * in-process sandbox (the payer acting on the redirect providers' pages), payments, refunds and
 * payouts of a merchant whose routes go through pawaPay and CinetPay, top-ups and payouts, each
 * retried with its Idempotency-Key when its answer was lost; then the drain and the
 * checks that nothing acknowledged was lost and nothing was done twice.
 */
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { type Caisse, CaisseConnectionError, CaisseError } from '@caisse/node';
import { performance } from 'node:perf_hooks';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dataDirectory } from '../src/config.ts';
import {
  CINETPAY_CONNECTOR,
  MTN_MOMO_CONNECTOR,
  ORANGE_MONEY_CONNECTOR,
  PAWAPAY_CONNECTOR,
  type Sandbox,
  sandboxSecrets,
  startSandbox,
  WAVE_CONNECTOR,
} from '../src/modules/connectors/index.ts';
import { FIRST_POLL_DELAY_MS, POLL_LEASE_MS } from '../src/modules/lifecycle/index.ts';
import { type TestUser, testPayments } from '../src/cli/test-payments.ts';
import { createCaisse } from '../src/cli/client.ts';
import { createMerchantWithCli, runCaisse, type ServerProc, startServerProcess, type TestKeys } from '../test/processes.ts';

const settings = { short: false, log: (_line: string): void => {} };
let seed = 1;

/** The seed (a failing run is replayed with it), the short form (gives up sooner), and where lines go. */
export function configureLoad(o: { seed: number; short: boolean; log(line: string): void }): void {
  seed = o.seed;
  settings.short = o.short;
  settings.log = o.log;
}

// A small seeded generator, so a failing run can be replayed with its seed.
export function rand(): number {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
}
export const between = (lo: number, hi: number) => Math.floor(lo + rand() * (hi - lo + 1));
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the webhook receiver -----------------------------------------------------------------------

interface ReceivedEvent {
  id: string;
  type: string;
  data: { paymentIntent?: { id: string }; payout?: { id: string } };
}

/** Both merchants' endpoints post to the one receiver, each signing with its own secret. */
function verifyWithAny(secrets: string[], body: string, headers: Record<string, string>): ReceivedEvent {
  if (secrets.length === 0) throw new Error('no secret yet');
  let last: unknown;
  for (const secret of secrets) {
    try {
      return new Webhook(secret).verify(body, headers) as ReceivedEvent;
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

interface Receipt {
  count: number;
  type: string;
  intentId: string;
}

export async function startReceiver(getSecrets: () => string[]) {
  const received = new Map<string, Receipt>();
  const badSignatures: string[] = [];
  let deliveries = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const event = verifyWithAny(getSecrets(), body, req.headers as Record<string, string>);
        const seen = received.get(event.id);
        if (seen) seen.count += 1;
        else received.set(event.id, { count: 1, type: event.type, intentId: event.data.paymentIntent?.id ?? event.data.payout?.id ?? '' });
        deliveries += 1;
      } catch (err) {
        badSignatures.push(`${String(req.headers['webhook-id'])}: ${(err as Error).message}`);
      }
      // Answer after a short random delay, so kills also land while deliveries are in flight.
      setTimeout(
        () => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('ok');
        },
        between(0, 150),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    badSignatures,
    deliveries: () => deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---- the server under the kills ------------------------------------------------------------------

export class Lifecycle {
  server: ServerProc | undefined;
  private upWaiters: (() => void)[] = [];
  up = false;

  waitUp(): Promise<void> {
    if (this.up) return Promise.resolve();
    return new Promise((resolve) => this.upWaiters.push(resolve));
  }
  markUp(server: ServerProc) {
    this.server = server;
    this.up = true;
    for (const w of this.upWaiters.splice(0)) w();
  }
  markDown() {
    this.up = false;
  }
}

/**
 * Where the load's raw HTTP calls go (set once the server and its keys exist); `wave`: the XOF
 * merchant in Senegal; `agg`: the XOF merchant in Côte d'Ivoire whose Orange Money route is CinetPay.
 */
export const target = {
  baseUrl: '',
  apiKey: '',
  secretKey: '',
  wave: { merchantId: '', apiKey: '', secretKey: '' },
  agg: { merchantId: '', apiKey: '', secretKey: '' },
};

/** The payers' side of the redirect providers' pages (set once the sandbox exists). */
let pages: Sandbox | undefined;

// ---- the load ----------------------------------------------------------------------------------

export interface PooledUser extends TestUser {
  sends: number[];
  busy: boolean;
}

export interface Outcomes {
  flows: number;
  abandoned: number;
  /** Intents whose charge answered 200, with the user who paid. */
  paid: Map<string, string>;
  /** Refunds answered 201: intent → amount (XAF: minor units are major units). */
  refunded: Map<string, bigint>;
  canceled: Set<string>;
  declined: Set<string>;
  /** Charges whose answer never came (given up after retries): the database decides. */
  inDoubt: Set<string>;
  chargeRetries: number;
  replayed: number;
  /** Answers with a 5xx status other than 503 `unavailable` (the API allows none). */
  serverErrors: number;
  /** 503 `unavailable` answers (no database primary): retried with the same Idempotency-Key. */
  unavailable: number;
  /** Charges whose answer was lost in a kill, and the background retries that seek it. */
  lostAnswers: number;
  /** Lost answers whose retry got something else than a 200 or a 402: intent, status and code. */
  wrongAfterLost: string[];
  resolving: Set<Promise<void>>;
  errors: Map<string, number>;
  /** Top-ups answered 202: id → amount. */
  topups: Map<string, bigint>;
  /** Payouts answered 202: id → amount; and how many were refused for want of balance. */
  payouts: Map<string, bigint>;
  payoutsRefused: number;
  /** Direct mobile-money charges answered 202: intent id → the payer's number. */
  direct: Map<string, string>;
  /** Orange Money and Wave charges answered 202: intent id → the provider. */
  redirected: Map<string, 'orange_money' | 'wave'>;
  /** What the payer did on those pages: approve or decline, or why the page refused. */
  pageActions: Map<string, number>;
  /** Charges answered 202 whose attempt went through an aggregator: intent id → the aggregator and the merchant ('cm' or the Ivorian 'ci'). */
  aggregated: Map<string, { connector: 'pawapay' | 'cinetpay'; merchant: 'cm' | 'ci' }>;
  /** Its intents a refund was tried for (once each). */
  refundTried: Set<string>;
  /** Refunds to mobile money answered 202: refund id → the intent and the amount. */
  mmRefunds: Map<string, { intentId: string; amount: bigint }>;
  /** Refunds to mobile money refused (an answer, not a fault): status and code → count. */
  mmRefundRefusals: Map<string, number>;
}

/** The MoMo sandbox numbers the top-ups use: mostly approved, some rejected, some approved after 10 s. */
function topupNumber(): string {
  const r = rand();
  if (r < 0.15) return '+237650000105';
  if (r < 0.25) return '+237650000101';
  return approvedNumber();
}

/**
 * A random MTN Cameroon number the sandbox approves at once: its last three digits are 010–099,
 * never one of the table's special endings (101–109: slow, never answered, refused, faults). An
 * MTN prefix, since top-ups and payouts go through MTN MoMo: a number of another network, or of
 * none (+23761…), is refused with phone_invalid and would exercise nothing.
 */
function approvedNumber(): string {
  return mtnNumber();
}

/**
 * A wallet top-up over HTTP, retried with its Idempotency-Key while the server is down, so an
 * answer lost in a kill is found again (a replay) rather than making a second top-up.
 */
async function topupFlow(baseUrl: string, apiKey: string, life: Lifecycle, user: PooledUser, o: Outcomes, stop: { stopped: boolean }): Promise<void> {
  const amount = between(1, 50) * 100;
  const key = `crash-top-${user.id}-${between(0, 2 ** 30)}`;
  const body = JSON.stringify({ amount: String(amount), currency: 'XAF', provider: 'mtn_momo', phoneNumber: topupNumber() });
  const res = await postUntilAnswered(
    life,
    o,
    stop,
    `${baseUrl}/wallet/topups`,
    { 'x-api-key': apiKey, authorization: `Bearer ${user.token}`, 'idempotency-key': key },
    body,
  );
  if (res === undefined) return;
  if (res.status === 202) {
    o.topups.set(((await res.json()) as { id: string }).id, BigInt(amount));
    return;
  }
  const problem = (await res.json().catch(() => ({}))) as { code?: string };
  if (problem.code === 'access_token_invalid') throw new CaisseError({ code: 'access_token_invalid', message: 'token', status: 401 });
  countError(o, `topup ${res.status} ${problem.code ?? ''}`);
}

/**
 * A payout of part of the available balance over HTTP (mostly to numbers the sandbox pays, some
 * to the one it refuses), retried with its Idempotency-Key while the server is down.
 */
async function payoutFlow(life: Lifecycle, o: Outcomes, stop: { stopped: boolean }): Promise<void> {
  const currency = 'XAF';
  const headers = { 'x-api-key': target.apiKey, authorization: `Bearer ${target.secretKey}` };
  await life.waitUp();
  const read = await fetch(`${target.baseUrl}/balance`, { headers, signal: AbortSignal.timeout(20_000) });
  if (await waitedOutUnavailable(read, o)) return;
  const balance = (await read.json()) as { available: { currency: string; amount: string }[] };
  const available = Number(balance.available.find((b) => b.currency === currency)?.amount ?? '0');
  if (available < 100) return;
  const amount = Math.min(available, between(1, 30) * 100);
  const phoneNumber = rand() < 0.2 ? '+237650000103' : approvedNumber();
  const body = JSON.stringify({ amount: String(amount), currency, destination: { provider: 'mtn_momo', phoneNumber } });
  const key = `crash-po-${between(0, 2 ** 30)}`;
  const res = await postUntilAnswered(life, o, stop, `${target.baseUrl}/payouts`, { ...headers, 'idempotency-key': key }, body);
  if (res === undefined) return;
  if (res.status === 202) {
    o.payouts.set(((await res.json()) as { id: string }).id, BigInt(amount));
    return;
  }
  const problem = (await res.json().catch(() => ({}))) as { code?: string };
  // Another payout took the money first: the balance held.
  if (res.status === 409 && problem.code === 'balance_insufficient') o.payoutsRefused += 1;
  else countError(o, `payout ${res.status} ${problem.code ?? ''}`);
}

/**
 * A fresh MTN number (67x, unlike approvedNumber's, which any operator may hold) ending in
 * `ending` (the sandbox's outcome): fresh, so the prompts-per-number limit never refuses it.
 */
function mtnNumber(ending = `0${String(between(10, 99))}`): string {
  return `+23767${String(between(1000, 9999))}${ending}`;
}

/** POST /charge with a mobile-money method from the "browser" (the intent's session token), retried with its Idempotency-Key. */
function chargeWithMethod(
  life: Lifecycle,
  o: Outcomes,
  stop: { stopped: boolean },
  apiKey: string,
  intent: { id: string; sessionToken: string },
  provider: string,
  phoneNumber: string,
): Promise<Response | undefined> {
  const body = JSON.stringify({ intentionId: intent.id, paymentMethod: { type: 'mobile_money', provider, phoneNumber } });
  const headers = { 'x-api-key': apiKey, 'x-session-token': intent.sessionToken, 'idempotency-key': `crash-mm-${intent.id}` };
  return postUntilAnswered(life, o, stop, `${target.baseUrl}/charge`, headers, body);
}

/**
 * An intent paid directly with MTN MoMo: created by the merchant, charged from the "browser"
 * with its session token (mostly approved, some declined on the phone, some approved after
 * 10 s), the charge retried with its Idempotency-Key while the server is down. The outcome comes
 * from the provider, later: the checks read it from the database and the sandbox.
 */
async function directFlow(life: Lifecycle, o: Outcomes, stop: { stopped: boolean }): Promise<void> {
  const headers = { 'x-api-key': target.apiKey, authorization: `Bearer ${target.secretKey}`, 'content-type': 'application/json' };
  await life.waitUp();
  const created = await fetch(`${target.baseUrl}/gateway`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ amount: String(between(1, 50) * 100), currency: 'XAF', description: 'crash: mobile money' }),
    signal: AbortSignal.timeout(20_000),
  });
  if (created.status !== 201) {
    // Without an Idempotency-Key, an intent whose answer was a 503 is left alone: nothing acknowledged it.
    if (await waitedOutUnavailable(created, o)) return;
    if (created.status >= 500) o.serverErrors += 1;
    countError(o, `intent ${created.status}`);
    return;
  }
  const intent = (await created.json()) as { id: string; sessionToken: string };
  const r = rand();
  // Declined on the phone, approved after 10 s, and the table's faults: a 500 then success, a
  // hang then success, a callback sent twice.
  const ending = r < 0.1 ? '105' : r < 0.18 ? '101' : r < 0.25 ? '107' : r < 0.32 ? '108' : r < 0.39 ? '109' : undefined;
  const phoneNumber = mtnNumber(ending);
  const res = await chargeWithMethod(life, o, stop, target.apiKey, intent, 'mtn_momo', phoneNumber);
  if (res === undefined) return;
  if (res.status === 202) {
    o.direct.set(intent.id, phoneNumber);
    // MTN's own API unavailable (its health after kills and hangs): the route moved on to an
    // aggregator. pawaPay prompts the phone as MTN does; CinetPay's page needs the payer.
    const answer = (await res.json().catch(() => ({}))) as ChargeAnswer;
    const via = answer.attempts?.at(-1)?.connector;
    if (via === 'pawapay' || via === 'cinetpay') o.aggregated.set(intent.id, { connector: via, merchant: 'cm' });
    if (answer.nextAction?.type === 'redirect' || via === 'cinetpay') await payOnPage(life, o, headers, intent.id, answer, 'mtn_momo', 'approve', phoneNumber);
    return;
  }
  const problem = (await res.json().catch(() => ({}))) as { code?: string; detail?: string };
  countError(o, `mobile-money charge ${res.status} ${problem.code ?? ''} (${problem.detail ?? ''})`);
}

/**
 * A payer's number for a redirect provider ending in `ending` (the sandbox's outcome): Orange
 * Cameroon's 69x or 655–659 for the XAF merchant, a Senegalese Wave number for the XOF one.
 */
function redirectNumber(provider: 'orange_money' | 'wave', ending: string): string {
  if (provider === 'wave') return `+22177${String(between(1000, 9999))}${ending}`;
  return rand() < 0.5 ? `+23769${String(between(1000, 9999))}${ending}` : `+237${String(between(655, 659))}${String(between(100, 999))}${ending}`;
}

/**
 * An intent paid with Orange Money (the Cameroonian merchant, XAF) or Wave (the Senegalese one,
 * XOF): charged from the "browser", then the payer acts on the provider's page after a moment, so
 * kills land in between: mostly approves, some decline or cancel, some approve from a number the
 * provider refuses, is slow with or notifies twice. The outcome comes from the provider, later.
 */
async function redirectFlow(provider: 'orange_money' | 'wave', life: Lifecycle, o: Outcomes, stop: { stopped: boolean }): Promise<void> {
  const keys = provider === 'wave' ? target.wave : target;
  const headers = { 'x-api-key': keys.apiKey, authorization: `Bearer ${keys.secretKey}`, 'content-type': 'application/json' };
  await life.waitUp();
  const created = await fetch(`${target.baseUrl}/gateway`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ amount: String(between(1, 50) * 100), currency: provider === 'wave' ? 'XOF' : 'XAF', description: `crash: ${provider}` }),
    signal: AbortSignal.timeout(20_000),
  });
  if (created.status !== 201) {
    if (await waitedOutUnavailable(created, o)) return;
    if (created.status >= 500) o.serverErrors += 1;
    countError(o, `${provider} intent ${created.status}`);
    return;
  }
  const intent = (await created.json()) as { id: string; sessionToken: string };
  const r = rand();
  const action = r < 0.1 ? 'decline' : r < 0.15 ? 'cancel' : 'approve';
  // Approved from a number refused on the phone, slow (10 s), or whose notification comes twice.
  const ending = r < 0.25 ? '105' : r < 0.32 ? '101' : r < 0.39 ? '109' : `0${String(between(10, 99))}`;
  const phoneNumber = redirectNumber(provider, ending);
  const res = await chargeWithMethod(life, o, stop, keys.apiKey, intent, provider, phoneNumber);
  if (res === undefined) return;
  if (res.status !== 202) {
    const problem = (await res.json().catch(() => ({}))) as { code?: string; detail?: string };
    countError(o, `${provider} charge ${res.status} ${problem.code ?? ''} (${problem.detail ?? ''})`);
    return;
  }
  o.redirected.set(intent.id, provider);
  await payOnPage(life, o, headers, intent.id, (await res.json()) as ChargeAnswer, provider, action, phoneNumber);
}

type ChargeAnswer = { status?: string; nextAction?: { type: string; url?: string } | null; attempts?: { connector?: string }[] };

/**
 * The payer on the page of the connector the attempt went through: the operator's own (Orange's,
 * Wave's) or, when the route moved on to an aggregator, CinetPay's.
 */
async function payOnPage(
  life: Lifecycle,
  o: Outcomes,
  headers: Record<string, string>,
  intentId: string,
  first: ChargeAnswer,
  label: string,
  action: 'approve' | 'decline' | 'cancel',
  phoneNumber: string,
): Promise<void> {
  let answer = first;
  // The provider's page is at …/pay/{its id}: Orange's pay token, Wave's session id, CinetPay's payment token.
  const pageId = () => /\/pay\/([^/?#]+)/.exec(answer.nextAction?.type === 'redirect' ? (answer.nextAction.url ?? '') : '')?.[1];
  // A retry that found the attempt still being sent (its first try killed) has no page yet: the
  // poller reads it back after the restart, and the intent shows the page once it has it. A host
  // killed while polling holds the row for its lease, and kills can repeat, so the payer waits
  // as a checkout page would: past two leases, not a fixed count of reads, or until the attempt
  // has ended (a page lost for good fails it, and the intent is open again).
  const pageDeadline = performance.now() + 2 * POLL_LEASE_MS + FIRST_POLL_DELAY_MS;
  while (pageId() === undefined && answer.status !== 'PENDING' && performance.now() < pageDeadline) {
    await sleep(1000);
    await life.waitUp();
    const got = await fetch(`${target.baseUrl}/gateway/${intentId}`, { headers, signal: AbortSignal.timeout(20_000) }).catch(() => undefined);
    if (got?.status === 200) answer = (await got.json()) as ChargeAnswer;
  }
  const id = pageId();
  if (id === undefined || pages === undefined) {
    countError(o, `${label} 202 without a redirect`);
    return;
  }
  await sleep(between(0, 1500));
  const connector = answer.attempts?.at(-1)?.connector ?? label;
  const pageOf = { wave: WAVE_CONNECTOR, orange_money: ORANGE_MONEY_CONNECTOR, cinetpay: CINETPAY_CONNECTOR }[connector];
  const acted = pageOf === undefined ? { ok: false as const, reason: `no page for ${connector}` } : pages.of(pageOf).act(id, action, phoneNumber);
  const key = `${connector === label ? label : `${label} via ${connector}`} ${acted.ok ? action : `refused: ${acted.reason}`}`;
  o.pageActions.set(key, (o.pageActions.get(key) ?? 0) + 1);
}

/** An Ivorian Orange number (07, 10 national digits) ending in `ending` (the sandbox's outcome), fresh each time. */
function ivorianOrangeNumber(ending: string): string {
  return `+22507${String(between(10000, 99999))}${ending}`;
}

/**
 * An intent of the Ivorian merchant (XOF) paid with Orange Money, whose route there is CinetPay:
 * charged from the "browser", then the payer acts on CinetPay's page after a moment, so kills
 * land in between: mostly approves, some decline or cancel, some approve from a number refused on
 * the phone, slow or notified twice. The outcome comes from CinetPay, later.
 */
async function cinetpayFlow(life: Lifecycle, o: Outcomes, stop: { stopped: boolean }): Promise<void> {
  const keys = target.agg;
  const headers = { 'x-api-key': keys.apiKey, authorization: `Bearer ${keys.secretKey}`, 'content-type': 'application/json' };
  const label = 'orange_money (CI)';
  await life.waitUp();
  const created = await fetch(`${target.baseUrl}/gateway`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ amount: String(between(1, 50) * 100), currency: 'XOF', description: 'crash: orange_money via CinetPay' }),
    signal: AbortSignal.timeout(20_000),
  });
  if (created.status !== 201) {
    if (await waitedOutUnavailable(created, o)) return;
    if (created.status >= 500) o.serverErrors += 1;
    countError(o, `${label} intent ${created.status}`);
    return;
  }
  const intent = (await created.json()) as { id: string; sessionToken: string };
  const r = rand();
  const action = r < 0.1 ? 'decline' : r < 0.15 ? 'cancel' : 'approve';
  const ending = r < 0.25 ? '105' : r < 0.32 ? '101' : r < 0.39 ? '109' : `0${String(between(10, 99))}`;
  const phoneNumber = ivorianOrangeNumber(ending);
  const res = await chargeWithMethod(life, o, stop, keys.apiKey, intent, 'orange_money', phoneNumber);
  if (res === undefined) return;
  if (res.status !== 202) {
    const problem = (await res.json().catch(() => ({}))) as { code?: string; detail?: string };
    countError(o, `${label} charge ${res.status} ${problem.code ?? ''} (${problem.detail ?? ''})`);
    return;
  }
  o.aggregated.set(intent.id, { connector: 'cinetpay', merchant: 'ci' });
  await payOnPage(life, o, headers, intent.id, (await res.json()) as ChargeAnswer, label, action, phoneNumber);
}

/**
 * A refund of an intent paid through an aggregator (once each): part or all of it, back to the
 * payer's number through the payment's connector — pawaPay's refund, or a CinetPay transfer —
 * retried with its Idempotency-Key while the server is down.
 */
async function aggregatorRefundFlow(life: Lifecycle, o: Outcomes, stop: { stopped: boolean }): Promise<void> {
  const candidates = [...o.aggregated.keys()].filter((id) => !o.refundTried.has(id));
  if (candidates.length === 0) return;
  // Most paid ones are found among the older candidates.
  const intentId = candidates[Math.floor(rand() * Math.min(candidates.length, 12))] as string;
  const keys = o.aggregated.get(intentId)?.merchant === 'ci' ? target.agg : target;
  const headers = { 'x-api-key': keys.apiKey, authorization: `Bearer ${keys.secretKey}` };
  await life.waitUp();
  const got = await fetch(`${target.baseUrl}/gateway/${intentId}`, { headers, signal: AbortSignal.timeout(20_000) });
  if (await waitedOutUnavailable(got, o)) return;
  if (got.status !== 200) {
    countError(o, `refund: intent read ${got.status}`);
    return;
  }
  const intent = (await got.json()) as { status: string; amount: string };
  if (intent.status !== 'SUCCEEDED') {
    // Failed or canceled for good: never a candidate again; still open: later.
    if (intent.status === 'CANCELED' || intent.status === 'EXPIRED') o.refundTried.add(intentId);
    return;
  }
  o.refundTried.add(intentId);
  const amount = rand() < 0.3 ? Number(intent.amount) : between(1, Number(intent.amount) / 100) * 100;
  const res = await postUntilAnswered(
    life,
    o,
    stop,
    `${target.baseUrl}/gateway/${intentId}/refunds`,
    { ...headers, 'idempotency-key': `crash-re-${intentId}` },
    JSON.stringify({ amount: String(amount) }),
  );
  if (res === undefined) return;
  if (res.status === 202) {
    o.mmRefunds.set(((await res.json()) as { id: string }).id, { intentId, amount: BigInt(amount) });
    return;
  }
  const problem = (await res.json().catch(() => ({}))) as { code?: string };
  // Payouts took the merchant's balance first: an answer, not a fault.
  if (res.status === 409 && problem.code === 'balance_insufficient') {
    const key = `${res.status} ${problem.code}`;
    o.mmRefundRefusals.set(key, (o.mmRefundRefusals.get(key) ?? 0) + 1);
  } else countError(o, `refund ${res.status} ${problem.code ?? ''}`);
}

/** 503 `unavailable`: no database primary answered; the client retries after Retry-After (docs/operations.md). */
function isUnavailable(answer: { status: number; problem?: { code?: unknown } }): boolean {
  return answer.status === 503 && answer.problem?.code === 'unavailable';
}

function retryAfterMs(headers: Headers): number {
  return Number(headers.get('retry-after') ?? '1') * 1000;
}

/** A 503 `unavailable` answer is counted and waited out: true when the caller retries (its body is read). */
async function waitedOutUnavailable(res: Response, o: Outcomes): Promise<boolean> {
  if (res.status !== 503) return false;
  const problem = (await res
    .clone()
    .json()
    .catch(() => ({}))) as { code?: string };
  if (!isUnavailable({ status: res.status, problem })) return false;
  o.unavailable += 1;
  await sleep(retryAfterMs(res.headers));
  return true;
}

/**
 * A POST retried with its Idempotency-Key until it gets an answer: while the server is down (no
 * answer), while no database primary answers (503 `unavailable`) and while the first try still
 * holds the key (409: a killed process's key frees after the take-over delay). Undefined when it
 * gave up (the load is stopping, or 40 tries).
 */
async function postUntilAnswered(
  life: Lifecycle,
  o: Outcomes,
  stop: { stopped: boolean },
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<Response | undefined> {
  for (let attempt = 0; attempt < 40 && !(stop.stopped && attempt > 3); attempt++) {
    await life.waitUp();
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(20_000) });
    } catch {
      await sleep(200);
      continue;
    }
    if (await waitedOutUnavailable(res, o)) continue;
    if (
      res.status === 409 &&
      (
        (await res
          .clone()
          .json()
          .catch(() => ({}))) as { code?: string }
      ).code === 'idempotency_request_in_progress'
    ) {
      await sleep(1000);
      continue;
    }
    // A provider the health window marks down is refused with 503 provider_unavailable: an answer, not a fault.
    if (
      res.status >= 500 &&
      (
        (await res
          .clone()
          .json()
          .catch(() => ({}))) as { code?: string }
      ).code !== 'provider_unavailable'
    )
      o.serverErrors += 1;
    return res;
  }
  return undefined;
}

/** No answer came (the server was killed): anything but an error the API answered. */
function isNetworkError(err: unknown): boolean {
  return err instanceof CaisseConnectionError || !(err instanceof CaisseError);
}

function countError(o: Outcomes, what: string) {
  o.errors.set(what, (o.errors.get(what) ?? 0) + 1);
}

/** A user who may be sent a code now (one per 30 s, five per 15 min), or undefined. */
function takeUser(pool: PooledUser[]): PooledUser | undefined {
  const now = Date.now();
  const ready = pool.filter((u) => !u.busy && (u.sends.at(-1) ?? 0) < now - 31_000 && u.sends.filter((t) => t > now - 15 * 60_000).length < 5);
  const user = ready[Math.floor(rand() * ready.length)];
  if (user) user.busy = true;
  return user;
}

/**
 * The charge, retried with the same Idempotency-Key until it gets an answer, as a client that
 * lost the answer in a crash does. Once the load is stopping, a charge held by a dead process
 * (released after 60 s) is given up after a few seconds in the short form: it stays in doubt,
 * and the database decides.
 */
async function chargeUntilAnswered(
  api: Caisse,
  life: Lifecycle,
  user: PooledUser,
  intentId: string,
  otpToken: string,
  o: Outcomes,
  stop: { stopped: boolean },
) {
  const pay = testPayments(api);
  const key = `crash-${intentId}`;
  let giveUpAt = Date.now() + 100_000;
  for (let attempt = 0; ; attempt++) {
    if (settings.short && stop.stopped) giveUpAt = Math.min(giveUpAt, Date.now() + 5000);
    if (attempt > 0) o.chargeRetries += 1;
    try {
      await life.waitUp();
      const res = await pay.charge(user, intentId, otpToken, { idempotencyKey: key });
      if (res.status === 409 && res.problem?.code === 'idempotency_request_in_progress') {
        // The first try is still held by a process that died: its key is released after 60 s.
        if (Date.now() > giveUpAt) return undefined;
        await sleep(2000);
        continue;
      }
      if (isUnavailable(res)) {
        o.unavailable += 1;
        await sleep(retryAfterMs(res.headers));
        continue;
      }
      if (res.headers.get('idempotent-replayed') === 'true') o.replayed += 1;
      if (res.status >= 500) o.serverErrors += 1;
      return res;
    } catch (err) {
      if (!isNetworkError(err) || Date.now() > giveUpAt) throw err;
      await sleep(300);
    }
  }
}

async function flow(api: Caisse, life: Lifecycle, pool: PooledUser[], o: Outcomes, stop: { stopped: boolean }): Promise<void> {
  const pay = testPayments(api);
  const roll = rand();
  const amount = String(between(1, 50) * 100);
  if (roll < 0.08) {
    // Create and cancel.
    const intent = await pay.createIntent({ amount, description: 'crash: cancel' });
    await pay.cancel(intent.id);
    o.canceled.add(intent.id);
    return;
  }
  if (roll < 0.12) {
    await payoutFlow(life, o, stop);
    return;
  }
  if (roll >= 0.3 && roll < 0.4) {
    await directFlow(life, o, stop);
    return;
  }
  if (roll >= 0.4 && roll < 0.5) {
    await redirectFlow(roll < 0.45 ? 'orange_money' : 'wave', life, o, stop);
    return;
  }
  // Through the aggregators: more MTN MoMo payments and payouts (through pawaPay while its
  // route is on, see setPawapayRoutes), Orange Money through CinetPay, and refunds of those.
  if (roll >= 0.5 && roll < 0.56) {
    await directFlow(life, o, stop);
    return;
  }
  if (roll >= 0.56 && roll < 0.61) {
    await cinetpayFlow(life, o, stop);
    return;
  }
  if (roll >= 0.61 && roll < 0.66) {
    await aggregatorRefundFlow(life, o, stop);
    return;
  }
  if (roll >= 0.66 && roll < 0.675) {
    await payoutFlow(life, o, stop);
    return;
  }
  const user = takeUser(pool);
  if (user === undefined) {
    await sleep(500);
    return;
  }
  if (roll >= 0.16 && roll < 0.3) {
    try {
      await topupFlow(target.baseUrl, target.apiKey, life, user, o, stop);
    } catch (err) {
      if (err instanceof CaisseError && err.code === 'access_token_invalid') await testPayments(api).signIn(user);
      throw err;
    } finally {
      user.busy = false;
    }
    return;
  }
  try {
    const declined = roll < 0.16;
    const intent = await pay.createIntent({
      amount: declined ? '900000000' : amount,
      description: declined ? 'crash: declined' : 'crash: pay',
      metadata: { user: user.id },
    });
    user.sends.push(Date.now());
    let otpToken: string;
    try {
      otpToken = await pay.authorize(user, intent.id);
    } catch (err) {
      if (err instanceof CaisseError && err.code === 'access_token_invalid') await pay.signIn(user);
      if (err instanceof CaisseError && err.code === 'otp_rate_limited') user.sends.push(Date.now());
      throw err;
    }
    let res: Awaited<ReturnType<typeof pay.charge>> | undefined;
    try {
      res = await pay.charge(user, intent.id, otpToken, { idempotencyKey: `crash-${intent.id}` });
    } catch {
      res = undefined;
    }
    if (res === undefined || isUnavailable(res)) {
      // The answer was lost in a kill, or no database primary answered (503): it is sought in the
      // background (same Idempotency-Key), so this worker goes on loading the server.
      if (res !== undefined) o.unavailable += 1;
      const settle = chargeUntilAnswered(api, life, user, intent.id, otpToken, o, stop).then((answer) => {
        if (answer === undefined) o.inDoubt.add(intent.id);
        else if (answer.status === 200) o.paid.set(intent.id, user.id);
        else if (answer.status === 402) o.declined.add(intent.id);
        else {
          countError(o, `charge ${answer.status} ${answer.problem?.code ?? ''} (after a lost answer)`);
          o.wrongAfterLost.push(`${intent.id}: ${answer.status} ${answer.problem?.code ?? ''}`);
        }
      });
      o.resolving.add(settle);
      void settle.catch(() => o.inDoubt.add(intent.id)).finally(() => o.resolving.delete(settle));
      o.lostAnswers += 1;
      return;
    }
    if (res.status >= 500) o.serverErrors += 1;
    if (res.status === 200) {
      o.paid.set(intent.id, user.id);
      if (roll > 0.9) {
        const part = String(between(1, Number(amount) / 100) * 100);
        const refund = await pay.refund(intent.id, part);
        o.refunded.set(intent.id, BigInt(refund.amount));
      }
    } else if (res.status === 402) {
      o.declined.add(intent.id);
    } else {
      countError(o, `charge ${res.status} ${res.problem?.code ?? ''}`);
    }
  } finally {
    user.busy = false;
  }
}

export async function loadLoop(api: Caisse, life: Lifecycle, pool: PooledUser[], o: Outcomes, stop: { stopped: boolean }) {
  while (!stop.stopped) {
    await life.waitUp();
    try {
      await flow(api, life, pool, o, stop);
      o.flows += 1;
    } catch (err) {
      o.abandoned += 1;
      if (err instanceof CaisseError && err.status === 503 && err.code === 'unavailable') o.unavailable += 1;
      else if (err instanceof CaisseError && (err.status ?? 0) >= 500) o.serverErrors += 1;
      if (isNetworkError(err)) countError(o, 'no answer (server killed)');
      else countError(o, `${(err as CaisseError).status} ${(err as CaisseError).code}`);
      await sleep(100);
    }
  }
}

export function newOutcomes(): Outcomes {
  return {
    flows: 0,
    abandoned: 0,
    paid: new Map(),
    refunded: new Map(),
    canceled: new Set(),
    declined: new Set(),
    inDoubt: new Set(),
    chargeRetries: 0,
    replayed: 0,
    serverErrors: 0,
    unavailable: 0,
    lostAnswers: 0,
    wrongAfterLost: [],
    resolving: new Set(),
    errors: new Map(),
    topups: new Map(),
    payouts: new Map(),
    payoutsRefused: 0,
    direct: new Map(),
    redirected: new Map(),
    pageActions: new Map(),
    aggregated: new Map(),
    refundTried: new Set(),
    mmRefunds: new Map(),
    mmRefundRefusals: new Map(),
  };
}

/** `n` customers with 100 000 XAF each, made ten at a time. */
async function createUserPool(api: Caisse, n: number): Promise<PooledUser[]> {
  const pay = testPayments(api);
  const pool: PooledUser[] = [];
  for (let i = 0; i < n; i += 10) {
    const batch = await Promise.all(Array.from({ length: Math.min(10, n - i) }, () => pay.createUser({ balance: '100000' })));
    pool.push(...batch.map((u) => ({ ...u, sends: [], busy: false })));
  }
  return pool;
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** What a run starts, kept as it is made, so that a failure part-way still ends all of it (closeRun). */
export interface Run {
  sandbox?: Sandbox;
  receiver?: Receiver;
  life?: Lifecycle;
}

/**
 * Every provider's sandbox (MTN MoMo at its root, Orange Money and Wave under their paths) in this
 * process, so it outlives every kill of the server, as the providers would; and the server's
 * environment pointing test mode at it, with its callbacks (Wave's webhooks too) to `port`.
 */
export async function startProviderSandbox(run: Run, port: number, dataDir = dataDirectory({})): Promise<{ sandbox: Sandbox; env: Record<string, string> }> {
  // The server's data directory (its CAISSE_DATA_DIR, the default one without) holds the secrets both use.
  const sandbox = await startSandbox({ port: 0, callbacksUrl: `http://127.0.0.1:${port}/callbacks`, secrets: sandboxSecrets(dataDir) });
  run.sandbox = sandbox;
  pages = sandbox;
  return {
    sandbox,
    env: { CAISSE_SANDBOX_URL: sandbox.url, CAISSE_SANDBOX_CALLBACKS_URL: `http://127.0.0.1:${port}/callbacks` },
  };
}

/**
 * The merchants (through the CLI, their payments available for payouts at once: a Cameroonian
 * one, and a Senegalese one for Wave's XOF), the webhook receiver and their endpoints, the server on `port`, and `users` customers with 100 000 XAF each.
 */
export async function startRun(
  run: Run,
  o: { env: Record<string, string>; port: number; name: string; users: number },
): Promise<{ keys: TestKeys; api: Caisse; pool: PooledUser[] }> {
  const keys = await createMerchantWithCli(o.env, o.name);
  target.baseUrl = `http://127.0.0.1:${o.port}`;
  target.apiKey = keys.apiKey;
  target.secretKey = keys.secretKey;
  const waveKeys = await createMerchantWithCli(o.env, `${o.name} Dakar`, 'SN');
  target.wave = waveKeys;
  const aggKeys = await createMerchantWithCli(o.env, `${o.name} Abidjan`, 'CI');
  target.agg = aggKeys;
  for (const id of [keys.merchantId, waveKeys.merchantId, aggKeys.merchantId]) {
    const settlement = await runCaisse(['merchants', 'settlement', id, '--delay-days', '0'], o.env);
    if (settlement.code !== 0) throw new Error(`caisse merchants settlement failed: ${settlement.output}`);
  }
  // Côte d'Ivoire's Orange Money goes through CinetPay (its own connector serves it too).
  const set = await runCaisse(['routes', 'set', '--mode', 'test', '--country', 'CI', '--method', 'orange_money', '--connectors', 'cinetpay'], o.env);
  if (set.code !== 0) throw new Error(`caisse routes set failed: ${set.output}`);
  const secrets: string[] = [];
  const receiver = await startReceiver(() => secrets);
  run.receiver = receiver;
  run.life = new Lifecycle();
  run.life.markUp(await startServerProcess({ env: o.env, port: o.port }));
  const api = createCaisse({ baseUrl: target.baseUrl, apiKey: keys.apiKey, secretKey: keys.secretKey }, { timeoutMs: 20_000 });
  secrets.push((await api.webhookEndpoints.create({ url: receiver.url })).secret);
  for (const other of [waveKeys, aggKeys]) {
    const otherApi = createCaisse({ baseUrl: target.baseUrl, apiKey: other.apiKey, secretKey: other.secretKey }, { timeoutMs: 20_000 });
    secrets.push((await otherApi.webhookEndpoints.create({ url: receiver.url })).secret);
  }
  return { keys, api, pool: await createUserPool(api, o.users) };
}

/** The last server stops on SIGTERM, with exit 0. */
export async function stopLastServer(life: Lifecycle, check: (ok: boolean, what: string) => void): Promise<void> {
  const server = life.server as ServerProc;
  server.kill('SIGTERM');
  const exit = await server.exited;
  life.server = undefined;
  check(exit.code === 0, `the last server stops on SIGTERM with exit 0 (${exit.code ?? exit.signal})`);
}

/** Ends what is left of a run: the server (SIGKILL), the receiver, the sandbox. */
export async function closeRun(run: Run): Promise<void> {
  if (run.life?.server) {
    run.life.server.kill('SIGKILL');
    await run.life.server.exited;
    run.life.server = undefined;
  }
  await run.receiver?.close();
  await run.sandbox?.close();
}

/**
 * Cameroon's MTN MoMo through pawaPay first (payments and payouts), or back to the default route
 * (MTN's own API first). MTN MoMo is taken only in Cameroon, so its pawaPay route is Cameroon's,
 * shared with the direct flows: the run turns it on and off between kills, while the server is
 * down. Written as `caisse routes set` stores it (a CLI run per switch would lengthen each
 * restart); the server reads routes from the database for each attempt and payout.
 */
export async function setPawapayRoutes(databaseUrl: string | undefined, on: boolean): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    if (on)
      await db.query(
        `insert into payment_routes (mode, country, kind, method, connectors, updated_by, updated_at)
         select 'test', 'CM', kind, 'mtn_momo', array['pawapay', 'mtn_momo'], 'crash test', now() from unnest(array['payment', 'payout']) kind
         on conflict (mode, country, kind, method) do update set connectors = excluded.connectors, updated_at = excluded.updated_at`,
      );
    else await db.query(`delete from payment_routes where mode = 'test' and country = 'CM' and method = 'mtn_momo'`);
  } finally {
    await db.end();
  }
}

export interface CheckOptions {
  databaseUrl: string | undefined;
  env: Record<string, string>;
  merchantId: string;
  /** Error lines the servers logged (the last server's are added here). */
  serverErrors: string[];
  check(ok: boolean, what: string): void;
  drainTimeoutMs: number;
}

/** A PENDING redirect attempt without the provider's page: its answer was lost in a kill. */
const PAGE_LOST = `provider in ('orange_money', 'wave') and redirect_url is null`;

export async function drainAndCheck(parts: Run, o: Outcomes, run: CheckOptions): Promise<{ lines: string[]; lost: number }> {
  const { receiver, sandbox, life } = parts as Required<Run>;
  const { serverErrors, check } = run;
  const log = settings.log;
  const env = run.env;
  // Every merchant: the Cameroonian one, Wave's Senegalese one and the aggregators' Ivorian one.
  const merchants = [run.merchantId, target.wave.merchantId, target.agg.merchantId];
  const db = new pg.Client({ connectionString: run.databaseUrl });
  await db.connect();
  try {
    const drainStart = performance.now();
    let pending = -1;
    let missing: string[] = [];
    let pendingTopups = -1;
    let pendingPayouts = -1;
    let pendingAttempts = -1;
    let pendingRefunds = -1;
    for (;;) {
      pending = Number((await db.query<{ n: string }>(`select count(*) as n from webhook_deliveries where status <> 'succeeded'`)).rows[0]?.n);
      const all = (await db.query<{ id: string }>(`select id from events where merchant_id = any($1)`, [merchants])).rows.map((r) => r.id);
      missing = all.filter((id) => !receiver?.received.has(id));
      pendingTopups = Number((await db.query<{ n: string }>(`select count(*) as n from topups where status = 'PENDING'`)).rows[0]?.n);
      pendingPayouts = Number((await db.query<{ n: string }>(`select count(*) as n from payouts where status = 'PENDING'`)).rows[0]?.n);
      pendingRefunds = Number((await db.query<{ n: string }>(`select count(*) as n from mobile_money_refunds where status = 'PENDING'`)).rows[0]?.n);
      // A Wave session the payer declined stays open at Wave until it expires (as Wave does): its
      // attempt waits for that, with no money moved.
      const openAtWave = sandbox
        .of(WAVE_CONNECTOR)
        .sessions()
        .filter((x) => x.checkout_status === 'open')
        .map((x) => x.id);
      pendingAttempts = Number(
        (
          await db.query<{ n: string }>(
            `select count(*) as n from payment_attempts where status = 'PENDING' and not (${PAGE_LOST})
               and not (provider = 'wave' and provider_reference = any($1))`,
            [openAtWave],
          )
        ).rows[0]?.n,
      );
      const settled = pendingTopups === 0 && pendingPayouts === 0 && pendingAttempts === 0 && pendingRefunds === 0;
      if ((pending === 0 && missing.length === 0 && settled) || performance.now() - drainStart > run.drainTimeoutMs) break;
      await sleep(500);
    }
    log(
      `dispatcher drained in ${((performance.now() - drainStart) / 1000).toFixed(1)} s (${pending} deliveries not succeeded, ${missing.length} events not received)`,
    );

    // ---- the checks ----
    const verify = await runCaisse(['ledger', 'verify'], env);
    check(
      verify.code === 0,
      `caisse ledger verify exits 0 (${(verify.code === 0 ? verify.stdout : verify.output).trim().split('\n').slice(0, 12).join('; ')})`,
    );

    const events = (
      await db.query<{ id: string; type: string; intent_id: string }>(`select id, type, intent_id from events where merchant_id = any($1)`, [merchants])
    ).rows;
    const lost = events.filter((e) => !receiver?.received.has(e.id));
    check(
      lost.length === 0,
      `every one of the ${events.length} events reached the receiver (lost: ${
        lost
          .slice(0, 5)
          .map((e) => `${e.type} ${e.id}`)
          .join(', ') || 'none'
      })`,
    );
    const duplicates = [...receiver.received.values()].filter((r) => r.count > 1).length;
    check(receiver.badSignatures.length === 0, `every delivery carried a valid signature (${receiver.badSignatures.slice(0, 3).join('; ') || 'all valid'})`);
    check(pending === 0, `no delivery is left pending or failed (${pending})`);

    const intents = (
      await db.query<{ id: string; status: string; amount_minor: string; amount_refunded_minor: string }>(
        `select id, status, amount_minor, amount_refunded_minor from intents where merchant_id = any($1)`,
        [merchants],
      )
    ).rows;
    const byId = new Map(intents.map((i) => [i.id, i]));
    const paidStates = new Set(['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED']);
    const succeeded = intents.filter((i) => paidStates.has(i.status));
    const completedByIntent = new Set(events.filter((e) => e.type === 'payment.completed').map((e) => e.intent_id));
    const noCompleted = succeeded.filter((i) => !completedByIntent.has(i.id));
    const completedNotReceived = events.filter((e) => e.type === 'payment.completed' && !receiver?.received.has(e.id));
    check(
      noCompleted.length === 0 && completedNotReceived.length === 0,
      `every one of the ${succeeded.length} paid intents has its payment.completed, delivered (${noCompleted.length} without, ${completedNotReceived.length} not delivered)`,
    );
    // A redirect attempt whose page was lost in a kill (the 202 stored, the provider's answer not)
    // shows the payer nothing: it waits for the 15-minute timeout, which the drain does not.
    const pageLost = (
      await db.query<{ id: string; intent_id: string; transfers: string }>(
        `select a.id, a.intent_id, (select count(*) from ledger_transfers lt where lt.reference = a.id) as transfers
           from payment_attempts a where a.status = 'PENDING' and ${PAGE_LOST}`,
      )
    ).rows;
    // A Wave session the payer declined, failed to pay or walked away from stays open until it
    // expires (5 min), as at Wave: its attempt waits for that, or for the payer to choose again
    // (decision 0079). A session paid or expired is not open: its attempt must be decided.
    const open = new Set(
      sandbox
        .of(WAVE_CONNECTOR)
        .sessions()
        .filter((x) => x.checkout_status === 'open')
        .map((x) => x.id),
    );
    const openAtWave = (
      await db.query<{ intent_id: string; provider_reference: string | null }>(
        `select intent_id, provider_reference from payment_attempts where status = 'PENDING' and provider = 'wave'`,
      )
    ).rows.filter((a) => a.provider_reference !== null && open.has(a.provider_reference));
    const waitingIntents = new Set([...pageLost, ...openAtWave].map((a) => a.intent_id));
    const processing = intents.filter((i) => i.status === 'PROCESSING' && !waitingIntents.has(i.id));
    check(processing.length === 0, `no intent is stuck in PROCESSING (${processing.length})`);

    const negative = Number((await db.query<{ n: string }>(`select count(*) as n from ledger_accounts where kind = 'user_wallet' and balance < 0`)).rows[0]?.n);
    check(negative === 0, `no wallet is negative (${negative})`);

    // A paid intent was paid once: by a wallet charge or by a mobile-money attempt (a late
    // success is the payer's money, not the intent's).
    const chargeRows = (
      await db.query<{ intent_id: string; n: string }>(
        `select intent_id, count(*) as n from (
           select intent_id from charges where status = 'succeeded'
           union all select intent_id from payment_attempts where status = 'SUCCEEDED' and not late) paid
         group by intent_id`,
      )
    ).rows;
    const chargesByIntent = new Map(chargeRows.map((r) => [r.intent_id, Number(r.n)]));
    const wrongCharges =
      succeeded.filter((i) => chargesByIntent.get(i.id) !== 1).length + chargeRows.filter((r) => !paidStates.has(byId.get(r.intent_id)?.status ?? '')).length;
    check(wrongCharges === 0, `each paid intent has exactly one succeeded charge or attempt, and no other intent has one (${wrongCharges} wrong)`);

    for (const merchantId of merchants) {
      const balance = BigInt(
        (
          await db.query<{ b: string | null }>(
            `select coalesce(sum(balance), 0) as b from ledger_accounts where merchant_id = $1 and mode = 'test' and kind in ('merchant_balance', 'merchant_pending')`,
            [merchantId],
          )
        ).rows[0]?.b ?? '0',
      );
      // What the paid intents add up to, net of the platform's fee (and of the fee each refund
      // gave back, a refund to mobile money's as soon as it is asked for, unless it failed), less
      // what was paid out (a failed payout's money came back). A late payment is never the merchant's.
      const expected = BigInt(
        (
          await db.query<{ e: string }>(
            `select (select coalesce(sum(amount_minor - coalesce(fee_minor, 0)), 0) from intents where merchant_id = $1 and status in ('SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'))
                  - (select coalesce(sum(amount_minor - fee_returned_minor), 0) from refunds where merchant_id = $1)
                  - (select coalesce(sum(amount_minor - fee_returned_minor), 0) from mobile_money_refunds where merchant_id = $1 and not late and status <> 'FAILED')
                  - (select coalesce(sum(amount_minor), 0) from payouts where merchant_id = $1 and status <> 'FAILED') as e`,
            [merchantId],
          )
        ).rows[0]?.e ?? '0',
      );
      check(balance === expected, `merchant ${merchantId}'s money (${balance}) is what its paid intents add up to, net of fees and payouts (${expected})`);
      const statement = BigInt(
        (
          await db.query<{ t: string | null }>(`select coalesce(sum(total_minor), 0) as t from balance_totals where merchant_id = $1 and mode = 'test'`, [
            merchantId,
          ])
        ).rows[0]?.t ?? '0',
      );
      check(statement === balance, `${merchantId}'s balance statement total (${statement}) is the ledger's (${balance})`);
    }

    const unheld = [...o.paid.keys()].filter((id) => !paidStates.has(byId.get(id)?.status ?? ''));
    check(unheld.length === 0, `every one of the ${o.paid.size} charges answered 200 is paid in the database (${unheld.slice(0, 5).join(', ') || 'all'})`);
    const refundsUnheld = [...o.refunded].filter(([id, amount]) => BigInt(byId.get(id)?.amount_refunded_minor ?? '0') < amount);
    check(refundsUnheld.length === 0, `every one of the ${o.refunded.size} refunds answered 201 is in the database`);
    const cancelsUnheld = [...o.canceled].filter((id) => byId.get(id)?.status !== 'CANCELED');
    check(cancelsUnheld.length === 0, `every one of the ${o.canceled.size} cancels answered 200 is in the database`);
    serverErrors.push(...(life.server as ServerProc).lines.filter((l) => /"level":50/.test(l)));
    check(
      o.serverErrors === 0 && serverErrors.length === 0,
      `no answer was a 5xx and the servers logged no error (${o.serverErrors} answers, ${serverErrors.length} log lines)`,
    );
    const declinedPaid = [...o.declined].filter((id) => paidStates.has(byId.get(id)?.status ?? ''));
    check(declinedPaid.length === 0, `none of the ${o.declined.size} charges answered 402 moved money`);
    check(
      o.wrongAfterLost.length === 0,
      `no charge whose answer was lost got anything but a 200 or a 402 when retried with its Idempotency-Key (${o.lostAnswers} lost, ${o.replayed} replayed, ${o.inDoubt.size} left in doubt; other answers: ${o.wrongAfterLost.slice(0, 5).join(', ') || 'none'})`,
    );

    // Money in: what the provider recorded is what the ledger holds, exactly once.
    check(pendingTopups === 0, `no top-up is left PENDING (${pendingTopups})`);
    const topups = (
      await db.query<{ id: string; status: string; amount_minor: string; transfers: string; credited: string | null }>(
        `select t.id, t.status, t.amount_minor,
              (select count(*) from ledger_transfers lt where lt.kind = 'topup' and lt.reference = t.id) as transfers,
              (select sum(p.amount) from ledger_transfers lt join ledger_postings p on p.transfer_id = lt.id join ledger_accounts a on a.id = p.account_id
                where lt.kind = 'topup' and lt.reference = t.id and a.kind = 'user_wallet') as credited
       from topups t`,
      )
    ).rows;
    const topupById = new Map(topups.map((t) => [t.id, t]));
    const collections = sandbox
      .of(MTN_MOMO_CONNECTOR)
      .requests()
      .filter((r) => r.kind === 'collection');
    const provider = collections.filter((r) => r.externalId.startsWith('top_'));
    const successful = provider.filter((r) => r.status === 'SUCCESSFUL');
    const wrongCredit = successful.filter((r) => {
      const t = topupById.get(r.externalId);
      return !t || t.status !== 'SUCCEEDED' || t.transfers !== '1' || t.credited !== t.amount_minor;
    });
    check(
      wrongCredit.length === 0,
      `every one of the ${successful.length} top-ups the provider recorded SUCCESSFUL is credited exactly once (${
        wrongCredit
          .slice(0, 5)
          .map((r) => r.externalId)
          .join(', ') || 'all'
      })`,
    );
    const failedAtProvider = provider.filter((r) => r.status === 'FAILED');
    const creditedFailed = failedAtProvider.filter((r) => topupById.get(r.externalId)?.transfers !== '0' || topupById.get(r.externalId)?.status !== 'FAILED');
    check(
      creditedFailed.length === 0,
      `none of the ${failedAtProvider.length} top-ups the provider refused is credited, and each is FAILED (${creditedFailed.length} wrong)`,
    );
    const creditedUnknown = topups.filter((t) => t.transfers !== '0' && !successful.some((r) => r.externalId === t.id));
    check(creditedUnknown.length === 0, `no top-up is credited without the provider's success (${creditedUnknown.length})`);
    const unheldTopups = [...o.topups.keys()].filter((id) => !topupById.has(id));
    check(unheldTopups.length === 0, `every one of the ${o.topups.size} top-ups answered 202 is in the database (${unheldTopups.length} missing)`);

    // Direct payments: each the provider approved paid its intent once; none it refused moved money.
    check(
      pendingAttempts === 0 && pageLost.every((a) => a.transfers === '0'),
      `no mobile-money attempt is left PENDING (${pendingAttempts}; ${pageLost.length} redirect attempts whose page was lost in a kill wait for their timeout, with no money moved)`,
    );
    const attempts = (
      await db.query<{
        id: string;
        intent_id: string;
        provider: string;
        connector: string;
        reference: string;
        provider_reference: string | null;
        status: string;
        late: boolean;
        transfers: string;
        returns: string;
      }>(
        `select a.id, a.intent_id, a.provider, a.connector, a.reference, a.provider_reference, a.status, a.late,
              (select count(*) from ledger_transfers lt where lt.kind = 'mobile_money_charge' and lt.reference = a.id) as transfers,
              (select count(*) from mobile_money_refunds r where r.attempt_id = a.id and r.late) as returns
       from payment_attempts a where a.merchant_id = any($1)`,
        [merchants],
      )
    ).rows;
    const attemptById = new Map(attempts.map((a) => [a.id, a]));
    // The redirect providers' own ids (Orange's pay token, Wave's session id) → our attempt.
    const attemptByReference = new Map(attempts.filter((a) => a.provider_reference !== null).map((a) => [a.provider_reference, a.id]));
    // Our reference (Orange's order_id) → our attempt: a page whose answer was lost in a kill has
    // no pay token here (its attempt FAILED with the page lost, and the page expires unseen).
    const attemptByOurReference = new Map(attempts.map((a) => [a.reference.toLowerCase(), a.id]));
    /** What the provider recorded for an attempt is what the database holds: paid once (or returned once, late), or failed with no money moved. */
    const wrongAttempt = (attemptId: string, outcome: 'paid' | 'failed' | 'open'): boolean => {
      const a = attemptById.get(attemptId);
      if (outcome === 'paid')
        return (
          a?.status !== 'SUCCEEDED' ||
          (a.late ? a.transfers !== '0' || a.returns !== '1' : a.transfers !== '1' || !paidStates.has(byId.get(a.intent_id)?.status ?? ''))
        );
      if (outcome === 'open') return a !== undefined && a.transfers !== '0';
      return a?.status !== 'FAILED' || a.transfers !== '0';
    };
    const prompted = collections.filter((r) => r.externalId.startsWith('att_'));
    const wrongAttempts = prompted.filter((r) => wrongAttempt(r.externalId, r.status === 'SUCCESSFUL' ? 'paid' : r.status === 'FAILED' ? 'failed' : 'open'));
    check(
      wrongAttempts.length === 0,
      `each of the ${prompted.length} phone prompts the provider saw is SUCCEEDED with its intent paid once (or returned once as late_payment), or FAILED with no money moved (${
        wrongAttempts
          .slice(0, 5)
          .map((r) => r.externalId)
          .join(', ') || 'all'
      })`,
    );
    // The redirect providers' records, by their own id (the attempt's provider_reference).
    const orange = sandbox
      .of(ORANGE_MONEY_CONNECTOR)
      .payments()
      .map((p) => ({
        ref: attemptByReference.get(p.payToken) ?? attemptByOurReference.get(p.orderId.toLowerCase()) ?? p.payToken,
        outcome: p.status === 'SUCCESS' ? ('paid' as const) : p.status === 'FAILED' || p.status === 'EXPIRED' ? ('failed' as const) : ('open' as const),
      }));
    const wave = sandbox
      .of(WAVE_CONNECTOR)
      .sessions()
      .map((w) => ({
        ref: attemptByReference.get(w.id) ?? w.id,
        outcome:
          w.payment_status === 'succeeded'
            ? ('paid' as const)
            : // A declined try leaves the session open (the payer may still pay): failed once it expired.
              w.checkout_status === 'expired' || (w.payment_status === 'cancelled' && w.checkout_status !== 'open')
              ? ('failed' as const)
              : ('open' as const),
      }));
    // An attempt whose route moved on (its operator's connector unhealthy after a kill, or a retry
    // after a failure) went through an aggregator: its records are by our reference.
    const pawapay = sandbox
      .of(PAWAPAY_CONNECTOR)
      .payments('deposit')
      .map((d) => ({
        ref: attemptByOurReference.get(d.id.toLowerCase()) ?? d.id,
        outcome: d.status === 'COMPLETED' ? ('paid' as const) : d.status === 'FAILED' ? ('failed' as const) : ('open' as const),
      }));
    const cinetpay = sandbox
      .of(CINETPAY_CONNECTOR)
      .payments()
      .map((p) => ({
        ref: attemptByOurReference.get(p.transaction_id.toLowerCase()) ?? p.transaction_id,
        outcome: p.state === 'SUCCESSFUL' ? ('paid' as const) : p.state === 'FAILED' ? ('failed' as const) : ('open' as const),
      }));
    for (const [name, records, unit] of [
      ['Orange Money', orange, 'payments'],
      ['Wave', wave, 'checkout sessions'],
      ['pawaPay', pawapay, 'deposits'],
      ['CinetPay', cinetpay, 'payments'],
    ] as const) {
      const wrong = records.filter((r) => wrongAttempt(r.ref, r.outcome));
      const paid = records.filter((r) => r.outcome === 'paid').length;
      const failed = records.filter((r) => r.outcome === 'failed').length;
      check(
        wrong.length === 0,
        `each of the ${records.length} ${name} ${unit} the sandbox recorded (${paid} paid, ${failed} failed or cancelled) paid its attempt's intent once (or was returned once as late_payment), or moved no money (${
          wrong
            .slice(0, 5)
            .map((r) => r.ref)
            .join(', ') || 'all'
        })`,
      );
    }
    const providerPaid = new Set([
      ...prompted.filter((r) => r.status === 'SUCCESSFUL').map((r) => r.externalId),
      ...[...orange, ...wave, ...pawapay, ...cinetpay].filter((r) => r.outcome === 'paid').map((r) => r.ref),
    ]);
    const paidUnprompted = attempts.filter((a) => a.status === 'SUCCEEDED' && !providerPaid.has(a.id));
    check(
      paidUnprompted.length === 0,
      `no attempt is SUCCEEDED without the provider's success (${
        paidUnprompted
          .slice(0, 5)
          .map((a) => `${a.id} via ${a.connector}`)
          .join(', ') || 'none'
      })`,
    );
    const attemptIntents = new Set(attempts.map((a) => a.intent_id));
    const unheldDirect = [...o.direct.keys(), ...o.redirected.keys()].filter((id) => !attemptIntents.has(id));
    check(
      unheldDirect.length === 0,
      `every one of the ${o.direct.size + o.redirected.size} mobile-money charges answered 202 has its attempt in the database (${unheldDirect.length} missing)`,
    );

    // Money out: each payout the provider paid is PAID once; each it refused came back; none sent twice.
    check(pendingPayouts === 0, `no payout is left PENDING (${pendingPayouts})`);
    const payouts = (
      await db.query<{ id: string; reference: string; connector: string; status: string; paid: string; reversed: string }>(
        `select p.id, p.reference, p.connector, p.status,
              (select count(*) from ledger_transfers lt where lt.kind = 'payout_paid' and lt.reference = p.id) as paid,
              (select count(*) from ledger_transfers lt where lt.kind = 'payout_reversal' and lt.reference = p.id) as reversed
       from payouts p where p.merchant_id = any($1)`,
        [merchants],
      )
    ).rows;
    const payoutById = new Map(payouts.map((p) => [p.id, p]));
    const disbursed = sandbox
      .of(MTN_MOMO_CONNECTOR)
      .requests()
      .filter((r) => r.kind === 'disbursement');
    const sentTwice = disbursed.filter((r, i) => disbursed.findIndex((x) => x.externalId === r.externalId) !== i);
    check(sentTwice.length === 0, `no payout reached the provider twice (${sentTwice.length})`);
    const wrongPaid = disbursed.filter((r) => {
      const p = payoutById.get(r.externalId);
      return r.status === 'SUCCESSFUL'
        ? p?.status !== 'PAID' || p.paid !== '1' || p.reversed !== '0'
        : p?.status !== 'FAILED' || p.reversed !== '1' || p.paid !== '0';
    });
    check(
      wrongPaid.length === 0,
      `each of the ${disbursed.length} payouts the provider saw is PAID once (SUCCESSFUL) or FAILED with its money back (${
        wrongPaid
          .slice(0, 5)
          .map((r) => r.externalId)
          .join(', ') || 'all'
      })`,
    );
    const paidUnseen = payouts.filter(
      (p) => p.connector === 'mtn_momo' && p.status === 'PAID' && !disbursed.some((r) => r.externalId === p.id && r.status === 'SUCCESSFUL'),
    );
    check(paidUnseen.length === 0, `no payout is PAID without MTN MoMo's success (${paidUnseen.length})`);
    const unheldPayouts = [...o.payouts.keys()].filter((id) => !payoutById.has(id));
    check(unheldPayouts.length === 0, `every one of the ${o.payouts.size} payouts answered 202 is in the database (${unheldPayouts.length} missing)`);

    // ---- through the aggregators (the Ivorian merchant's routes, and attempts whose route moved on) ----
    const aggregators = await checkAggregators(db, sandbox, o, check, { payouts, attempts, attemptByOurReference, pawapay, cinetpay });

    const statuses = new Map<string, number>();
    for (const i of intents) statuses.set(i.status, (statuses.get(i.status) ?? 0) + 1);
    const acknowledgedMissing =
      unheld.length + refundsUnheld.length + cancelsUnheld.length + unheldTopups.length + unheldDirect.length + unheldPayouts.length + aggregators.unheld;
    const lines = [
      `  ${o.flows} flows completed, ${o.abandoned} abandoned (no answer or a refusal); ${o.unavailable} answers 503 unavailable (retried)`,
      `  client: ${o.paid.size} charges answered 200 (${o.lostAnswers} answers lost and sought again: ${o.replayed} replayed, ${o.chargeRetries} retries), ${o.declined.size} declined, ${o.refunded.size} refunds, ${o.canceled.size} cancels, ${o.inDoubt.size} left in doubt`,
      `  top-ups: ${o.topups.size} answered 202, ${topups.length} in the database (${topups.filter((t) => t.status === 'SUCCEEDED').length} credited, ${topups.filter((t) => t.status === 'FAILED').length} failed), ${provider.length} seen by the provider`,
      ...(
        [
          ['mtn_momo', 'MTN MoMo', o.direct.size, `${prompted.length} prompts seen by the provider`],
          ['orange_money', 'Orange Money', [...o.redirected.values()].filter((p) => p === 'orange_money').length, `${orange.length} payments at the provider`],
          ['wave', 'Wave', [...o.redirected.values()].filter((p) => p === 'wave').length, `${wave.length} checkout sessions at the provider`],
        ] as const
      ).map(([provider, name, answered, seen]) => {
        // Through the operator's own connector: those an aggregator took are on the aggregators' lines.
        const of = attempts.filter((a) => a.provider === provider && a.connector === provider);
        return `  ${name}: ${answered} charges answered 202, ${of.length} attempts (${of.filter((a) => a.status === 'SUCCEEDED').length} succeeded, ${of.filter((a) => a.status === 'FAILED').length} failed, ${of.filter((a) => a.late).length} late), ${seen}`;
      }),
      ...aggregators.lines,
      `  payer on the pages: ${[...o.pageActions].map(([k, n]) => `${k} × ${n}`).join(', ') || 'nothing'}`,
      `  payouts: ${o.payouts.size} answered 202 (${o.payoutsRefused} refused: balance_insufficient), ${payouts.length} in the database (${payouts.filter((p) => p.status === 'PAID').length} paid, ${payouts.filter((p) => p.status === 'FAILED').length} failed)`,
      `  database: ${intents.length} intents (${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}), ${events.length} events`,
      `  receiver: ${receiver.deliveries()} deliveries of ${receiver.received.size} distinct events (${duplicates} received more than once)`,
      `  abandoned flows: ${[...o.errors].map(([k, n]) => `${k} × ${n}`).join(', ') || 'none'}`,
      `  server errors logged: ${serverErrors.length}${serverErrors
        .slice(0, 3)
        .map((l) => `\n    ${l.slice(0, 1500)}`)
        .join('')}`,
    ];
    return { lines, lost: acknowledgedMissing };
  } finally {
    await db.end();
  }
}

type Outcome = 'paid' | 'failed' | 'open';

/**
 * The aggregators' own records against the database: pawaPay's refunds and payouts, CinetPay's
 * transfers (its refunds to mobile money, and any payout), each decided once in the ledger (paid
 * once, or failed with the money back), none paid without the aggregator's success, none left
 * PENDING; the refunds answered 202 held, one per request. Deposits and payments (attempts) are
 * checked with the operators' records. Returns the summary lines and how many acknowledged
 * refunds are missing.
 */
async function checkAggregators(
  db: pg.Client,
  sandbox: Sandbox,
  o: Outcomes,
  check: (ok: boolean, what: string) => void,
  ctx: {
    payouts: { id: string; reference: string; connector: string; status: string; paid: string; reversed: string }[];
    attempts: { id: string; intent_id: string; connector: string; status: string; late: boolean }[];
    attemptByOurReference: Map<string, string>;
    pawapay: { ref: string; outcome: Outcome }[];
    cinetpay: { ref: string; outcome: Outcome }[];
  },
): Promise<{ lines: string[]; unheld: number }> {
  const refunds = (
    await db.query<{
      id: string;
      reference: string;
      intent_id: string;
      attempt_id: string;
      connector: string;
      status: string;
      late: boolean;
      amount_minor: string;
      paid: string;
      reversed: string;
    }>(
      `select r.id, r.reference, r.intent_id, r.attempt_id, r.connector, r.status, r.late, r.amount_minor,
              (select count(*) from ledger_transfers lt where lt.kind = 'refund_paid' and lt.reference = r.id) as paid,
              (select count(*) from ledger_transfers lt where lt.kind = 'refund_reversal' and lt.reference = r.id) as reversed
       from mobile_money_refunds r`,
    )
  ).rows;
  const refundByReference = new Map(refunds.map((r) => [r.reference.toLowerCase(), r]));
  const refundById = new Map(refunds.map((r) => [r.id, r]));
  const payoutByReference = new Map(ctx.payouts.map((p) => [p.reference.toLowerCase(), p]));
  type RefundRow = (typeof refunds)[number];
  type PayoutRow = (typeof ctx.payouts)[number];
  /** A refund the provider paid is SUCCEEDED and paid once; one it refused FAILED, its money back (a late return's stays held); one undecided moved nothing yet. */
  const wrongRefund = (r: RefundRow | undefined, connector: string, outcome: Outcome): boolean => {
    if (r === undefined || r.connector !== connector) return true;
    if (outcome === 'paid') return r.status !== 'SUCCEEDED' || r.paid !== '1' || r.reversed !== '0';
    if (outcome === 'failed') return r.status !== 'FAILED' || r.paid !== '0' || (!r.late && r.reversed !== '1');
    return r.paid !== '0' || r.reversed !== '0';
  };
  const wrongPayout = (p: PayoutRow | undefined, connector: string, outcome: Outcome): boolean => {
    if (p === undefined || p.connector !== connector) return true;
    if (outcome === 'paid') return p.status !== 'PAID' || p.paid !== '1' || p.reversed !== '0';
    if (outcome === 'failed') return p.status !== 'FAILED' || p.reversed !== '1' || p.paid !== '0';
    return p.paid !== '0' || p.reversed !== '0';
  };
  const list = (xs: string[]) => xs.slice(0, 5).join(', ') || 'none';
  const pawaOutcome = (status: string): Outcome => (status === 'COMPLETED' ? 'paid' : status === 'FAILED' ? 'failed' : 'open');

  // pawaPay: refunds (by refundId, our refund's reference), each of the deposit it names.
  const pawa = sandbox.of(PAWAPAY_CONNECTOR);
  const pawaRefunds = pawa.payments('refund').map((p) => ({ p, row: refundByReference.get(p.id.toLowerCase()), outcome: pawaOutcome(p.status) }));
  const wrongPawaRefunds = pawaRefunds.filter(
    ({ p, row, outcome }) => wrongRefund(row, 'pawapay', outcome) || ctx.attemptByOurReference.get((p.depositId ?? '').toLowerCase()) !== row?.attempt_id,
  );
  check(
    wrongPawaRefunds.length === 0,
    `each of the ${pawaRefunds.length} pawaPay refunds the sandbox recorded (${pawaRefunds.filter((r) => r.outcome === 'paid').length} completed, ${
      pawaRefunds.filter((r) => r.outcome === 'failed').length
    } failed) is its deposit's refund in the database, SUCCEEDED and paid once or FAILED with the money back (${list(wrongPawaRefunds.map(({ p }) => p.id))})`,
  );
  const pawaPayouts = pawa.payments('payout').map((p) => ({ p, row: payoutByReference.get(p.id.toLowerCase()), outcome: pawaOutcome(p.status) }));
  const wrongPawaPayouts = pawaPayouts.filter(({ row, outcome }) => wrongPayout(row, 'pawapay', outcome));
  check(
    wrongPawaPayouts.length === 0,
    `each of the ${pawaPayouts.length} pawaPay payouts the sandbox recorded (${pawaPayouts.filter((r) => r.outcome === 'paid').length} completed, ${
      pawaPayouts.filter((r) => r.outcome === 'failed').length
    } failed) is PAID once or FAILED with its money back (${list(wrongPawaPayouts.map(({ p }) => p.id))})`,
  );

  // CinetPay: transfers (by client_transaction_id, our reference): refunds to mobile money, and payouts.
  const transfers = sandbox
    .of(CINETPAY_CONNECTOR)
    .transfers()
    .map((t) => {
      const ref = t.client_transaction_id.toLowerCase();
      const outcome: Outcome = t.treatment_status === 'VAL' ? 'paid' : t.treatment_status === 'REJ' ? 'failed' : 'open';
      return { t, refund: refundByReference.get(ref), payout: payoutByReference.get(ref), outcome };
    });
  const wrongTransfers = transfers.filter(({ refund, payout, outcome }) =>
    refund !== undefined ? wrongRefund(refund, 'cinetpay', outcome) : wrongPayout(payout, 'cinetpay', outcome),
  );
  const transfersOf = (x: typeof transfers) =>
    `${x.filter((r) => r.outcome === 'paid').length} paid, ${x.filter((r) => r.outcome === 'failed').length} refused`;
  check(
    wrongTransfers.length === 0,
    `each of the ${transfers.length} CinetPay transfers the sandbox recorded (${transfersOf(transfers)}) is a refund or payout in the database, paid once or FAILED with the money back (${list(
      wrongTransfers.map(({ t }) => t.client_transaction_id),
    )})`,
  );
  const sentTwice = transfers.filter((x, i) => transfers.findIndex((y) => y.t.client_transaction_id === x.t.client_transaction_id) !== i);
  check(sentTwice.length === 0, `no CinetPay transfer was sent twice (${sentTwice.length})`);

  // Nothing paid without the aggregator's success, nothing left PENDING.
  const completedRefunds = new Set([
    ...pawaRefunds.filter((r) => r.outcome === 'paid').map(({ p }) => p.id.toLowerCase()),
    ...transfers.filter((r) => r.outcome === 'paid').map(({ t }) => t.client_transaction_id.toLowerCase()),
  ]);
  const viaAggregator = (c: string) => c === 'pawapay' || c === 'cinetpay';
  const refundsUnseen = refunds.filter((r) => viaAggregator(r.connector) && r.status === 'SUCCEEDED' && !completedRefunds.has(r.reference.toLowerCase()));
  const paidOut = new Set([
    ...pawaPayouts.filter((r) => r.outcome === 'paid').map(({ p }) => p.id.toLowerCase()),
    ...transfers.filter((r) => r.outcome === 'paid').map(({ t }) => t.client_transaction_id.toLowerCase()),
  ]);
  const payoutsUnseen = ctx.payouts.filter((p) => viaAggregator(p.connector) && p.status === 'PAID' && !paidOut.has(p.reference.toLowerCase()));
  check(
    refundsUnseen.length === 0 && payoutsUnseen.length === 0,
    `no refund or payout through an aggregator is paid without the aggregator's success (${list([...refundsUnseen, ...payoutsUnseen].map((x) => x.id))})`,
  );
  const pendingRefunds = refunds.filter((r) => r.status === 'PENDING');
  check(pendingRefunds.length === 0, `no refund to mobile money is left PENDING (${list(pendingRefunds.map((r) => `${r.id} via ${r.connector}`))})`);

  // The merchant's refunds: each answered 202 is held, once per request (one Idempotency-Key per intent).
  const unheld = [...o.mmRefunds.keys()].filter((id) => !refundById.has(id));
  check(unheld.length === 0, `every one of the ${o.mmRefunds.size} refunds to mobile money answered 202 is in the database (${list(unheld)})`);
  const perIntent = new Map<string, number>();
  for (const r of refunds) if (!r.late) perIntent.set(r.intent_id, (perIntent.get(r.intent_id) ?? 0) + 1);
  const twice = [...perIntent].filter(([id, n]) => o.aggregated.has(id) && n > 1).map(([id]) => id);
  check(twice.length === 0, `no refund asked for once was made twice (${list(twice)})`);
  const refundedAmounts = (
    await db.query<{ id: string; amount_refunded_minor: string; succeeded: string }>(
      `select i.id, i.amount_refunded_minor,
              (select coalesce(sum(r.amount_minor), 0) from mobile_money_refunds r where r.intent_id = i.id and not r.late and r.status = 'SUCCEEDED') as succeeded
       from intents i where i.id = any($1)`,
      [[...o.aggregated.keys()]],
    )
  ).rows;
  const wrongRefunded = refundedAmounts.filter((i) => i.amount_refunded_minor !== i.succeeded);
  check(
    wrongRefunded.length === 0,
    `each of the ${refundedAmounts.length} intents paid through an aggregator has refunded what its succeeded refunds add up to (${list(wrongRefunded.map((i) => i.id))})`,
  );

  const attemptsOf = (c: string) => {
    const of = ctx.attempts.filter((a) => a.connector === c);
    return `${of.length} attempts (${of.filter((a) => a.status === 'SUCCEEDED').length} succeeded, ${of.filter((a) => a.status === 'FAILED').length} failed, ${
      of.filter((a) => a.late).length
    } late)`;
  };
  const recordsOf = (x: { outcome: Outcome }[]) =>
    `${x.filter((r) => r.outcome === 'paid').length} paid, ${x.filter((r) => r.outcome === 'failed').length} failed`;
  const refundsOf = (c: string) => {
    const of = refunds.filter((r) => r.connector === c);
    return `${of.length} refunds in the database (${of.filter((r) => r.status === 'SUCCEEDED').length} succeeded, ${of.filter((r) => r.status === 'FAILED').length} failed, ${
      of.filter((r) => r.late).length
    } late returns)`;
  };
  const payoutsOf = (c: string) => {
    const of = ctx.payouts.filter((p) => p.connector === c);
    return `${of.length} payouts in the database (${of.filter((p) => p.status === 'PAID').length} paid, ${of.filter((p) => p.status === 'FAILED').length} failed)`;
  };
  const answered = (c: 'pawapay' | 'cinetpay') => [...o.aggregated.values()].filter((x) => x.connector === c).length;
  return {
    unheld: unheld.length,
    lines: [
      `  pawaPay: ${answered('pawapay')} MTN MoMo charges answered 202 through it, ${attemptsOf('pawapay')}; at the sandbox ${ctx.pawapay.length} deposits (${recordsOf(ctx.pawapay)}), ${pawaRefunds.length} refunds (${recordsOf(pawaRefunds)}), ${pawaPayouts.length} payouts (${recordsOf(pawaPayouts)}); ${refundsOf('pawapay')}, ${payoutsOf('pawapay')}`,
      `  CinetPay: ${answered('cinetpay')} charges answered 202 through it (Ivorian Orange Money, or a route that moved on), ${attemptsOf('cinetpay')}; at the sandbox ${ctx.cinetpay.length} payments (${recordsOf(ctx.cinetpay)}), ${transfers.length} transfers (${transfersOf(transfers)}); ${refundsOf('cinetpay')}`,
      `  refunds to mobile money: ${o.mmRefunds.size} answered 202 (${[...o.mmRefundRefusals].map(([k, n]) => `${k} × ${n}`).join(', ') || 'none refused'}), ${refunds.length} in the database`,
    ],
  };
}

/** A whole number from the environment, or `fallback` when unset: a script's knob. */
export function wholeNumberEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number`);
  return Number(raw);
}

/**
 * Counts every answer of the process's fetch (the load's SDK and raw calls share it), by status:
 * what a run that stops a database reports of its requests.
 */
export function countAnswers(): { total: number; byStatus: Map<number, number> } {
  const answers = { total: 0, byStatus: new Map<number, number>() };
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
    const res = await realFetch(...args);
    answers.total += 1;
    answers.byStatus.set(res.status, (answers.byStatus.get(res.status) ?? 0) + 1);
    return res;
  }) as typeof fetch;
  return answers;
}
