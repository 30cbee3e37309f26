import type { Logger } from 'pino';
import { MINUTE } from '../../platform/clock.ts';
import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { parsePhoneNumber } from '../../platform/phone.ts';
import type { IdempotentAnswer } from '../../platform/http/idempotency.ts';
import { maskPhone } from '../../platform/codes.ts';
import { assertCurrency, type Currency, formatAmount, minorUnits, parseAmount } from '../../platform/money.ts';
import type { KeyMode, MerchantContext, UserContext } from '../../platform/tenancy.ts';
import {
  type ConnectorSource,
  type Decision,
  assertProviderTakes,
  describeProvider,
  isProviderName,
  providerDescriptions,
  providerNames,
  newReference,
  providerUnavailable,
} from '../connectors/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import { createProviderLifecycle, requestStore, paymentRequestOf } from '../lifecycle/index.ts';
import { type TopupRow, topupsRepository as repo } from './topups.repository.ts';
import type { CreateTopupBody, Topup } from './topups.schema.ts';

/** A top-up the provider has not settled 15 minutes after its creation fails (TIMEOUT). */
export const TOPUP_TIMEOUT_MS = 15 * MINUTE;
/** PENDING top-ups a customer may have at once. */
export const MAX_PENDING_TOPUPS = 5;

export function topupView(row: TopupRow): Topup {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    object: 'topup',
    amount: formatAmount(row.amount_minor, currency),
    currency,
    provider: row.provider,
    connector: row.connector,
    providerAccount: row.provider_account,
    phoneNumber: row.phone_number,
    status: row.status,
    failureReason: row.failure_reason,
    livemode: row.mode === 'live',
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

/** Who tells the customer that a top-up reached their wallet (the users module, injected: it knows their language). */
export interface TopupNotices {
  notifyTopupCredited(topup: { merchantId: string; mode: KeyMode; userId: string; amount: bigint; currency: Currency; providerName: string }): Promise<void>;
}

/**
 * Money in (docs/spec/money-in.md): a customer's wallet is topped up by mobile money. The top-up and its
 * reference are committed first; the provider is called after, outside any transaction; the
 * wallet is credited exactly once, in the transaction that moves the top-up to SUCCEEDED under its
 * row lock, whether a callback, a duplicate callback or the poller learnt it.
 */
export function createTopupsService(
  deps: Deps,
  collaborators: {
    ledger: LedgerService;
    connectors: ConnectorSource;
    logger?: Logger;
    notices?: TopupNotices;
    /** The customer limits (the users module's): 403 `customer_limit_exceeded` over a cap. */
    limits?: {
      checkTopUp(tx: Tx, usage: { mode: KeyMode; currency: Currency; amount: bigint; balance: bigint; today: bigint; thisMonth: bigint }): Promise<void>;
    };
  },
) {
  const { db, clock, ids, random } = deps;
  const { ledger, connectors, notices } = collaborators;
  const log = collaborators.logger;
  /**
   * Moves a PENDING top-up to its outcome, once: the credit and the state change commit together.
   * The customer is told by SMS after the commit, by the call that credited (a crash in between
   * loses the notice, never the money).
   */
  async function settle(id: string, outcome: Decision): Promise<TopupRow | undefined> {
    let credited: TopupRow | undefined;
    const row = await db.transaction().execute(async (tx) => {
      const row = await repo.lock(tx, id);
      if (!row || row.status !== 'PENDING') return row;
      const now = clock.now();
      if (outcome.status === 'FAILED') {
        return repo.update(tx, id, { status: 'FAILED', failure_reason: outcome.reason.slice(0, 200), completed_at: now, updated_at: now });
      }
      if (outcome.amount !== row.amount_minor || outcome.currency !== row.currency) {
        // The provider took another amount than we asked: credit nothing, say why (reconciliation shows it).
        log?.error({ topup: id, provider: row.provider }, 'mobile-money top-up settled for another amount or currency: not credited');
        return repo.update(tx, id, { status: 'FAILED', failure_reason: 'AMOUNT_MISMATCH', completed_at: now, updated_at: now });
      }
      const currency = row.currency as Currency;
      const clearing = await ledger.providerClearing(tx, { mode: row.mode, providerAccount: row.provider_account, connector: row.connector, currency });
      const wallet = await ledger.userWallet(tx, { merchantId: row.merchant_id, mode: row.mode, userId: row.user_id, currency });
      const transfer = await ledger.transfer(tx, {
        merchantId: row.merchant_id,
        mode: row.mode,
        kind: 'topup',
        reference: row.id,
        currency,
        from: clearing.id,
        to: wallet.id,
        amount: minorUnits(row.amount_minor),
      });
      credited = await repo.update(tx, id, {
        status: 'SUCCEEDED',
        transfer_id: transfer.id,
        provider_transaction_id: outcome.providerTransactionId ?? null,
        completed_at: now,
        updated_at: now,
      });
      return credited;
    });
    if (credited && notices) {
      const t = credited;
      await notices
        .notifyTopupCredited({
          merchantId: t.merchant_id,
          mode: t.mode,
          userId: t.user_id,
          amount: t.amount_minor,
          currency: t.currency as Currency,
          providerName: describeProvider(t.provider)?.displayName ?? t.provider,
        })
        .catch((err: unknown) => log?.error({ err, topup: t.id }, 'top-up notice not sent'));
    }
    return row;
  }

  const lifecycle = createProviderLifecycle<TopupRow>({
    what: 'top-up',
    request_kind: 'topup',
    kind: 'collection',
    requests: requestStore(db),
    connectors,
    clock,
    logger: log,
    giveUpAfterMs: TOPUP_TIMEOUT_MS,
    store: { load: (id) => repo.byId(db, id), loadByReference: (reference) => repo.byReference(db, reference) },
    request: (row) => paymentRequestOf(row, { payerMessage: `Caisse wallet top-up ${row.id}` }),
    settle: async (id, decision) => {
      await settle(id, decision);
    },
  });

  return {
    /**
     * POST /wallet/topups: a PENDING top-up, committed with its reference (and the Idempotency-Key
     * answer) before the provider is called; the call runs after the answer. 202 at once, whatever
     * the provider does.
     */
    async create(merchant: MerchantContext, user: UserContext, body: CreateTopupBody, answer?: IdempotentAnswer): Promise<Topup> {
      const currency = assertCurrency(body.currency);
      const amount = parseAmount(body.amount, currency);
      if (!isProviderName(body.provider))
        throw new ApiError('provider_unsupported', `Unknown provider "${body.provider}"; supported: ${providerNames().join(', ')}`, { param: 'provider' });
      const phoneNumber = parsePhoneNumber(body.phoneNumber, merchant.merchantCountry);
      // A top-up has no page to send the payer to: the providers that prompt on the phone only.
      const description = describeProvider(body.provider)!;
      if (description.approval !== 'phone_prompt') {
        const prompting = providerDescriptions()
          .filter((d) => d.approval === 'phone_prompt')
          .map((d) => d.name);
        throw new ApiError(
          'provider_unsupported',
          `${description.displayName} is approved on its own page, which a top-up cannot show; top-ups go through ${prompting.join(', ')}`,
          { param: 'provider' },
        );
      }
      // The merchant's country chooses the provider account (section 14).
      const registry = await connectors.forMerchant(merchant.mode, merchant.merchantCountry);
      const account = registry.account(body.provider);
      if (!registry.get(body.provider) || account === undefined) throw providerUnavailable(registry, body.provider, merchant.mode, 'provider');
      assertProviderTakes(description, { phoneNumber, currency, amount }, { phoneNumber: 'phoneNumber' }, registry.get(body.provider));
      const now = clock.now();
      const row = await db.transaction().execute(async (tx) => {
        // One customer's top-ups queue here, so the pending limit holds under concurrency.
        await repo.lockCustomer(tx, user.userId);
        if ((await repo.countPending(tx, user.userId)) >= MAX_PENDING_TOPUPS) {
          throw new ApiError('limit_exceeded', `At most ${MAX_PENDING_TOPUPS} top-ups may wait for the provider at once; wait for one to finish`, {
            extra: { limit: MAX_PENDING_TOPUPS },
          });
        }
        if (collaborators.limits) {
          const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
          const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
          const sums = await repo.sums(tx, user.userId, currency, { day, month });
          const balance = await ledger.walletMinor(tx, user.userId, currency);
          await collaborators.limits.checkTopUp(tx, {
            mode: merchant.mode,
            currency,
            amount,
            balance: balance + sums.pending,
            today: sums.day,
            thisMonth: sums.month,
          });
        }
        const fresh = {
          id: ids('topup'),
          merchant_id: merchant.merchantId,
          mode: merchant.mode,
          user_id: user.userId,
          provider: body.provider,
          connector: body.provider,
          provider_account: account,
          phone_number: phoneNumber,
          amount_minor: amount,
          currency,
          reference: newReference(random),
          status: 'PENDING',
          failure_reason: null,
          provider_transaction_id: null,
          transfer_id: null,
          created_at: now,
          updated_at: now,
          completed_at: null,
        } as const;
        // The request first: the top-up points to it.
        await lifecycle.open(tx, fresh);
        const inserted = await repo.insert(tx, fresh);
        await answer?.record(tx, 202, topupView(inserted));
        return inserted;
      });
      lifecycle.start(row);
      return topupView(row);
    },

    /** Only through the merchant whose key started it: another merchant's top-up is as unknown. */
    async retrieve(merchant: MerchantContext, user: UserContext, id: string): Promise<Topup> {
      const row = await repo.find(db, merchant, user.userId, id);
      if (!row) throw new ApiError('not_found', `No top-up ${id}`, { param: 'id' });
      return topupView(row);
    },

    async list(merchant: MerchantContext, user: UserContext, q: { limit?: number; startingAfter?: string }) {
      const limit = q.limit ?? 20;
      const rows = await repo.listForUser(db, merchant, user.userId, { limit, startingAfter: q.startingAfter });
      return { object: 'list' as const, data: rows.slice(0, limit).map(topupView), hasMore: rows.length > limit };
    },

    /** The top-ups' provider lifecycle: callbacks, the poller's rounds, shutdown's drain. */
    lifecycle,
    pollDue: (limit?: number) => lifecycle.pollDue(limit),
    drain: () => lifecycle.drain(),

    /** A customer's top-ups started through this merchant's checkout (the dashboard's customer page). */
    listForCustomerAt: async (scope: { merchantId: string; mode: KeyMode }, userId: string, limit = 50) =>
      // The payer's number is the customer's: a merchant sees it masked, as the customer's phone.
      (await repo.listForCustomerAt(db, scope.merchantId, scope.mode, userId, limit)).map((row) => ({
        ...topupView(row),
        phoneNumber: maskPhone(row.phone_number),
      })),

    /** Every top-up of a provider created in [from, to), for reconciliation. */
    listForProvider: (provider: string, from: Date, to: Date) => repo.listForProvider(db, provider, from, to),
  };
}

export type TopupsService = ReturnType<typeof createTopupsService>;
