/**
 * The full-flow load the crash and failover tests share (scripts/crash-test.ts,
 * scripts/failover-test.ts): wallet payments (create → initOtp → the code → verifyOtp → charge,
 * refunds, cancels, declines), direct MTN MoMo, Orange Money and Wave payments through the
 * in-process sandbox (the payer acting on the redirect providers' pages), top-ups and payouts, each retried with its Idempotency-Key when its answer was lost; then the drain and the
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

/** Where the load's raw HTTP calls go (set once the server and its keys exist); `wave`: the XOF merchant in Senegal. */
export const target = { baseUrl: '', apiKey: '', secretKey: '', wave: { merchantId: '', apiKey: '', secretKey: '' } };

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
  const headers = { 'x-api-key': target.apiKey, authorization: `Bearer ${target.secretKey}` };
  await life.waitUp();
  const read = await fetch(`${target.baseUrl}/balance`, { headers, signal: AbortSignal.timeout(20_000) });
  if (await waitedOutUnavailable(read, o)) return;
  const balance = (await read.json()) as { available: { currency: string; amount: string }[] };
  const available = Number(balance.available.find((b) => b.currency === 'XAF')?.amount ?? '0');
  if (available < 100) return;
  const amount = Math.min(available, between(1, 30) * 100);
  const phoneNumber = rand() < 0.2 ? '+237650000103' : approvedNumber();
  const body = JSON.stringify({ amount: String(amount), currency: 'XAF', destination: { provider: 'mtn_momo', phoneNumber } });
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
    if (answer.nextAction?.type === 'redirect' || answer.attempts?.at(-1)?.connector === 'cinetpay')
      await payOnPage(life, o, headers, intent.id, answer, 'mtn_momo', 'approve', phoneNumber);
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
  for (const id of [keys.merchantId, waveKeys.merchantId]) {
    const settlement = await runCaisse(['merchants', 'settlement', id, '--delay-days', '0'], o.env);
    if (settlement.code !== 0) throw new Error(`caisse merchants settlement failed: ${settlement.output}`);
  }
  const secrets: string[] = [];
  const receiver = await startReceiver(() => secrets);
  run.receiver = receiver;
  run.life = new Lifecycle();
  run.life.markUp(await startServerProcess({ env: o.env, port: o.port }));
  const api = createCaisse({ baseUrl: target.baseUrl, apiKey: keys.apiKey, secretKey: keys.secretKey }, { timeoutMs: 20_000 });
  secrets.push((await api.webhookEndpoints.create({ url: receiver.url })).secret);
  const waveApi = createCaisse({ baseUrl: target.baseUrl, apiKey: waveKeys.apiKey, secretKey: waveKeys.secretKey }, { timeoutMs: 20_000 });
  secrets.push((await waveApi.webhookEndpoints.create({ url: receiver.url })).secret);
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
  // Both merchants: the Cameroonian one and Wave's Senegalese one.
  const merchants = [run.merchantId, target.wave.merchantId];
  const db = new pg.Client({ connectionString: run.databaseUrl });
  await db.connect();
  try {
    const drainStart = performance.now();
    let pending = -1;
    let missing: string[] = [];
    let pendingTopups = -1;
    let pendingPayouts = -1;
    let pendingAttempts = -1;
    for (;;) {
      pending = Number((await db.query<{ n: string }>(`select count(*) as n from webhook_deliveries where status <> 'succeeded'`)).rows[0]?.n);
      const all = (await db.query<{ id: string }>(`select id from events where merchant_id = any($1)`, [merchants])).rows.map((r) => r.id);
      missing = all.filter((id) => !receiver?.received.has(id));
      pendingTopups = Number((await db.query<{ n: string }>(`select count(*) as n from topups where status = 'PENDING'`)).rows[0]?.n);
      pendingPayouts = Number((await db.query<{ n: string }>(`select count(*) as n from payouts where status = 'PENDING'`)).rows[0]?.n);
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
      const settled = pendingTopups === 0 && pendingPayouts === 0 && pendingAttempts === 0;
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
      // gave back), less what was paid out (a failed payout's money came back).
      const expected = BigInt(
        (
          await db.query<{ e: string }>(
            `select (select coalesce(sum(amount_minor - coalesce(fee_minor, 0)), 0) from intents where merchant_id = $1 and status in ('SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'))
                  - (select coalesce(sum(amount_minor - fee_returned_minor), 0) from refunds where merchant_id = $1)
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
      await db.query<{ id: string; status: string; paid: string; reversed: string }>(
        `select p.id, p.status,
              (select count(*) from ledger_transfers lt where lt.kind = 'payout_paid' and lt.reference = p.id) as paid,
              (select count(*) from ledger_transfers lt where lt.kind = 'payout_reversal' and lt.reference = p.id) as reversed
       from payouts p where p.merchant_id = $1`,
        [run.merchantId],
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
    const paidUnseen = payouts.filter((p) => p.status === 'PAID' && !disbursed.some((r) => r.externalId === p.id && r.status === 'SUCCESSFUL'));
    check(paidUnseen.length === 0, `no payout is PAID without the provider's success (${paidUnseen.length})`);
    const unheldPayouts = [...o.payouts.keys()].filter((id) => !payoutById.has(id));
    check(unheldPayouts.length === 0, `every one of the ${o.payouts.size} payouts answered 202 is in the database (${unheldPayouts.length} missing)`);

    const statuses = new Map<string, number>();
    for (const i of intents) statuses.set(i.status, (statuses.get(i.status) ?? 0) + 1);
    const acknowledgedMissing = unheld.length + refundsUnheld.length + cancelsUnheld.length + unheldTopups.length + unheldDirect.length + unheldPayouts.length;
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
        const of = attempts.filter((a) => a.provider === provider);
        return `  ${name}: ${answered} charges answered 202, ${of.length} attempts (${of.filter((a) => a.status === 'SUCCEEDED').length} succeeded, ${of.filter((a) => a.status === 'FAILED').length} failed, ${of.filter((a) => a.late).length} late), ${seen}`;
      }),
      `  through an aggregator (route moved on): ${(
        [
          ['pawaPay', pawapay],
          ['CinetPay', cinetpay],
        ] as const
      )
        .map(([name, records]) => `${name} ${records.length} (${records.filter((r) => r.outcome === 'paid').length} paid)`)
        .join(', ')}`,
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
