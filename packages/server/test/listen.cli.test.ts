import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordEvent } from './webhooks.receiver.ts';
import { systemClock } from '../src/platform/clock.ts';
import { openDatabase } from '../src/platform/db.ts';
import { idFactory } from '../src/platform/ids.ts';
import { migratedRunDatabase } from './harness.ts';
import {
  createMerchantWithCli,
  type Proc,
  processEnv,
  type RunDatabase,
  runCaisse,
  type ServerProc,
  spawnCaisse,
  startServerProcess,
  type TestKeys,
} from './processes.ts';
import { type Receiver, startReceiver, testIntent } from './webhooks.receiver.ts';

/**
 * `caisse listen` and `caisse trigger` as users run them: real CLI processes against a real
 * server process, events forwarded to a local receiver and verified with Stripe's and the
 * Standard Webhooks libraries; the listener rides through a server restart without losing the
 * event committed while it was away.
 */

let database: RunDatabase;
let env: Record<string, string>;
let receiver: Receiver;
let server: ServerProc;
let keys: TestKeys;
const procs: Proc[] = [];

beforeAll(async () => {
  // Migrated already (a copy of the template): the subject is listen and trigger, not a first start (the example shop's e2e starts on an empty one).
  database = await migratedRunDatabase('listen');
  env = processEnv(database.env);
  if (database.kind === 'postgres') keys = await createMerchantWithCli(env, 'Listen');
  server = await startServerProcess({ env });
  procs.push(server);
  keys ??= server.devMerchant as TestKeys;
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  for (const p of procs) p.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
  await receiver.close();
  await database.drop();
});

// No CAISSE_BASE_URL: the commands find the server by PORT, as `caisse start` reads it.
const cliEnv = () => ({ ...env, CAISSE_API_KEY: keys.apiKey, CAISSE_SECRET_KEY: keys.secretKey, PORT: new URL(server.url).port });
const stripe = new Stripe('sk_test_unused');
const header = (h: Record<string, unknown>, name: string) => String(h[name]);

function startListen(): Proc {
  const p = spawnCaisse(['listen', '--forward-to', receiver.url], cliEnv());
  procs.push(p);
  return p;
}

async function secretOf(p: Proc): Promise<string> {
  const line = await p.waitForLine(/signing secret is whsec_/, 60_000);
  return /(whsec_\S+)/.exec(line)?.[1] as string;
}

function receivedIds(): string[] {
  return receiver.received.map((r) => header(r.headers, 'webhook-id'));
}

describe('caisse listen + caisse trigger', () => {
  let secret: string;
  let listener: Proc;

  it('a triggered payment.completed arrives at the local URL with signatures Stripe and Standard Webhooks accept', async () => {
    listener = startListen();
    secret = await secretOf(listener);
    await listener.waitForLine(/^Ready!/);

    const triggered = await runCaisse(['trigger', 'payment.completed'], cliEnv());
    expect(triggered.code, triggered.output).toBe(0);
    const eventId = /produced payment\.completed (evt_\S+)/.exec(triggered.stdout)?.[1] as string;
    expect(eventId).toBeDefined();

    await vi.waitFor(() => expect(receivedIds()).toContain(eventId), { timeout: 15_000, interval: 50 });
    const got = receiver.received.find((r) => header(r.headers, 'webhook-id') === eventId);
    if (got === undefined) throw new Error('not received');
    const event = stripe.webhooks.constructEvent(got.body, header(got.headers, 'pay-signature'), secret) as unknown as { id: string; type: string };
    expect(event).toMatchObject({ id: eventId, type: 'payment.completed' });
    const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as {
      type: string;
      data: { paymentIntent: { amount: string; currency: string; metadata: Record<string, string>; status: string } };
    };
    expect(verified.type).toBe('payment.completed');
    expect(verified.data.paymentIntent).toMatchObject({ amount: '5000', currency: 'XAF', status: 'SUCCEEDED', metadata: { triggeredBy: 'caisse trigger' } });
    // Another secret does not verify it.
    expect(() => stripe.webhooks.constructEvent(got.body, header(got.headers, 'pay-signature'), `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toThrow();
    await listener.waitForLine(new RegExp(`<-- \\[200\\] POST .*\\[${eventId}\\]`));
  }, 120_000);

  it('the secret is the same after a restart of listen, and --print-secret prints it', async () => {
    listener.kill('SIGINT');
    expect((await listener.exited).code).toBe(0);
    const printed = await runCaisse(['listen', '--print-secret'], cliEnv());
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toBe(secret);
    listener = startListen();
    expect(await secretOf(listener)).toBe(secret);
    await listener.waitForLine(/^Ready!/);
  }, 120_000);

  it('an event committed while the server is down reaches the local URL once the server is back (resumed after the last event id)', async () => {
    server.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    await listener.waitForLine(/connection lost/, 20_000);

    // Written straight into the database while no server runs (a process that committed it and died).
    const opened = await openDatabase({ databaseUrl: database.url, dataDir: database.dataDir as string });
    const deps = { clock: systemClock, ids: idFactory(systemClock) };
    const event = await opened.db.transaction().execute((tx) =>
      recordEvent(tx, deps, {
        merchantId: keys.merchantId,
        mode: 'test',
        type: 'payment.canceled',
        apiVersion: '2026-11-01',
        paymentIntent: testIntent({ id: 'pi_whileaway', amount: '2500', metadata: { n: '1' }, status: 'CANCELED' }),
      }),
    );
    await opened.close();

    server = await startServerProcess({ env, port: server.port });
    procs.push(server);
    await listener.waitForLine(/reconnected; resuming after evt_/, 30_000);
    await vi.waitFor(() => expect(receivedIds()).toContain(event.id), { timeout: 15_000, interval: 50 });
    const got = receiver.received.find((r) => header(r.headers, 'webhook-id') === event.id);
    expect(() => new Webhook(secret).verify(got?.body ?? '', got?.headers as Record<string, string>)).not.toThrow();

    // And new events keep coming; nothing was forwarded twice.
    const triggered = await runCaisse(['trigger', 'payment.canceled'], cliEnv());
    expect(triggered.code, triggered.output).toBe(0);
    const canceledId = /produced payment\.canceled (evt_\S+)/.exec(triggered.stdout)?.[1] as string;
    await vi.waitFor(() => expect(receivedIds()).toContain(canceledId), { timeout: 15_000, interval: 50 });
    const ids = receivedIds();
    expect(new Set(ids).size).toBe(ids.length);
  }, 180_000);

  it("trigger payment.failed prints the intent's status, not the declined charge's HTTP status", async () => {
    const triggered = await runCaisse(['trigger', 'payment.failed'], cliEnv());
    expect(triggered.code, triggered.output).toBe(0);
    expect(triggered.stdout).toMatch(/charge declined \(insufficient_funds\): intent pi_\S+ is PENDING, 1 of 3 attempts used/);
    expect(triggered.stdout).toMatch(/^intent pi_\S+ is PENDING$/m);
    expect(triggered.stdout).not.toMatch(/\b402\b/);
  }, 120_000);

  it('a triggered payout.paid (payment, settled, paid out to the sandbox) arrives and verifies with Stripe', async () => {
    const triggered = await runCaisse(['trigger', 'payout.paid'], cliEnv());
    expect(triggered.code, triggered.output).toBe(0);
    expect(triggered.stdout).toMatch(/payout po_\S+ is PAID/);
    const eventId = /produced payout\.paid (evt_\S+) for po_/.exec(triggered.stdout)?.[1] as string;
    expect(eventId).toBeDefined();
    await vi.waitFor(() => expect(receivedIds()).toContain(eventId), { timeout: 15_000, interval: 50 });
    const got = receiver.received.find((r) => header(r.headers, 'webhook-id') === eventId);
    const event = stripe.webhooks.constructEvent(got?.body ?? '', header(got?.headers ?? {}, 'pay-signature'), secret) as unknown as {
      type: string;
      data: { payout: { status: string; amount: string } };
    };
    expect(event).toMatchObject({ type: 'payout.paid', data: { payout: { status: 'PAID', amount: '4925' } } });
  }, 120_000);

  it('trigger pays directly with MTN MoMo: payment.processing, and payment.completed --method mtn_momo with the attempts in the event', async () => {
    const completed = await runCaisse(['trigger', 'payment.completed', '--method', 'mtn_momo'], cliEnv());
    expect(completed.code, completed.output).toBe(0);
    expect(completed.stdout).toMatch(/asked MTN MoMo \(sandbox\) for 5000 XAF from \+23767\d{7}: intent pi_\S+ is PROCESSING/);
    expect(completed.stdout).toMatch(/^produced payment\.processing evt_\S+ for pi_/m);
    expect(completed.stdout).toMatch(/^intent pi_\S+ is SUCCEEDED$/m);
    const eventId = /produced payment\.completed (evt_\S+)/.exec(completed.stdout)?.[1] as string;
    expect(eventId).toBeDefined();
    await vi.waitFor(() => expect(receivedIds()).toContain(eventId), { timeout: 15_000, interval: 50 });
    const got = receiver.received.find((r) => header(r.headers, 'webhook-id') === eventId);
    const event = stripe.webhooks.constructEvent(got?.body ?? '', header(got?.headers ?? {}, 'pay-signature'), secret) as unknown as {
      data: { paymentIntent: { status: string; attempts: unknown; paymentMethod: unknown }; attempt: { status: string } };
    };
    expect(event.data.paymentIntent).toMatchObject({
      status: 'SUCCEEDED',
      attempts: [expect.objectContaining({ provider: 'mtn_momo', status: 'SUCCEEDED' })],
      paymentMethod: { type: 'mobile_money', provider: 'mtn_momo' },
    });
    expect(event.data.attempt).toMatchObject({ status: 'SUCCEEDED' });

    const processing = await runCaisse(['trigger', 'payment.processing'], cliEnv());
    expect(processing.code, processing.output).toBe(0);
    expect(processing.stdout).toMatch(/^produced payment\.processing evt_\S+ for pi_/m);
    expect(processing.stdout).not.toMatch(/produced payment\.completed/);

    const canceled = await runCaisse(['trigger', 'payment.canceled', '--method', 'mtn_momo'], cliEnv());
    expect(canceled.code).toBe(1);
    expect(canceled.output).toMatch(/--method mtn_momo makes payment\.processing, payment\.completed, payment\.failed, payment\.refunded/);
    const unknown = await runCaisse(['trigger', 'payment.completed', '--method', 'paypal'], cliEnv());
    expect(unknown.code).toBe(1);
    expect(unknown.output).toMatch(/unknown method "paypal"; known: wallet, mtn_momo/);
  }, 120_000);

  it('refuses live keys and unknown event types before connecting', async () => {
    const live = await runCaisse(['listen', '--forward-to', receiver.url], { ...cliEnv(), CAISSE_SECRET_KEY: 'sk_live_x' });
    expect(live.code).toBe(1);
    expect(live.output).toMatch(/test mode only/);
    const badType = await runCaisse(['trigger', 'payment.bogus'], cliEnv());
    expect(badType.code).toBe(1);
    expect(badType.output).toMatch(/unknown event type "payment\.bogus"/);
    const wrongKey = await runCaisse(['listen', '--forward-to', receiver.url], { ...cliEnv(), CAISSE_SECRET_KEY: 'sk_test_wrongwrongwrongwrongwrong' });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.output).toMatch(/refused the stream: 401/);
  }, 120_000);
});
