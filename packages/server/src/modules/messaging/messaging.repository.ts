import { type ColumnType, type Insertable, type Selectable, sql } from 'kysely';
import type { Executor } from '../../platform/db.ts';
import { prepare, prepareByFields } from '../../platform/prepared.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

export type Channel = 'sms' | 'email';
export type MessageStatus = 'stored' | 'sent' | 'failed';
/**
 * Who may read an outbox row: the merchant (test mode's outbox) or only the platform's operators
 * (a message that proves control of an address: the console's outbox, `caisse messages list`).
 */
export type Audience = 'merchant' | 'operator';

export interface MessagesTable {
  id: string;
  /** Null for a message of no merchant's (the customer's own account page). */
  merchant_id: string | null;
  mode: KeyMode;
  user_id: string | null;
  channel: Channel;
  recipient: string;
  body: string | null;
  provider: string;
  status: MessageStatus;
  provider_ref: string | null;
  created_at: Date;
  audience: ColumnType<Audience, Audience | undefined, never>;
}

declare module '../../platform/database.ts' {
  interface Database {
    messages: MessagesTable;
  }
}

export type MessageRow = Selectable<MessagesTable>;

// On every code sent: compiled once (platform/prepared.ts). In the code's transaction nobody
// reads its answer: it rides with the COMMIT.
const insertMessage = prepare(
  (db, p: Insertable<MessagesTable>) =>
    db.insertInto('messages').values({
      id: p.id,
      merchant_id: p.merchant_id,
      mode: p.mode,
      user_id: p.user_id,
      channel: p.channel,
      recipient: p.recipient,
      body: p.body,
      provider: p.provider,
      status: p.status,
      provider_ref: p.provider_ref,
      created_at: p.created_at,
      audience: p.audience,
    }),
  { deferred: true },
);

// The test outbox is read once per payment in tests and the bench: compiled once per filter.
const listMessages = prepareByFields((db, p: { merchantId: string; mode: KeyMode; userId?: string; startingAfter?: string; limit: number }, fields) => {
  let query = db.selectFrom('messages').selectAll().where('merchant_id', '=', p.merchantId).where('mode', '=', p.mode).where('audience', '=', 'merchant');
  if (fields.includes('userId')) query = query.where('user_id', '=', p.userId as string);
  if (fields.includes('startingAfter')) query = query.where('id', '<', p.startingAfter as string);
  return query.orderBy('id', 'desc').limit(p.limit);
});

export const messagesRepository = {
  async insert(db: Executor, row: Insertable<MessagesTable>): Promise<void> {
    await insertMessage.execute(db, { ...row, audience: row.audience ?? 'merchant' });
  },

  async finish(db: Executor, id: string, status: MessageStatus, providerRef: string | null): Promise<void> {
    await db.updateTable('messages').set({ status, provider_ref: providerRef }).where('id', '=', id).execute();
  },

  /** Newest first; ids sort by creation time. */
  async list(db: Executor, q: { merchantId: string; mode: KeyMode; userId?: string; startingAfter?: string; limit: number }): Promise<MessageRow[]> {
    return listMessages(q).rows(db, q);
  },

  /** The operator outbox (kept, not sent), newest first; `to` narrows it to one recipient. */
  async listForOperators(db: Executor, q: { to?: string; startingAfter?: string; limit: number }): Promise<MessageRow[]> {
    let query = db.selectFrom('messages').selectAll().where('audience', '=', 'operator').where('provider', '=', 'outbox');
    if (q.to !== undefined) query = query.where('recipient', '=', q.to);
    if (q.startingAfter !== undefined) query = query.where('id', '<', q.startingAfter);
    return query.orderBy('id', 'desc').limit(q.limit).execute();
  },

  /**
   * Deletes up to `limit` messages (test-mode outbox and live alike) created before `before`;
   * `beforeId` is the first message id of that moment (`firstIdAt`), so the primary key finds them.
   * Returns how many it deleted.
   */
  async purgeBefore(db: Executor, before: Date, beforeId: string, limit: number): Promise<number> {
    const batch = db.selectFrom('messages').select('id').where('id', '<', beforeId).where('created_at', '<', before).orderBy('id').limit(limit);
    const result = await db
      .deleteFrom('messages')
      .where(sql<boolean>`id = any(array(${batch}))`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** When messages were sent to this user on this channel since `since` (for send limits). */
  async sentSince(db: Executor, q: { merchantId: string; mode: KeyMode; userId: string; channel: Channel; since: Date }): Promise<Date[]> {
    const rows = await db
      .selectFrom('messages')
      .select('created_at')
      .where('merchant_id', '=', q.merchantId)
      .where('mode', '=', q.mode)
      .where('user_id', '=', q.userId)
      .where('channel', '=', q.channel)
      .where('status', '<>', 'failed')
      .where('created_at', '>', q.since)
      .execute();
    return rows.map((r) => r.created_at);
  },
};
