import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { purgeExpired, type PurgeCounts, startRetention } from '../src/modules/retention/index.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { createDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { DAY, HOUR, MINUTE, SECOND } from '../src/platform/clock.ts';
import { createLogger } from '../src/platform/logger.ts';
import { authorize, charge, createIntent, expectLedgerClean, newUser, PASSWORD, problem, refreshToken } from './flow.support.ts';
import { call, createMerchant, createTestContext, sk, type TestContext, type TestMerchant } from './harness.ts';
import { ok, type Receiver, startReceiver } from './webhooks.receiver.ts';

/**
 * The retention worker (modules/retention): on the ManualClock, rows past their period in a final
 * state go, batch by batch; recent rows, pending webhook deliveries and their events stay; money
 * tables and users are never touched, and the ledger still verifies.
 */
let ctx: TestContext;
let m: TestMerchant;
const receivers: Receiver[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Keeper');
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await ctx.close();
});

const purge = (batchSize?: number) => purgeExpired(ctx.deps, ctx.services, { batchSize });
const dispatch = () => createDispatcher(ctx.deps, { timeoutMs: 2000, concurrency: 4 }).runOnce();

async function receiver(status: number) {
  const r = await startReceiver(status === 200 ? ok : (_req, res) => res.writeHead(status).end('no'));
  receivers.push(r);
  return r;
}

async function endpoint(url: string): Promise<string> {
  const res = await call(ctx.app, 'POST', '/webhook-endpoints', sk(m), { url });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

/** Which of these ids are still in the table, sorted. */
async function stillThere(table: 'events' | 'messages' | 'otp_codes', ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.deps.db.selectFrom(table).select('id').where('id', 'in', ids).orderBy('id').execute();
  return rows.map((r) => r.id);
}

async function eventIdsOf(intentId: string): Promise<string[]> {
  const rows = await ctx.deps.db.selectFrom('events').select('id').where('intent_id', '=', intentId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

async function deliveriesOf(eventIds: string[]) {
  if (eventIds.length === 0) return [];
  return ctx.deps.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'status', 'endpoint_id'])
    .where('event_id', 'in', eventIds)
    .orderBy('id')
    .execute();
}

async function attemptsOf(deliveryIds: string[]): Promise<number> {
  if (deliveryIds.length === 0) return 0;
  const rows = await ctx.deps.db.selectFrom('webhook_delivery_attempts').select('id').where('delivery_id', 'in', deliveryIds).execute();
  return rows.length;
}

/** Every row of the tables retention must never touch. */
async function moneyAndUsers() {
  const db = ctx.deps.db;
  return {
    intents: await db.selectFrom('intents').selectAll().orderBy('id').execute(),
    charges: await db.selectFrom('charges').selectAll().orderBy('id').execute(),
    refunds: await db.selectFrom('refunds').selectAll().orderBy('id').execute(),
    accounts: await db.selectFrom('ledger_accounts').selectAll().orderBy('id').execute(),
    transfers: await db.selectFrom('ledger_transfers').selectAll().orderBy('id').execute(),
    postings: await db.selectFrom('ledger_postings').selectAll().orderBy('id').execute(),
    users: await db.selectFrom('users').selectAll().orderBy('id').execute(),
    merchants: await db.selectFrom('merchants').selectAll().orderBy('id').execute(),
  };
}

describe('webhook deliveries and events', () => {
  it('past 30 days final deliveries (attempts first) and then the events no delivery names go; pending deliveries, their events and recent ones stay', async () => {
    const okUrl = (await receiver(200)).url;
    const failingUrl = (await receiver(500)).url;
    const a = await endpoint(okUrl);

    // Day 0: a payment, charged and partly refunded, while only endpoint A exists.
    const user = await newUser(ctx, m, { balance: '20000' });
    const paid = await createIntent(ctx, m);
    const token = await authorize(ctx, m, user, paid.id);
    expect((await charge(ctx, user, paid.id, token)).statusCode).toBe(200);
    expect((await call(ctx.app, 'POST', `/gateway/${paid.id}/refunds`, sk(m), { amount: '1000' })).statusCode).toBe(201);
    // Then endpoint B, which fails: the canceled intent's delivery to it stays pending, and is
    // parked once B is disabled.
    const b = await endpoint(failingUrl);
    const canceled = await createIntent(ctx, m);
    expect((await call(ctx.app, 'POST', `/gateway/${canceled.id}/cancel`, sk(m))).statusCode).toBe(200);
    await dispatch();
    expect((await call(ctx.app, 'PATCH', `/webhook-endpoints/${b}`, sk(m), { enabled: false })).statusCode).toBe(200);

    const oldPaidEvents = await eventIdsOf(paid.id);
    const [pendingEvent] = await eventIdsOf(canceled.id);
    expect(oldPaidEvents).toHaveLength(2);
    expect(pendingEvent).toBeDefined();
    const oldDeliveries = await deliveriesOf([...oldPaidEvents, pendingEvent as string]);
    expect(oldDeliveries.map((d) => d.status).sort()).toEqual(['pending', 'succeeded', 'succeeded', 'succeeded']);
    const parked = oldDeliveries.find((d) => d.status === 'pending');
    expect(parked?.endpoint_id).toBe(b);

    // Day 30 less an hour: nothing is old enough yet.
    ctx.clock.advance(30 * DAY - HOUR);
    const early = await purge();
    expect(early).toMatchObject({ deliveryAttempts: 0, deliveries: 0, events: 0 });

    // Day 30 and an hour: a recent payment, delivered to A just now.
    ctx.clock.advance(2 * HOUR);
    await refreshToken(ctx, m, user);
    const recent = await createIntent(ctx, m);
    const recentToken = await authorize(ctx, m, user, recent.id);
    expect((await charge(ctx, user, recent.id, recentToken)).statusCode).toBe(200);
    await dispatch();
    const recentEvents = await eventIdsOf(recent.id);
    const recentDeliveries = await deliveriesOf(recentEvents);
    expect(recentDeliveries.map((d) => d.status)).toEqual(['succeeded']);

    const before = await moneyAndUsers();
    // Batches of 2 rows: the three old final deliveries take two batches.
    const counts = await purge(2);
    expect(counts).toMatchObject({ deliveryAttempts: 3, deliveries: 3, events: 2 });

    // The old final deliveries and their attempts are gone; the parked one keeps its attempt.
    const remaining = await deliveriesOf([...oldPaidEvents, pendingEvent as string, ...recentEvents]);
    expect(remaining.map((d) => d.id)).toEqual([parked?.id, ...recentDeliveries.map((d) => d.id)].sort());
    expect(await attemptsOf([parked?.id as string])).toBe(1);
    expect(await attemptsOf(recentDeliveries.map((d) => d.id))).toBe(1);
    expect(await attemptsOf(oldDeliveries.filter((d) => d.status !== 'pending').map((d) => d.id))).toBe(0);
    // Events: the old ones with nothing pending are gone; the pending delivery's event and the
    // recent one stay, readable and resendable.
    expect(await stillThere('events', [...oldPaidEvents, pendingEvent as string, ...recentEvents])).toEqual([pendingEvent, ...recentEvents].sort());
    problem(await call(ctx.app, 'GET', `/events/${oldPaidEvents[0]}`, sk(m)), 404, 'not_found');
    problem(await call(ctx.app, 'POST', `/events/${oldPaidEvents[0]}/resend`, sk(m)), 404, 'not_found');
    expect((await call(ctx.app, 'GET', `/events/${pendingEvent}`, sk(m))).statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', `/events/${recentEvents[0]}`, sk(m))).json()).toMatchObject({ data: { paymentIntent: { id: recent.id } } });
    const listed = (await call(ctx.app, 'GET', '/events?limit=100', sk(m))).json() as { data: { id: string }[] };
    expect(listed.data.map((e) => e.id)).not.toContain(oldPaidEvents[0]);
    expect(listed.data.map((e) => e.id)).toContain(pendingEvent);
    const parkedView = (await call(ctx.app, 'GET', `/webhook-endpoints/${b}/deliveries`, sk(m))).json() as {
      data: { id: string; status: string; attempts: unknown[] }[];
    };
    expect(parkedView.data).toEqual([expect.objectContaining({ id: parked?.id, status: 'pending', attempts: [expect.anything()] })]);
    const resent = await call(ctx.app, 'POST', `/events/${pendingEvent}/resend`, sk(m), { endpointId: a });
    expect(resent.statusCode, resent.body).toBe(200);

    // Money and users: every row as it was, and the ledger verifies.
    expect(await moneyAndUsers()).toEqual(before);
    await expectLedgerClean(ctx);

    // Years later, once the parked delivery is resolved (B deleted: its deliveries go with it),
    // its event goes too, and the money tables still do not move.
    expect((await call(ctx.app, 'DELETE', `/webhook-endpoints/${b}`, sk(m))).statusCode).toBe(200);
    await dispatch();
    ctx.clock.advance(5 * 365 * DAY);
    await purge();
    expect(await stillThere('events', [pendingEvent as string, ...recentEvents])).toEqual([]);
    expect(await moneyAndUsers()).toEqual(before);
    await expectLedgerClean(ctx);
  });
});

describe('OTP codes, messages, dashboard sessions and sign-in attempts', () => {
  it('OTP codes (used or only expired) and their authorizations go after a day; newer ones stay', async () => {
    const user = await newUser(ctx, m, { balance: '0' });
    await authorize(ctx, m, user); // a code, used, and the authorization it bought
    ctx.clock.advance(31 * SECOND);
    expect((await call(ctx.app, 'POST', '/otp/init', user.creds, { userId: user.id, channel: 'sms' })).statusCode).toBe(200); // sent, never used
    const codesOf = async (userId: string) =>
      (await ctx.deps.db.selectFrom('otp_codes').select('id').where('user_id', '=', userId).orderBy('id').execute()).map((r) => r.id);
    const codes = await codesOf(user.id);
    expect(codes).toHaveLength(2);
    const authorizations = () => ctx.deps.db.selectFrom('otp_authorizations').select('otp_id').where('user_id', '=', user.id).execute();
    expect(await authorizations()).toHaveLength(1);

    ctx.clock.advance(DAY - 2 * MINUTE);
    await purge();
    expect(await stillThere('otp_codes', codes)).toEqual(codes);
    // Another user's code, sent now. (A new code for the same user would make the OTP module
    // forget that user's old codes itself.)
    const other = await newUser(ctx, m, { balance: '0' });
    expect((await call(ctx.app, 'POST', '/otp/init', other.creds, { userId: other.id, channel: 'sms' })).statusCode).toBe(200);
    const fresh = await codesOf(other.id);

    ctx.clock.advance(3 * MINUTE);
    const counts = await purge();
    expect(counts.otpCodes).toBeGreaterThanOrEqual(2);
    expect(await stillThere('otp_codes', codes)).toEqual([]);
    expect(await authorizations()).toEqual([]);
    expect(await stillThere('otp_codes', fresh)).toEqual(fresh);
    expect(await ctx.deps.db.selectFrom('users').select('id').where('id', 'in', [user.id, other.id]).execute()).toHaveLength(2);
  });

  it('daily counts of wrong codes go once their day is past the OTP period (issue 20)', async () => {
    const user = await newUser(ctx, m, { balance: '0' });
    ctx.clock.advance(31 * SECOND);
    expect((await call(ctx.app, 'POST', '/otp/init', user.creds, { userId: user.id, channel: 'sms' })).statusCode).toBe(200);
    expect((await call(ctx.app, 'POST', '/otp/verify', user.creds, { userId: user.id, otp: 'nope' })).statusCode).toBe(400);
    const rows = () => ctx.deps.db.selectFrom('otp_daily_failures').select('failures').where('user_id', '=', user.id).execute();
    expect(await rows()).toEqual([{ failures: 1 }]);
    ctx.clock.advance(DAY);
    await purge();
    expect(await rows()).toHaveLength(1);
    ctx.clock.advance(DAY);
    expect((await purge()).otpDailyFailures).toBeGreaterThanOrEqual(1);
    expect(await rows()).toEqual([]);
  });

  it('messages, the test outbox and live records alike, go after 7 days, in batches of the given size', async () => {
    const send = (mode: 'test' | 'live') =>
      ctx.services.messaging.send({ merchantId: m.merchantId, mode, userId: null, channel: 'email', to: 'someone@example.com', body: 'Hello' });
    const old = [await send('test'), await send('live'), await send('test'), await send('test'), await send('live')].map((s) => s.id);
    ctx.clock.advance(7 * DAY - MINUTE);
    const young = (await send('test')).id;
    await purge();
    expect(await stillThere('messages', old)).toEqual([...old].sort());

    ctx.clock.advance(2 * MINUTE);
    // One batch takes at most its size…
    const cutoff = new Date(ctx.clock.now().getTime() - 7 * DAY);
    expect(await ctx.services.messaging.purgeBefore(cutoff, 2)).toBe(2);
    // …and a round runs batches until a short one.
    const counts = await purge(2);
    expect(counts.messages).toBeGreaterThanOrEqual(3);
    expect(await stillThere('messages', [...old, young])).toEqual([young]);
    const outbox = (await call(ctx.app, 'GET', '/test/messages?limit=100', sk(m))).json() as { data: { id: string }[] };
    expect(outbox.data.map((x) => x.id)).toContain(young);
    expect(outbox.data.map((x) => x.id)).not.toContain(old[0]);
  });

  it('expired dashboard sessions go at once, sign-in attempts after a day; a live session keeps working', async () => {
    // Two merchants' dashboard users: a sign-in also forgets the signing-in user's own expired
    // sessions, so the expired session and the live one belong to different users.
    const m2 = await createMerchant(ctx, 'Keeper Two');
    const login = (who: TestMerchant, password = who.dashboard.password) =>
      call(ctx.app, 'POST', '/dashboard/api/login', {}, { email: who.dashboard.email, password });
    const cookieOf = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0] as string;
    const sessionWith = (cookie: string) => call(ctx.app, 'GET', '/dashboard/api/session', { headers: { cookie } });
    const first = await login(m);
    expect(first.statusCode, first.body).toBe(200);
    expect((await call(ctx.app, 'POST', '/dashboard/api/login', {}, { email: 'ghost@example.com', password: 'wrong' })).statusCode).toBe(401);
    const sessions = () => ctx.deps.db.selectFrom('dashboard_sessions').select('token_hash').execute();
    const attempts = () => ctx.deps.db.selectFrom('throttle_attempts').select('id').execute();
    // One failed sign-in: counted per e-mail and address, and per e-mail.
    expect(await attempts()).toHaveLength(2);

    // 31 minutes idle: the first session has expired. Another user signs in.
    ctx.clock.advance(31 * MINUTE);
    const second = await login(m2);
    expect(second.statusCode).toBe(200);
    expect(await sessions()).toHaveLength(2);
    const counts = await purge();
    expect(counts.dashboardSessions).toBe(1);
    expect(await sessions()).toHaveLength(1);
    expect((await sessionWith(cookieOf(second))).statusCode).toBe(200);
    expect((await sessionWith(cookieOf(first))).statusCode).toBe(401);
    expect(await attempts()).toHaveLength(2);

    ctx.clock.advance(DAY);
    expect(await purge()).toMatchObject({ dashboardSessions: 1, throttleAttempts: 2 });
    expect(await attempts()).toHaveLength(0);
    expect(await sessions()).toHaveLength(0);
  });
});

describe("end users' failed sign-ins", () => {
  it("a successful sign-in forgets only its own phone's failures; the rest go after a day", async () => {
    const alice = await newUser(ctx, m);
    const bob = await newUser(ctx, m);
    const signIn = (phoneNumber: string, password: string) => call(ctx.app, 'POST', '/auth/web', { apiKey: m.apiKey }, { phoneNumber, password });
    // Sign-in failures are kept by the SHA-256 of their subjects (per number and address, and per
    // number), never the phone number itself.
    const subjects = (phone: string) => [`login:test:${phone}@127.0.0.1`, `login:test:${phone}`].map((s) => sha256(s).toString('hex'));
    const phones = (list: string[]) => list.flatMap(subjects).sort();
    const failures = async () =>
      (await ctx.deps.db.selectFrom('throttle_attempts').select('subject_hash').execute()).map((r) => r.subject_hash.toString('hex')).sort();
    expect((await signIn(alice.phoneNumber, 'not-the-password')).statusCode).toBe(401);
    expect((await signIn(bob.phoneNumber, 'not-the-password')).statusCode).toBe(401);
    expect((await signIn('+237699000111', 'nobody-has-this')).statusCode).toBe(401);
    expect(await failures()).toEqual(phones([alice.phoneNumber, bob.phoneNumber, '+237699000111']));

    // Two hours on, Alice signs in: her failure goes, Bob's and the unknown phone's stay.
    ctx.clock.advance(2 * HOUR);
    const good = await signIn(alice.phoneNumber, PASSWORD);
    expect(good.statusCode, good.body).toBe(200);
    expect(await failures()).toEqual(phones([bob.phoneNumber, '+237699000111']));
    expect((await purge()).throttleAttempts).toBe(0);

    ctx.clock.advance(DAY);
    expect((await purge()).throttleAttempts).toBe(4);
    expect(await failures()).toEqual([]);
    await expectLedgerClean(ctx);
  });
});

describe('the retention worker', () => {
  it('is one of the background workers, runs rounds, and stops at once while it waits', async () => {
    const rounds: (PurgeCounts | undefined)[] = [];
    let roundDone: () => void = () => {};
    const firstRound = new Promise<void>((resolve) => (roundDone = resolve));
    const worker = startRetention(ctx.deps, ctx.services, createLogger({ level: 'silent' }), {
      firstRoundMs: 0,
      intervalMs: HOUR,
      onRound: (counts) => {
        rounds.push(counts);
        roundDone();
      },
    });
    expect(worker.name).toBe('retention');
    await firstRound;
    expect(rounds).toHaveLength(1);
    expect(rounds[0]).toBeDefined();
    // The next round is an hour away: stop() does not wait for it.
    const started = performance.now();
    await worker.stop();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(rounds).toHaveLength(1);
  });

  it('takes its periods from the environment', () => {
    const base = { CAISSE_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'), CAISSE_DATA_DIR: '/tmp/caisse-retention-test' };
    expect(loadConfig(base).retention).toEqual({ eventsDays: 30, otpDays: 1, messagesDays: 7, cardholderDays: 120 });
    expect(loadConfig({ ...base, CAISSE_RETENTION_EVENTS_DAYS: '90', CAISSE_RETENTION_OTP_DAYS: '2', CAISSE_RETENTION_MESSAGES_DAYS: '14' }).retention).toEqual(
      { eventsDays: 90, otpDays: 2, messagesDays: 14, cardholderDays: 120 },
    );
    for (const variable of ['CAISSE_RETENTION_EVENTS_DAYS', 'CAISSE_RETENTION_OTP_DAYS', 'CAISSE_RETENTION_MESSAGES_DAYS']) {
      expect(() => loadConfig({ ...base, [variable]: '0' })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, [variable]: 'a week' })).toThrow(new RegExp(variable));
    }
  });
});
