import type { Logger } from 'pino';
import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { feeReturned } from '../../platform/fees.ts';
import { type IdempotentAnswer, inTransaction } from '../../platform/http/idempotency.ts';
import { type Currency, formatAmount, minorUnits } from '../../platform/money.ts';
import type { Caller, MerchantContext, Scope } from '../../platform/tenancy.ts';
import type { BalancesService } from '../balances/index.ts';
import {
  capabilitiesOf,
  type Connector,
  type ConnectorSource,
  type Decision,
  describeProvider,
  fitMessage,
  lacksOf,
  newReference,
  refundRefusal,
} from '../connectors/index.ts';
import { announceEvents } from '../events/index.ts';
import { type IntentsService, type Refund, statusAfterRefund } from '../intents/index.ts';
import { createProviderLifecycle, requestStore, paymentRequestOf } from '../lifecycle/index.ts';
import { type AttemptRow, attemptsRepository as attempts } from './charges.attempts.repository.ts';
import { type MobileRefundRow, mobileRefundsRepository as repo } from './charges.refunds.repository.ts';
import { type ManualReturnRow, manualReturnsRepository as returns } from './charges.returns.repository.ts';
import type { RefundBody } from './charges.schema.ts';
import { notFound, refundAmount, stateInvalid } from './charges.service.ts';

export const LATE_PAYMENT_REASON = 'late_payment';

/** Whether a refund of `amount` gives back the whole payment, which a provider's refund operation can do (by the provider's reference). */
function refundsWhole(paid: AttemptRow, amount: bigint): boolean {
  return amount === paid.amount_minor && paid.provider_reference !== null;
}

/** Whether the connector's own refund operation takes this refund: the whole payment, or a part where it refunds partially (pawaPay). */
function refundOperationTakes(connector: Pick<Connector, 'refund' | 'refundOperation'>, paid: AttemptRow, amount: bigint): boolean {
  if (!connector.refund || paid.provider_reference === null) return false;
  return refundsWhole(paid, amount) || connector.refundOperation?.partial === true;
}

export function mobileRefundView(row: MobileRefundRow): Refund {
  return {
    id: row.id,
    object: 'refund',
    amount: formatAmount(row.amount_minor, row.currency as Currency),
    currency: row.currency,
    intentId: row.intent_id,
    status: row.status,
    reason: row.reason,
    connector: row.connector,
    providerAccount: row.provider_account,
    createdAt: row.created_at.toISOString(),
    failureCode: row.failure_reason?.toLowerCase() ?? null,
  };
}

/** A late payment to return by hand, as the operator console shows it. */
export interface ManualReturnView {
  id: string;
  object: 'manual_return';
  merchantId: string;
  mode: 'test' | 'live';
  intentId: string;
  attemptId: string;
  connector: string;
  providerAccount: string;
  phoneNumber: string;
  amount: string;
  currency: string;
  status: 'TO_RETURN' | 'RETURNED';
  note: string | null;
  returnedBy: string | null;
  createdAt: string;
  returnedAt: string | null;
}

export function manualReturnView(row: ManualReturnRow): ManualReturnView {
  return {
    id: row.id,
    object: 'manual_return',
    merchantId: row.merchant_id,
    mode: row.mode,
    intentId: row.intent_id,
    attemptId: row.attempt_id,
    connector: row.connector,
    providerAccount: row.provider_account,
    // The operator returns it to this number: shown whole, as the provider's tools need it.
    phoneNumber: row.phone_number,
    amount: formatAmount(row.amount_minor, row.currency as Currency),
    currency: row.currency,
    status: row.status,
    note: row.note,
    returnedBy: row.returned_by,
    createdAt: row.created_at.toISOString(),
    returnedAt: row.returned_at?.toISOString() ?? null,
  };
}

/**
 * Refunds of payments made directly with mobile money: the money goes back to the payer's number
 * through the provider (its refund operation when it has one, else a transfer), on the
 * connectors' request lifecycle. The refund row, its reference and the hold of its money
 * (`refund_transit`) commit first; the provider is called after; SUCCEEDED or FAILED is decided
 * once under the row's lock, with the ledger, the intent and the event. A late payment (a success
 * the intent could not take) is returned the same way, with money that was never the merchant's.
 */
export function createMobileRefunds(
  deps: Deps,
  collaborators: {
    balances: Pick<BalancesService, 'holdForRefund' | 'refundPaid' | 'refundFailed' | 'holdLatePayment'>;
    intents: Pick<IntentsService, 'lockForChange' | 'transition' | 'recordEvent' | 'retrieveRow'>;
    connectors: ConnectorSource;
    merchantTerms: (merchantId: string, tx: Tx) => Promise<Pick<MerchantContext, 'pinnedVersion'>>;
    logger?: Logger;
  },
) {
  const { db, clock, ids, random } = deps;
  const { balances, intents, connectors, merchantTerms } = collaborators;
  const log = collaborators.logger;

  /** Decides a refund once: the ledger, its state, the intent and the event in one transaction. */
  async function settle(id: string, decision: Decision): Promise<void> {
    await db.transaction().execute(async (tx) => {
      const row = await repo.lock(tx, id);
      if (!row || row.status !== 'PENDING') return;
      const scope: Scope = { merchantId: row.merchant_id, mode: row.mode };
      const intent = await intents.lockForChange(tx, scope, row.intent_id);
      if (!intent) throw new Error(`refund ${id} without its intent`);
      const { pinnedVersion } = await merchantTerms(row.merchant_id, tx);
      const currency = row.currency as Currency;
      const now = clock.now();
      if (decision.status === 'SUCCESSFUL') {
        // The provider paid the payer back: gone, whatever amount it reports (a difference is
        // logged and left to reconciliation, never sent again).
        if (decision.amount !== row.amount_minor || decision.currency !== row.currency)
          log?.error({ refund: id, provider: row.provider }, 'mobile-money refund paid for another amount or currency: see caisse reconcile');
        await balances.refundPaid(tx, scope, {
          refundId: row.id,
          providerAccount: row.provider_account,
          connector: row.connector,
          currency,
          amount: row.amount_minor,
        });
        const paid = await repo.update(tx, id, {
          status: 'SUCCEEDED',
          provider_transaction_id: decision.providerTransactionId ?? null,
          completed_at: now,
          updated_at: now,
        });
        // A late payment was never part of the intent's amount: the intent does not change.
        if (row.late) return;
        const refunded = intent.amount_refunded_minor + row.amount_minor;
        await intents.transition(tx, intent, statusAfterRefund(intent.amount_minor, refunded), {
          apiVersion: pinnedVersion,
          patch: { amount_refunded_minor: refunded },
          eventData: { refund: mobileRefundView(paid) },
        });
        return;
      }
      const reason = decision.reason.slice(0, 200);
      if (row.late) {
        // The payer's money stays held in refund_transit: it is not the merchant's to take back.
        log?.error(
          { refund: id, attempt: row.attempt_id, provider: row.provider, reason },
          'the return of a late mobile-money payment failed: the money is held for the payer',
        );
      } else {
        await balances.refundFailed(tx, scope, {
          refundId: row.id,
          intentId: row.intent_id,
          currency,
          amount: row.amount_minor,
          feeReturned: row.fee_returned_minor,
          reason,
        });
      }
      const failed = await repo.update(tx, id, { status: 'FAILED', failure_reason: reason, completed_at: now, updated_at: now });
      await intents.recordEvent(tx, intent, 'refund.failed', { apiVersion: pinnedVersion, eventData: { refund: mobileRefundView(failed) } });
    });
    announceEvents(deps);
  }

  const lifecycle = createProviderLifecycle<MobileRefundRow>({
    what: 'refund',
    request_kind: 'refund',
    kind: 'disbursement',
    requests: requestStore(db),
    connectors,
    clock,
    logger: log,
    store: { load: (id) => repo.byId(db, id), loadByReference: (reference) => repo.byReference(db, reference) },
    request: (row) => {
      // The rules of the connector that carries the message (an aggregator's, not the operator's).
      const rules = describeProvider(row.connector)?.messages;
      const text = row.late ? `Return of a late payment for ${row.intent_id}` : `Refund of ${row.intent_id}`;
      return paymentRequestOf(row, { payerMessage: rules ? fitMessage(rules, text, row.id) : text, payeeNote: row.id });
    },
    // The provider's own refund operation for the whole payment (Wave's gives back the whole
    // session); else a transfer to the payer's number.
    send: async (connector, request, row) => {
      const paid = await attempts.find(db, row.attempt_id);
      if (!paid) throw new Error(`refund ${row.id} without its attempt`);
      if (!connector.refund || !refundOperationTakes(connector, paid, row.amount_minor)) return connector.disburse(request);
      const result = await connector.refund({ ...request, providerReference: paid.provider_reference as string });
      // Wave's acceptance is its outcome: nothing reads its refund back. An asynchronous one
      // (pawaPay's) is read back by its reference, as a transfer is.
      if (result.status === 'PENDING' && connector.refundOperation?.asynchronous !== true)
        await settle(row.id, { status: 'SUCCESSFUL', amount: row.amount_minor, currency: row.currency as Currency });
      return result;
    },
    settle,
  });

  function newRow(scope: Scope, attempt: AttemptRow, r: { amount: bigint; feeReturned: bigint; reason: string | null; late: boolean }) {
    const now = clock.now();
    return {
      id: ids('refund'),
      merchant_id: scope.merchantId,
      mode: scope.mode,
      intent_id: attempt.intent_id,
      attempt_id: attempt.id,
      provider: attempt.provider,
      // Back through the payment's own connector and account (docs/spec).
      connector: attempt.connector,
      provider_account: attempt.provider_account,
      phone_number: attempt.phone_number,
      amount_minor: r.amount,
      currency: attempt.currency,
      fee_returned_minor: r.feeReturned,
      reason: r.reason,
      late: r.late,
      reference: newReference(random),
      status: 'PENDING' as const,
      failure_reason: null,
      provider_transaction_id: null,
      created_at: now,
      updated_at: now,
      completed_at: null,
    };
  }

  /** A new refund and its request (first: the refund points to it), in the caller's transaction. */
  async function insertRefund(tx: Tx, row: ReturnType<typeof newRow>): Promise<MobileRefundRow> {
    await lifecycle.open(tx, row);
    return repo.insert(tx, row);
  }

  /**
   * The connector of the account a payment was made with, read outside any transaction, with what
   * it enables per operator read again where stale (pawaPay's active configuration).
   */
  async function connectorOf(paid: AttemptRow): Promise<Connector | undefined> {
    const connector = await lifecycle.connectorOf(paid);
    await connector?.refreshLacks?.();
    return connector;
  }

  /**
   * 409 `refund_unsupported` when the provider can neither refund this amount nor transfer to the
   * payer (its refund operation gives back whole payments only); 503 when it is not configured here.
   */
  function assertCanRefund(scope: Scope, paid: AttemptRow, amount: bigint, connector: Connector | undefined): void {
    // The connector that took it cannot give back this method's payments (an aggregator's card payment).
    const connectorDescription = describeProvider(paid.connector);
    const methodRefused = refundRefusal(connectorDescription, paid.provider);
    if (methodRefused !== undefined)
      throw new ApiError('refund_unsupported', `${connectorDescription?.displayName ?? paid.connector} cannot refund this payment: ${methodRefused}`);
    // Always back through the payment's own connector and account (docs/spec/routes.md): its
    // abilities decide, an aggregator's for a method it reached.
    const description = connectorDescription ?? describeProvider(paid.provider);
    const name = description?.displayName ?? paid.provider;
    if (!description?.capabilities.refund)
      throw new ApiError('refund_unsupported', `${name} cannot send money back to the payer: refund the customer another way`);
    if (!connector) throw new ApiError('provider_unavailable', `${paid.provider} is not configured for ${scope.mode} mode on this server`);
    // The provider can, this account cannot (an MTN account without a disbursement key), or not
    // for this payment's operator (pawaPay's active configuration, as last read).
    const lacking = lacksOf(connector, 'refund', { method: paid.provider, phoneNumber: paid.phone_number });
    if (lacking !== undefined) throw new ApiError('refund_unsupported', `${name} cannot refund this payment: ${lacking}; refund the customer another way`);
    // A part goes back by a transfer, which the account must be able to send (a checkout-only Wave key cannot).
    const canTransfer = description.capabilities.disburse && connector.lacks?.disburse === undefined;
    if (canTransfer || refundOperationTakes(connector, paid, amount)) return;
    throw new ApiError(
      'refund_unsupported',
      `${name} can only give back the whole payment: refund ${formatAmount(paid.amount_minor, paid.currency as Currency)} ${paid.currency}, or the customer another way`,
      { param: 'amount' },
    );
  }

  /**
   * Whether the attempt's own connector can send its money back: a transfer, or its refund
   * operation for the whole payment (a late payment is always whole), as its account allows.
   */
  function canReturn(attempt: AttemptRow): boolean {
    const description = describeProvider(attempt.connector);
    if (description === undefined) return false;
    const impl = lifecycle.connectorFor(attempt.mode, attempt.connector);
    // Its refund operation, when it has one, is what sends it back: not for an operator whose refunds the account lacks (pawaPay's).
    if (impl?.refund !== undefined && impl.lacksFor?.('refund', { method: attempt.provider, phoneNumber: attempt.phone_number }) !== undefined) return false;
    const can = capabilitiesOf(description, impl);
    return can.disburse || (can.refund && impl?.refund !== undefined && refundsWhole(attempt, attempt.amount_minor));
  }

  return {
    lifecycle,
    pollDue: (n?: number) => lifecycle.pollDue(n),
    drain: () => lifecycle.drain(),
    /** Sends a committed refund to the provider, in the background. */
    start: (row: MobileRefundRow) => lifecycle.start(row),

    /**
     * POST /gateway/{id}/refunds of an intent paid by a direct attempt: 202 PENDING, its money
     * held out of the merchant's balance until the provider answers. Undefined when the intent
     * was not paid that way (the wallet's refund answers).
     */
    async refund(merchant: Caller, intentId: string, body: RefundBody, answer?: IdempotentAnswer): Promise<Refund | undefined> {
      const scope: Scope = { merchantId: merchant.merchantId, mode: merchant.mode };
      const found = await intents.retrieveRow(scope, intentId);
      if (!found?.direct_payment) return undefined;
      const paid = await attempts.findPaid(db, intentId);
      if (!paid) return undefined;
      // The payment's own account, even disabled or replaced since; read before the transaction.
      const connector = await connectorOf(paid);
      // Checked again with the amount once it is known (a whole refund may need the refund operation).
      assertCanRefund(scope, paid, paid.amount_minor, connector);
      const row = await inTransaction(db, answer, async (tx) => {
        const intent = await intents.lockForChange(tx, scope, intentId);
        if (!intent) throw notFound(intentId, 'id');
        if (intent.status !== 'SUCCEEDED' && intent.status !== 'PARTIALLY_REFUNDED') throw stateInvalid(intent.status, 'refunded');
        const currency = intent.currency as Currency;
        // Refunds still waiting for the provider hold their amount: together they never exceed the payment.
        const held = intent.amount_refunded_minor + (await repo.pendingAmount(tx, intentId));
        const amount = refundAmount(body, intent.amount_minor - held, currency);
        assertCanRefund(scope, paid, amount, connector);
        const feeBack = feeReturned({
          amount: minorUnits(intent.amount_minor),
          fee: minorUnits(intent.fee_minor ?? 0n),
          refundedBefore: minorUnits(held),
          refund: minorUnits(amount),
        });
        const inserted = await insertRefund(tx, newRow(scope, paid, { amount, feeReturned: feeBack, reason: body.reason ?? null, late: false }));
        await balances.holdForRefund(tx, scope, { refundId: inserted.id, intentId, currency, amount, feeReturned: feeBack });
        await answer?.record(tx, 202, mobileRefundView(inserted));
        return inserted;
      });
      lifecycle.start(row);
      return mobileRefundView(row);
    },

    /**
     * A success the intent could not take, in the attempt's settling transaction: the payer's
     * money held (`late_payment`, from the clearing account of the attempt's connector) and sent
     * back through that same connector and account: a refund (`late_payment`) the caller starts
     * after the commit. Where that connector can neither refund nor transfer, nothing is sent:
     * the payment waits for an operator to return it by hand (`manual_returns`), with an alert.
     */
    async returnLatePayment(tx: Tx, attempt: AttemptRow): Promise<MobileRefundRow | undefined> {
      const scope: Scope = { merchantId: attempt.merchant_id, mode: attempt.mode };
      const hold = (refundId: string) =>
        balances.holdLatePayment(tx, scope, {
          refundId,
          attemptId: attempt.id,
          intentId: attempt.intent_id,
          providerAccount: attempt.provider_account,
          connector: attempt.connector,
          currency: attempt.currency as Currency,
          amount: attempt.amount_minor,
        });
      if (!canReturn(attempt)) {
        const now = clock.now();
        const row: ManualReturnRow = {
          id: ids('manualReturn'),
          merchant_id: attempt.merchant_id,
          mode: attempt.mode,
          intent_id: attempt.intent_id,
          attempt_id: attempt.id,
          connector: attempt.connector,
          provider_account: attempt.provider_account,
          phone_number: attempt.phone_number,
          amount_minor: attempt.amount_minor,
          currency: attempt.currency,
          status: 'TO_RETURN',
          note: null,
          returned_by: null,
          created_at: now,
          returned_at: null,
        };
        await returns.insert(tx, row);
        await hold(row.id);
        log?.error(
          { manualReturn: row.id, attempt: attempt.id, connector: attempt.connector, providerAccount: attempt.provider_account },
          'a late mobile-money payment cannot be sent back by its connector: to return by hand (operator console, Late payments)',
        );
        return undefined;
      }
      const row = await insertRefund(tx, newRow(scope, attempt, { amount: attempt.amount_minor, feeReturned: 0n, reason: LATE_PAYMENT_REASON, late: true }));
      await hold(row.id);
      return row;
    },

    /** Late payments to return by hand: the open ones first (the operator console). */
    manualReturns: async (q: { status?: 'TO_RETURN' | 'RETURNED'; limit?: number } = {}) =>
      (await returns.list(db, { status: q.status, limit: q.limit ?? 100 })).map(manualReturnView),

    /** How many wait to be returned by hand, per mode (the metric). */
    openManualReturns: () => returns.countOpen(db),

    /**
     * An operator returned the money by hand (through the provider's own tools): it leaves the
     * held amount for the connector's clearing account, as a refund paid would. `audit` runs in
     * the same transaction. 409 when it was already marked.
     */
    async markReturned(
      id: string,
      by: string,
      note: string,
      audit?: (tx: Tx, before: ManualReturnView, after: ManualReturnView) => Promise<void>,
    ): Promise<ManualReturnView> {
      return db.transaction().execute(async (tx) => {
        const row = await returns.lock(tx, id);
        if (!row) throw new ApiError('not_found', `No late payment to return ${id}`);
        if (row.status !== 'TO_RETURN') throw new ApiError('return_state_invalid', `${id} is already marked returned`);
        const scope: Scope = { merchantId: row.merchant_id, mode: row.mode };
        await balances.refundPaid(tx, scope, {
          refundId: row.id,
          providerAccount: row.provider_account,
          connector: row.connector,
          currency: row.currency as Currency,
          amount: row.amount_minor,
        });
        const updated = await returns.update(tx, id, { status: 'RETURNED', note, returned_by: by, returned_at: clock.now() });
        await audit?.(tx, manualReturnView(row), manualReturnView(updated));
        return manualReturnView(updated);
      });
    },

    /**
     * Whether the provider would refuse a refund of `amount` of this payment (409
     * `refund_unsupported`): only then may a refund made outside Caisse be recorded.
     */
    cannotRefund(scope: Scope, paid: AttemptRow, amount: bigint, connector: Connector | undefined): boolean {
      try {
        assertCanRefund(scope, paid, amount, connector);
        return false;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'refund_unsupported') return true;
        throw error;
      }
    },

    /** The connector of the account a payment was made with (`cannotRefund`'s), read outside any transaction. */
    connectorOf,

    /** What the merchant's refunds of this intent still waiting for the provider hold. */
    pendingAmount: (tx: Tx, intentId: string) => repo.pendingAmount(tx, intentId),

    /** Every refund through a provider created in [from, to), for reconciliation. */
    listForProvider: (provider: string, from: Date, to: Date) => repo.listForProvider(db, provider, from, to),

    /** An intent's refunds to mobile money, oldest first (the dashboard's payment detail). */
    listForIntent: async (intentId: string) => (await repo.listForIntent(db, intentId)).map(mobileRefundView),
  };
}

export type MobileRefunds = ReturnType<typeof createMobileRefunds>;
