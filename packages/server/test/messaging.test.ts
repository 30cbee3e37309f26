import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createMessagingService } from '../src/modules/messaging/messaging.service.ts';
import { transportsFromConfig } from '../src/modules/messaging/messaging.service.ts';
import { warnWithoutSms } from '../src/runtime.ts';
import { createMerchant, createTestContext, TEST_MASTER_KEY, type TestContext, type TestMerchant } from './harness.ts';

/**
 * Messaging against real components: an SMTP listener (smtp-server) that receives the e-mail, and
 * a local HTTP server that checks the Africa's Talking request shape. Test mode never reaches a
 * provider.
 */
let ctx: TestContext;
let m: TestMerchant;

// --- a real SMTP listener -------------------------------------------------------------------
interface Received {
  from: string;
  to: string[];
  raw: string;
  user: string | undefined;
}
const mails: Received[] = [];
let smtp: SMTPServer;
let smtpPort: number;

// --- a stand-in for Africa's Talking ---------------------------------------------------------
interface AtRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}
const atRequests: AtRequest[] = [];
let atAnswer: { status: number; body: unknown } = { status: 201, body: {} };
let at: Server;
let atUrl: string;

const AT_KEY = 'atsk_0123456789abcdef0123456789abcdef';
const SMTP_PASSWORD = 'smtp-pass-very-secret';

beforeAll(async () => {
  ctx = await createTestContext();
  m = await createMerchant(ctx, 'Alpha');

  smtp = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, cb) {
      if (auth.username === 'caisse' && auth.password === SMTP_PASSWORD) cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpPort = (smtp.server.address() as AddressInfo).port;

  at = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      atRequests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, form: new URLSearchParams(body) });
      res.writeHead(atAnswer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(atAnswer.body));
    });
  });
  await new Promise<void>((resolve) => at.listen(0, '127.0.0.1', () => resolve()));
  atUrl = `http://127.0.0.1:${(at.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  at.closeAllConnections();
  await new Promise<void>((resolve) => at.close(() => resolve()));
  await ctx.close();
});

function liveConfig(extra: Record<string, string>) {
  return loadConfig({
    CAISSE_MASTER_KEY: TEST_MASTER_KEY,
    CAISSE_DATA_DIR: '/tmp/caisse-test-unused',
    CAISSE_SMS_PROVIDER: 'africastalking',
    AFRICASTALKING_USERNAME: 'caisse-shop',
    AFRICASTALKING_API_KEY: AT_KEY,
    AFRICASTALKING_SENDER_ID: 'CAISSE',
    AFRICASTALKING_URL: atUrl,
    CAISSE_EMAIL_PROVIDER: 'smtp',
    SMTP_URL: `smtp://caisse:${SMTP_PASSWORD}@127.0.0.1:${smtpPort}`,
    CAISSE_MAIL_FROM: 'Boutique Douala <no-reply@boutique.cm>',
    ...extra,
  });
}

/** Production with an SMS provider and no e-mail provider. */
const prod = (extra: Record<string, string>) =>
  loadConfig({
    CAISSE_MASTER_KEY: TEST_MASTER_KEY,
    CAISSE_MODE: 'production',
    DATABASE_URL: 'postgres://db/x',
    CAISSE_SMS_PROVIDER: 'africastalking',
    AFRICASTALKING_USERNAME: 'u',
    AFRICASTALKING_API_KEY: 'k',
    ...extra,
  });

function messagingWith(config = liveConfig({})) {
  return createMessagingService({ ...ctx.deps, config }, transportsFromConfig(config));
}

const accepted = (messageId = 'ATXid_1') => ({
  status: 201,
  body: {
    SMSMessageData: {
      Message: 'Sent to 1/1 Total Cost: XAF 15',
      Recipients: [{ statusCode: 101, number: '+237650000001', status: 'Success', cost: 'XAF 15', messageId }],
    },
  },
});

describe('SMTP', () => {
  it('a live e-mail is delivered to a real SMTP listener, authenticated, from the configured address', async () => {
    const messaging = messagingWith();
    const sent = await messaging.send({
      merchantId: m.merchantId,
      mode: 'live',
      userId: 'usr_1',
      channel: 'email',
      to: 'awa@example.cm',
      subject: 'Your code',
      body: 'Your code is 482913.',
    });
    expect(sent).toMatchObject({ provider: 'smtp', status: 'sent' });
    expect(mails).toHaveLength(1);
    const mail = mails[0] as Received;
    expect(mail.from).toBe('no-reply@boutique.cm');
    expect(mail.to).toEqual(['awa@example.cm']);
    expect(mail.user).toBe('caisse');
    expect(mail.raw).toMatch(/^Subject: Your code/m);
    expect(mail.raw).toContain('Your code is 482913.');
    // The stored row keeps no text (it holds a code).
    const row = await ctx.deps.db.selectFrom('messages').selectAll().where('id', '=', sent.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ provider: 'smtp', status: 'sent', body: null, channel: 'email', recipient: 'awa@example.cm' });
    expect(row.provider_ref).toMatch(/@/);
  });

  it('the transport, loaded with the first e-mail, carries the next ones too', async () => {
    const messaging = messagingWith();
    const before = mails.length;
    const send = (userId: string, to: string) =>
      messaging.send({ merchantId: m.merchantId, mode: 'live', userId, channel: 'email', to, subject: 'Code', body: `Code for ${to}` });
    // Two at once: both wait for the one transport the first one loads.
    const sent = await Promise.all([send('usr_smtp_1', 'c@example.cm'), send('usr_smtp_2', 'd@example.cm')]);
    expect(sent).toMatchObject([{ status: 'sent' }, { status: 'sent' }]);
    expect(await send('usr_smtp_3', 'e@example.cm')).toMatchObject({ status: 'sent' });
    expect(
      mails
        .slice(before)
        .map((mail) => mail.to)
        .sort(),
    ).toEqual([['c@example.cm'], ['d@example.cm'], ['e@example.cm']]);
  });

  it('wrong SMTP credentials: 503 unavailable, the row marked failed, no secret in the error', async () => {
    const messaging = messagingWith(liveConfig({ SMTP_URL: `smtp://caisse:wrong-password@127.0.0.1:${smtpPort}` }));
    const before = mails.length;
    const err = await messaging
      .send({ merchantId: m.merchantId, mode: 'live', userId: 'usr_2', channel: 'email', to: 'b@example.cm', body: 'Code 1' })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'unavailable', status: 503 });
    expect(String(err.message)).not.toContain('wrong-password');
    expect(mails.length).toBe(before);
    const row = await ctx.deps.db.selectFrom('messages').selectAll().where('user_id', '=', 'usr_2').executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
  });
});

describe("Africa's Talking SMS", () => {
  it('posts the documented form with the apiKey header, and records the message id', async () => {
    atAnswer = accepted('ATXid_42');
    const messaging = messagingWith();
    const sent = await messaging.send({
      merchantId: m.merchantId,
      mode: 'live',
      userId: 'usr_3',
      channel: 'sms',
      to: '+237650000001',
      body: 'Your code is 123456.',
    });
    expect(sent).toMatchObject({ provider: 'africastalking', status: 'sent' });
    const req = atRequests.at(-1) as AtRequest;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/version1/messaging');
    expect(req.headers.apikey).toBe(AT_KEY);
    expect(req.headers.accept).toBe('application/json');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(req.form)).toEqual({ username: 'caisse-shop', to: '+237650000001', message: 'Your code is 123456.', from: 'CAISSE' });
    const row = await ctx.deps.db.selectFrom('messages').selectAll().where('id', '=', sent.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', provider_ref: 'ATXid_42', body: null });
  });

  it('a recipient refused by the provider, or an HTTP error, is 503 unavailable without the key', async () => {
    const messaging = messagingWith();
    atAnswer = {
      status: 201,
      body: { SMSMessageData: { Message: 'Sent to 0/1', Recipients: [{ statusCode: 403, number: '+237650000002', status: 'InvalidPhoneNumber' }] } },
    };
    const refused = await messaging
      .send({ merchantId: m.merchantId, mode: 'live', userId: 'usr_4', channel: 'sms', to: '+237650000002', body: 'x' })
      .catch((e) => e);
    expect(refused).toMatchObject({ code: 'unavailable' });
    atAnswer = { status: 401, body: 'The supplied authentication is invalid' };
    const unauthorised = await messaging
      .send({ merchantId: m.merchantId, mode: 'live', userId: 'usr_4', channel: 'sms', to: '+237650000002', body: 'x' })
      .catch((e) => e);
    expect(unauthorised).toMatchObject({ code: 'unavailable' });
    expect(JSON.stringify(unauthorised)).not.toContain(AT_KEY);
    const rows = await ctx.deps.db.selectFrom('messages').select('status').where('user_id', '=', 'usr_4').execute();
    expect(rows.map((r) => r.status)).toEqual(['failed', 'failed']);
  });

  it('the sandbox username selects the sandbox host by default', () => {
    const config = loadConfig({
      CAISSE_MASTER_KEY: TEST_MASTER_KEY,
      CAISSE_DATA_DIR: '/tmp/x',
      CAISSE_SMS_PROVIDER: 'africastalking',
      AFRICASTALKING_USERNAME: 'sandbox',
      AFRICASTALKING_API_KEY: 'k',
    });
    expect(config.messaging.sms).toMatchObject({ provider: 'africastalking', url: 'https://api.sandbox.africastalking.com' });
    const live = loadConfig({
      CAISSE_MASTER_KEY: TEST_MASTER_KEY,
      CAISSE_DATA_DIR: '/tmp/x',
      CAISSE_SMS_PROVIDER: 'africastalking',
      AFRICASTALKING_USERNAME: 'shop',
      AFRICASTALKING_API_KEY: 'k',
    });
    expect(live.messaging.sms).toMatchObject({ url: 'https://api.africastalking.com', senderId: undefined });
  });
});

describe('test mode', () => {
  it('never reaches a provider, whatever is configured: the message goes to the outbox with its text', async () => {
    atAnswer = accepted();
    const messaging = messagingWith();
    const smsBefore = atRequests.length;
    const mailBefore = mails.length;
    const sms = await messaging.send({
      merchantId: m.merchantId,
      mode: 'test',
      userId: 'usr_5',
      channel: 'sms',
      to: '+237650000005',
      body: 'Your code is 555555.',
    });
    ctx.clock.advance(1);
    const email = await messaging.send({
      merchantId: m.merchantId,
      mode: 'test',
      userId: 'usr_5',
      channel: 'email',
      to: 'c@example.cm',
      body: 'Your code is 666666.',
    });
    expect([sms.provider, email.provider]).toEqual(['outbox', 'outbox']);
    expect(atRequests.length).toBe(smsBefore);
    expect(mails.length).toBe(mailBefore);
    const list = await messaging.list({ merchantId: m.merchantId, mode: 'test', userId: 'usr_5', limit: 10 });
    expect(list.data.map((x) => x.body)).toEqual(['Your code is 666666.', 'Your code is 555555.']);
  });

  it('live mode with no provider configured uses the outbox (the development default)', async () => {
    const config = loadConfig({ CAISSE_MASTER_KEY: TEST_MASTER_KEY, CAISSE_DATA_DIR: '/tmp/x' });
    expect(config.messaging).toEqual({ sms: { provider: 'outbox' }, email: { provider: 'outbox' } });
    const sent = await messagingWith(config).send({ merchantId: m.merchantId, mode: 'live', userId: 'usr_6', channel: 'sms', to: '+237650000006', body: 'hi' });
    expect(sent.provider).toBe('outbox');
  });
});

describe('live codes in the outbox (issue 20)', () => {
  const dev = () => loadConfig({ CAISSE_MASTER_KEY: TEST_MASTER_KEY, CAISSE_DATA_DIR: '/tmp/x' });

  it('a live outbox row keeps the text without its code; a test-mode row keeps it whole', async () => {
    const messaging = messagingWith(dev());
    const body = 'Your code is 482913. It expires in 5 minutes.';
    await messaging.send({ merchantId: m.merchantId, mode: 'live', userId: 'usr_7', channel: 'sms', to: '+237650000007', body, code: '482913' });
    ctx.clock.advance(1);
    await messaging.send({ merchantId: m.merchantId, mode: 'live', userId: 'usr_7', channel: 'email', to: 'd@example.cm', body, code: '482913' });
    ctx.clock.advance(1);
    await messaging.send({ merchantId: m.merchantId, mode: 'test', userId: 'usr_7', channel: 'sms', to: '+237650000007', body, code: '482913' });
    const rows = await ctx.deps.db.selectFrom('messages').select(['mode', 'body']).where('user_id', '=', 'usr_7').orderBy('id').execute();
    expect(rows).toEqual([
      { mode: 'live', body: 'Your code is [code withheld]. It expires in 5 minutes.' },
      { mode: 'live', body: 'Your code is [code withheld]. It expires in 5 minutes.' },
      { mode: 'test', body },
    ]);
  });

  it('production without CAISSE_LIVE_OUTBOX=allow: a live message with no provider is 503, never stored', async () => {
    const email = {
      merchantId: m.merchantId,
      mode: 'live' as const,
      userId: 'usr_8',
      channel: 'email' as const,
      to: 'e@example.cm',
      body: 'Your code is 918273.',
      code: '918273',
    };
    const err = await messagingWith(prod({}))
      .send(email)
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'unavailable', detail: 'No e-mail provider is configured for live mode' });
    expect(await ctx.deps.db.selectFrom('messages').select('id').where('user_id', '=', 'usr_8').execute()).toEqual([]);
    // A staging deployment may keep them, still without the code.
    await messagingWith(prod({ CAISSE_LIVE_OUTBOX: 'allow' })).send(email);
    expect(await ctx.deps.db.selectFrom('messages').select('body').where('user_id', '=', 'usr_8').execute()).toEqual([
      { body: 'Your code is [code withheld].' },
    ]);
  });

  it('production without an SMS provider starts; the first live code it would send is 503 naming the variable (issue 54)', async () => {
    const config = loadConfig({ CAISSE_MASTER_KEY: TEST_MASTER_KEY, CAISSE_MODE: 'production', DATABASE_URL: 'postgres://db/x' });
    const sms = {
      merchantId: m.merchantId,
      mode: 'live' as const,
      userId: 'usr_9',
      channel: 'sms' as const,
      to: '+237650000009',
      body: 'Your code is 1234.',
      code: '1234',
    };
    const err = await messagingWith(config)
      .send(sms)
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'unavailable' });
    expect(err.detail).toMatch(/No SMS provider .*wallet.*CAISSE_SMS_PROVIDER/);
    expect(await ctx.deps.db.selectFrom('messages').select('id').where('user_id', '=', 'usr_9').execute()).toEqual([]);
    // Test mode keeps using the outbox: a production server without SMS still takes test payments.
    expect((await messagingWith(config).send({ ...sms, mode: 'test' })).provider).toBe('outbox');
    // The start says so once, naming the variable; a staging server (CAISSE_LIVE_OUTBOX=allow) or one with a provider does not.
    const warned: unknown[][] = [];
    const logger = { warn: (...args: unknown[]) => void warned.push(args) };
    expect(warnWithoutSms(config, logger)).toBe(true);
    expect(warned).toEqual([[{ variable: 'CAISSE_SMS_PROVIDER' }, expect.stringMatching(/^no SMS provider: live wallet payments/)]]);
    expect(warnWithoutSms(prod({}), logger)).toBe(false);
    expect(
      warnWithoutSms(
        loadConfig({ CAISSE_MASTER_KEY: TEST_MASTER_KEY, CAISSE_MODE: 'production', DATABASE_URL: 'postgres://db/x', CAISSE_LIVE_OUTBOX: 'allow' }),
        logger,
      ),
    ).toBe(false);
    expect(warned.length).toBe(1);
  });
});

describe('proofs of control (issue 52)', () => {
  const proof = (to: string) => ({
    merchantId: m.merchantId,
    userId: null,
    channel: 'email' as const,
    to,
    subject: 'Confirm',
    body: 'Open https://pay.example/dashboard/verify-email?token=ver_abc',
    code: 'ver_abc',
  });

  it('without SMTP: the operator outbox keeps the link (development only), never the merchant test outbox', async () => {
    const dev = loadConfig({ CAISSE_MASTER_KEY: TEST_MASTER_KEY, CAISSE_DATA_DIR: '/tmp/x' });
    const sent = await messagingWith(dev).sendProof(proof('proof-dev@example.cm'));
    expect(sent).toMatchObject({ provider: 'outbox', status: 'stored' });
    const outbox = await ctx.services.messaging.listForOperators({ to: 'PROOF-DEV@example.cm' });
    expect(outbox.data.map((x) => x.body)).toEqual(['Open https://pay.example/dashboard/verify-email?token=ver_abc']);
    for (const mode of ['test', 'live'] as const) {
      const merchant = await ctx.services.messaging.list({ merchantId: m.merchantId, mode, limit: 100 });
      expect(merchant.data.some((x) => x.to === 'proof-dev@example.cm')).toBe(false);
    }
    // A staging deployment (production with CAISSE_LIVE_OUTBOX=allow) keeps it without the link.
    await messagingWith(prod({ CAISSE_LIVE_OUTBOX: 'allow' })).sendProof(proof('proof-staging@example.cm'));
    expect((await ctx.services.messaging.listForOperators({ to: 'proof-staging@example.cm' })).data[0]?.body).toBe(
      'Open https://pay.example/dashboard/verify-email?token=[code withheld]',
    );
  });

  it('with SMTP: sent, and the operator outbox lists nothing', async () => {
    const before = mails.length;
    const sent = await messagingWith().sendProof(proof('proof-smtp@example.cm'));
    expect(sent).toMatchObject({ provider: 'smtp', status: 'sent' });
    expect(mails.length).toBe(before + 1);
    expect((await ctx.services.messaging.listForOperators({ to: 'proof-smtp@example.cm' })).data).toEqual([]);
  });
});

describe('configuration', () => {
  const base = { CAISSE_MASTER_KEY: TEST_MASTER_KEY, CAISSE_DATA_DIR: '/tmp/caisse-config-test' };
  const errorOf = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
    } catch (err) {
      return err as ConfigError;
    }
    throw new Error('expected a ConfigError');
  };

  it.each([
    [{ CAISSE_SMS_PROVIDER: 'twilio' }, 'CAISSE_SMS_PROVIDER'],
    [{ CAISSE_SMS_PROVIDER: 'africastalking', AFRICASTALKING_API_KEY: 'k' }, 'AFRICASTALKING_USERNAME'],
    [{ CAISSE_SMS_PROVIDER: 'africastalking', AFRICASTALKING_USERNAME: 'u' }, 'AFRICASTALKING_API_KEY'],
    [{ CAISSE_SMS_PROVIDER: 'africastalking', AFRICASTALKING_USERNAME: 'u', AFRICASTALKING_API_KEY: 'k', AFRICASTALKING_URL: 'ftp://x' }, 'AFRICASTALKING_URL'],
    [
      { CAISSE_SMS_PROVIDER: 'africastalking', AFRICASTALKING_USERNAME: 'u', AFRICASTALKING_API_KEY: 'k', AFRICASTALKING_SENDER_ID: 'much too long a sender' },
      'AFRICASTALKING_SENDER_ID',
    ],
    [{ CAISSE_EMAIL_PROVIDER: 'sendmail' }, 'CAISSE_EMAIL_PROVIDER'],
    [{ CAISSE_EMAIL_PROVIDER: 'smtp' }, 'SMTP_URL'],
    [{ CAISSE_EMAIL_PROVIDER: 'smtp', SMTP_URL: 'http://mail.example.cm' }, 'SMTP_URL'],
    [{ CAISSE_EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://mail.example.cm', CAISSE_MAIL_FROM: 'not an address' }, 'CAISSE_MAIL_FROM'],
  ])('%o is refused naming %s', (env, variable) => {
    const err = errorOf(env);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.variable).toBe(variable);
  });

  it('never puts a provider secret in a configuration error', () => {
    const err = errorOf({ CAISSE_SMS_PROVIDER: 'africastalking', AFRICASTALKING_USERNAME: 'u', AFRICASTALKING_API_KEY: AT_KEY, AFRICASTALKING_URL: 'nope' });
    expect(err.message).not.toContain(AT_KEY);
  });
});
