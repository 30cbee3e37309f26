import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { firstIdAt } from '../../platform/ids.ts';
import { ApiError } from '../../platform/errors.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import { africasTalkingSms, type EmailTransport, ProviderError, type SmsTransport, smtpEmail } from './messaging.providers.ts';
import { type Audience, type Channel, type MessageRow, type MessageStatus, messagesRepository as repo } from './messaging.repository.ts';

export type { Channel } from './messaging.repository.ts';

/**
 * A message that proves control of its recipient's address (a sign-up link, a password reset, an
 * invitation, the notice of a sign-up tried with an address): it never lands where anyone but the
 * address's owner and the platform's operators reads it, so it carries no mode.
 */
export type ProofMessage = Omit<OutgoingMessage, 'mode'>;

export interface OutgoingMessage {
  /** Null: the customer's own account page sends it, for no merchant. */
  merchantId: string | null;
  mode: KeyMode;
  userId: string | null;
  channel: Channel;
  /** E.164 phone number for sms, address for email. */
  to: string;
  body: string;
  /** E-mail subject (sms ignores it). */
  subject?: string;
  /** The one-time code the body carries, if any: a live outbox row keeps the text without it. */
  code?: string;
}

export interface SentMessage {
  id: string;
  provider: string;
  status: MessageStatus;
}

/** A message written in the caller's transaction, to hand to its provider once that committed. */
export interface StagedMessage {
  /** Kept in the outbox (test mode, or no provider): nothing is left to do after the commit. */
  readonly stored: boolean;
  /** `outbox`, or the transport that will carry it (`smtp`, `africastalking`). */
  readonly provider: string;
  /** Hands it to its provider: 503 `unavailable` when the provider does not take it. */
  deliver(): Promise<SentMessage>;
}

/** What the OTP and registration code use to reach a user. */
export interface MessageSender {
  send(message: OutgoingMessage): Promise<SentMessage>;
  /**
   * Writes the message's row in `executor`'s transaction (with the code it carries, the row
   * commits or rolls back with it); the provider is called by `deliver`, after the commit.
   */
  stage(executor: Executor, message: OutgoingMessage): Promise<StagedMessage>;
}

export interface MessageView {
  id: string;
  object: 'message';
  userId: string | null;
  channel: Channel;
  to: string;
  body: string | null;
  provider: string;
  status: MessageStatus;
  createdAt: string;
}

export function messageView(m: MessageRow): MessageView {
  return {
    id: m.id,
    object: 'message',
    userId: m.user_id,
    channel: m.channel,
    to: m.recipient,
    body: m.body,
    provider: m.provider,
    status: m.status,
    createdAt: m.created_at.toISOString(),
  };
}

export interface Transports {
  sms?: SmsTransport;
  email?: EmailTransport;
}

/** The live-mode transports the configuration names; undefined means the outbox. */
export function transportsFromConfig(config: Deps['config']): Transports {
  const { sms, email } = config.messaging;
  return {
    sms: sms.provider === 'africastalking' ? africasTalkingSms(sms) : undefined,
    email: email.provider === 'smtp' ? smtpEmail(email) : undefined,
  };
}

/** What stands for the code in a live outbox row. */
export const WITHHELD_CODE = '[code withheld]';

/**
 * An SMS's text as sent: the no-break spaces Intl writes in French amounts ("5 000 FCFA") become
 * plain ones, which the GSM 7-bit alphabet has; one character outside it would make the message
 * UCS-2, 70 characters a part instead of 160.
 */
export function smsBody(text: string): string {
  return text.replace(/[\u00a0\u202f]/g, ' ');
}

/**
 * Sends SMS and e-mail. Test mode always writes into the outbox (never a real message); live mode
 * uses the configured provider of the channel, or the outbox when none is configured (in
 * production only with CAISSE_LIVE_OUTBOX=allow; otherwise 503 `unavailable`). Every message gets
 * a row; only outbox rows keep their text, since a message carries a code, and a live one keeps it
 * without its code.
 */
export function createMessagingService(deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>, transports: Transports = transportsFromConfig(deps.config)) {
  const { db, clock, ids } = deps;

  async function stage(executor: Executor, sent: OutgoingMessage, audience: Audience = 'merchant'): Promise<StagedMessage> {
    const message = sent.channel === 'sms' ? { ...sent, body: smsBody(sent.body) } : sent;
    const transport = message.mode === 'test' ? undefined : message.channel === 'sms' ? transports.sms : transports.email;
    const id = ids('message');
    const row = {
      id,
      merchant_id: message.merchantId,
      mode: message.mode,
      user_id: message.userId,
      channel: message.channel,
      recipient: message.to,
      provider_ref: null,
      created_at: clock.now(),
    };
    if (!transport) {
      const live = message.mode === 'live';
      if (live && deps.config.mode === 'production' && !deps.config.hardening.liveOutbox) {
        // A production server may run without an SMS provider when its merchants offer no wallet
        // payment (docs/decisions/0076-going-live.md): the first live code that needs one stops here.
        throw new ApiError(
          'unavailable',
          message.channel === 'sms'
            ? 'No SMS provider is configured for live mode: this server cannot send the codes of the Caisse wallet (CAISSE_SMS_PROVIDER)'
            : 'No e-mail provider is configured for live mode',
        );
      }
      // The operator outbox keeps a proof's link where nobody else reads it, in development only.
      const withhold = live && message.code && (audience === 'merchant' || deps.config.mode === 'production');
      const body = withhold ? message.body.replaceAll(message.code as string, WITHHELD_CODE) : message.body;
      await repo.insert(executor, { ...row, audience, body, provider: 'outbox', status: 'stored' });
      const stored: SentMessage = { id, provider: 'outbox', status: 'stored' };
      return { stored: true, provider: 'outbox', deliver: async () => stored };
    }
    // Written as failed: it says "sent" only once the provider took it.
    await repo.insert(executor, { ...row, audience, body: null, provider: transport.name, status: 'failed' });
    return {
      stored: false,
      provider: transport.name,
      async deliver() {
        try {
          const { ref } =
            message.channel === 'sms'
              ? await (transport as SmsTransport).send(message.to, message.body)
              : await (transport as EmailTransport).send(message.to, message.subject ?? 'Your code', message.body);
          await repo.finish(db, id, 'sent', ref);
          return { id, provider: transport.name, status: 'sent' };
        } catch (err) {
          if (err instanceof ProviderError) throw new ApiError('unavailable', `The ${message.channel} provider did not take the message; try again later`);
          throw err;
        }
      },
    };
  }

  async function send(message: OutgoingMessage): Promise<SentMessage> {
    return (await stage(db, message)).deliver();
  }

  /**
   * Stages a proof of control (ProofMessage): through the channel's real transport when one is
   * configured; else into the operator outbox (development; production only with
   * CAISSE_LIVE_OUTBOX=allow, and then without its code), never into a merchant's test outbox.
   */
  function stageProof(executor: Executor, message: ProofMessage): Promise<StagedMessage> {
    return stage(executor, { ...message, mode: 'live' }, 'operator');
  }

  return {
    /** Retention: deletes up to `limit` messages created before `before`. Returns how many. */
    purgeBefore: (before: Date, limit: number) => repo.purgeBefore(db, before, firstIdAt('message', before), limit),
    send,
    stage,
    stageProof,
    /** Sends a proof of control at once (stageProof, then deliver). */
    sendProof: async (message: ProofMessage): Promise<SentMessage> => (await stageProof(db, message)).deliver(),

    /** The operator outbox (proofs of control stored without a transport), newest first. */
    async listForOperators(q: { to?: string; startingAfter?: string; limit?: number }) {
      const limit = q.limit ?? 20;
      const rows = await repo.listForOperators(db, { ...q, to: q.to?.trim().toLowerCase(), limit: limit + 1 });
      return { data: rows.slice(0, limit).map(messageView), hasMore: rows.length > limit };
    },

    async list(q: { merchantId: string; mode: KeyMode; userId?: string; startingAfter?: string; limit?: number }) {
      const limit = q.limit ?? 20;
      const rows = await repo.list(db, { ...q, limit: limit + 1 });
      return { data: rows.slice(0, limit).map(messageView), hasMore: rows.length > limit };
    },

    /** When messages went to this user on this channel since `since` (failed ones excluded). */
    sentSince(q: { merchantId: string; mode: KeyMode; userId: string; channel: Channel; since: Date }): Promise<Date[]> {
      return repo.sentSince(db, q);
    },
  };
}

export type MessagingService = ReturnType<typeof createMessagingService>;
