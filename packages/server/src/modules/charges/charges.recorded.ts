import { readExecutor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type IdempotentAnswer, inTransaction } from '../../platform/http/idempotency.ts';
import { type Currency, formatAmount } from '../../platform/money.ts';
import type { Caller, Scope } from '../../platform/tenancy.ts';
import { announceEvents } from '../events/index.ts';
import { type IntentsService, type Refund, statusAfterRefund } from '../intents/index.ts';
import { type AttemptRow, attemptsRepository as attempts } from './charges.attempts.repository.ts';
import { type RecordedRefundRow, recordedRefundsRepository as repo } from './charges.recorded.repository.ts';
import type { MobileRefunds } from './charges.refunds.ts';
import type { RecordedRefundBody } from './charges.schema.ts';
import { notFound, refundAmount, stateInvalid } from './charges.service.ts';

export function recordedRefundView(row: RecordedRefundRow): Refund {
  return {
    id: row.id,
    object: 'refund',
    amount: formatAmount(row.amount_minor, row.currency as Currency),
    currency: row.currency,
    intentId: row.intent_id,
    status: 'SUCCEEDED',
    reason: row.reason,
    createdAt: row.created_at.toISOString(),
    recorded: true,
    recordedOutside: { method: row.method, reference: row.reference },
  };
}

function supported(): ApiError {
  return new ApiError('refund_supported', 'This payment can be refunded through Caisse: use POST /gateway/{id}/refunds');
}

/**
 * Refunds made outside Caisse (cash, a bank transfer, mobile money sent by hand), recorded by the
 * merchant for a payment its provider cannot refund, so that the intent, its events and the
 * exports agree with what the payer got back. The merchant paid from elsewhere: no ledger
 * transfer, the balance and the fee stay. The row, the intent's change and `payment.refunded`
 * commit in one transaction under the intent's row lock.
 */
export function createRecordedRefunds(
  deps: Deps,
  collaborators: {
    intents: Pick<IntentsService, 'lockForChange' | 'transition' | 'retrieveRow'>;
    directRefunds: Pick<MobileRefunds, 'cannotRefund' | 'pendingAmount' | 'connectorOf'>;
  },
) {
  const { db, clock, ids } = deps;
  const { intents, directRefunds } = collaborators;

  /** The attempt that paid the intent, when it was paid directly through a provider. */
  async function paidDirectly(scope: Scope, intentId: string): Promise<AttemptRow | undefined> {
    const found = await intents.retrieveRow(scope, intentId);
    if (!found) throw notFound(intentId, 'id');
    return found.direct_payment ? attempts.findPaid(db, intentId) : undefined;
  }

  return {
    /**
     * POST /gateway/{id}/refunds/recorded: 201 with the refund (`recorded: true`). 409
     * `refund_supported` when Caisse could make this refund itself, `refund_in_progress` while a
     * refund through the provider is pending; amounts as a refund's (422 `refund_exceeds_amount`).
     */
    async record(merchant: Caller, intentId: string, body: RecordedRefundBody, answer?: IdempotentAnswer): Promise<Refund> {
      const scope: Scope = { merchantId: merchant.merchantId, mode: merchant.mode };
      const paid = await paidDirectly(scope, intentId);
      const connector = paid ? await directRefunds.connectorOf(paid) : undefined;
      const refund = await inTransaction(db, answer, async (tx) => {
        const intent = await intents.lockForChange(tx, scope, intentId);
        if (!intent) throw notFound(intentId, 'id');
        if (intent.status !== 'SUCCEEDED' && intent.status !== 'PARTIALLY_REFUNDED') throw stateInvalid(intent.status, 'refunded');
        // A wallet payment is always refunded through Caisse.
        if (!paid) throw supported();
        if ((await directRefunds.pendingAmount(tx, intentId)) > 0n)
          throw new ApiError('refund_in_progress', 'A refund of this payment is still waiting for the provider: record one once it is decided');
        const currency = intent.currency as Currency;
        const amount = refundAmount(body, intent.amount_minor - intent.amount_refunded_minor, currency);
        if (!directRefunds.cannotRefund(scope, paid, amount, connector)) throw supported();
        const row = await repo.insert(tx, {
          id: ids('refund'),
          merchant_id: scope.merchantId,
          mode: scope.mode,
          intent_id: intentId,
          amount_minor: amount,
          currency,
          method: body.method,
          reference: body.reference?.trim() || null,
          reason: body.reason ?? null,
          created_at: clock.now(),
        });
        const view = recordedRefundView(row);
        const refunded = intent.amount_refunded_minor + amount;
        await intents.transition(tx, intent, statusAfterRefund(intent.amount_minor, refunded), {
          apiVersion: merchant.pinnedVersion,
          patch: { amount_refunded_minor: refunded },
          eventData: { refund: view },
        });
        await answer?.record(tx, 201, view);
        return view;
      });
      announceEvents(deps);
      return refund;
    },

    /** Whether a refund of all that is left of this payment may be recorded (the dashboard's form). */
    async recordable(scope: Scope, intentId: string): Promise<boolean> {
      const paid = await paidDirectly(scope, intentId);
      const intent = await intents.retrieveRow(scope, intentId);
      if (!paid || !intent || (intent.status !== 'SUCCEEDED' && intent.status !== 'PARTIALLY_REFUNDED')) return false;
      return directRefunds.cannotRefund(scope, paid, intent.amount_minor - intent.amount_refunded_minor, await directRefunds.connectorOf(paid));
    },

    /** What was recorded as refunded outside Caisse, by intent id, in minor units (the exports). */
    async amountsOf(intentIds: readonly string[]): Promise<Map<string, bigint>> {
      return new Map((await repo.amountsOf(readExecutor(db), intentIds)).map((r) => [r.intent_id, BigInt(r.amount)]));
    },

    /** An intent's recorded refunds, oldest first. */
    listForIntent: async (intentId: string) => (await repo.listForIntent(db, intentId)).map(recordedRefundView),
  };
}

export type RecordedRefunds = ReturnType<typeof createRecordedRefunds>;
