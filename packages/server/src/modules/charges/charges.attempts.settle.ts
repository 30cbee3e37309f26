import type { Logger } from 'pino';
import { MINUTE } from '../../platform/clock.ts';
import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { feeOf } from '../../platform/fees.ts';
import { type Currency, minorUnits } from '../../platform/money.ts';
import { allAhead } from '../../platform/prepared.ts';
import type { MerchantContext } from '../../platform/tenancy.ts';
import type { BalancesService } from '../balances/index.ts';
import type { ConnectorSource, Decision } from '../connectors/index.ts';
import { announceEvents } from '../events/index.ts';
import { type IntentsService, isDue } from '../intents/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import { createProviderLifecycle, PAGE_LOST_REASON, paymentRequestOf, requestStore } from '../lifecycle/index.ts';
import { type AttemptRow, attemptsRepository as repo } from './charges.attempts.repository.ts';
import { attemptView, directPaymentOf, payerPage } from './charges.attempts.views.ts';
import type { MobileRefunds } from './charges.refunds.ts';
import type { MobileRefundRow } from './charges.refunds.repository.ts';
import { chargePostings, feeScheduleOf } from './charges.service.ts';

/** Attempts per intent (docs/spec/mobile-money-payments.md): the fifth failure makes the intent FAILED. */
export const MAX_PAYMENT_ATTEMPTS = 5;
/** An attempt the provider has not decided 15 minutes after it started fails (approval_timeout). */
export const ATTEMPT_TIMEOUT_MS = 15 * MINUTE;

/**
 * Failures this side decided without the provider's word (it never answered in time, or never
 * had the request): a success it reports later is still a payment to return. A lost page
 * (PAGE_LOST) is not one: its attempt stays decided (decision 0038).
 */
const GAVE_UP_REASONS: ReadonlySet<string> = new Set(['TIMEOUT', 'NOT_SUBMITTED']);

/** The provider's reason as one of the specification's failure codes. */
export function failureCodeOf(reason: string): string {
  switch (reason) {
    case 'PAYER_NOT_FOUND':
      return 'payer_not_found';
    case 'NOT_ENOUGH_FUNDS':
      return 'insufficient_funds';
    // A redirect provider's failure without a reason (Orange's status has none) or a cancel on its
    // page: the payer did not complete the approval there, which is what the payer should be told.
    case 'APPROVAL_REJECTED':
    case 'CANCELLED':
    case 'FAILED':
      return 'approval_rejected';
    case 'EXPIRED':
    case 'TIMEOUT':
      return 'approval_timeout';
    case 'INVALID_AMOUNT':
      return 'amount_out_of_bounds';
    // A pre-authorisation code the operator refused, or that had expired: the payer makes a new
    // one. Without it (a second submit after a crash: the code is never stored) the same.
    case 'INVALID_PREAUTHORISATION_CODE':
      return 'pre_authorisation_code_invalid';
    case 'PREAUTHORISATION_CODE_EXPIRED':
      return 'pre_authorisation_code_expired';
    case 'PRE_AUTHORISATION_CODE_REQUIRED':
      return 'pre_authorisation_code_required';
    // The provider's page was lost in a crash and cannot be read back: the payer never saw it and
    // may try again at once (docs/decisions/0038-provider-settings-and-health-per-host.md).
    case PAGE_LOST_REASON:
      return 'provider_page_lost';
    default:
      return 'provider_unavailable';
  }
}

/** What deciding an attempt needs: the intent, the ledger and balances, the late payments' refunds. */
export interface SettlementCollaborators {
  ledger: Pick<LedgerService, 'collectionAccounts' | 'transfer'>;
  balances: Pick<BalancesService, 'availableOn' | 'recordCharge' | 'reserveFor'>;
  intents: Pick<IntentsService, 'lockForChange' | 'transition'>;
  connectors: ConnectorSource;
  /** Returns a late payment to the payer. */
  refunds: Pick<MobileRefunds, 'returnLatePayment' | 'start'>;
  /** The merchant's settings at settle time (fees, settlement delay, pinned version). */
  merchantTerms: (merchantId: string, tx: Tx) => Promise<Pick<MerchantContext, 'fees' | 'settlementDelayDays' | 'pinnedVersion' | 'reserve'>>;
  logger?: Logger;
}

/**
 * The attempts' provider lifecycle: the request made of an attempt, the provider's handle kept
 * with it, and the provider's outcome decided once (settle).
 */
export function createAttemptLifecycle(deps: Deps, collaborators: SettlementCollaborators) {
  const { db, clock, ids } = deps;
  const { ledger, balances, intents, connectors, merchantTerms, refunds } = collaborators;
  const log = collaborators.logger;

  /**
   * Decides an attempt once, with the intent, the money and the event, in one transaction. Every
   * read goes with the attempt's lock in the transaction's first round trip (`seen`, the attempt
   * as the lifecycle read it, names its intent, merchant and accounts before the lock answers);
   * every write is deferred and sent with the COMMIT, the transfer among the last: the clearing
   * and pending accounts, which every payment of the provider and of the merchant needs, are
   * locked by that write and held for that one round trip.
   */
  async function settle(id: string, decision: Decision, seen: AttemptRow): Promise<void> {
    const lateRefund = await db.transaction().execute(async (tx): Promise<MobileRefundRow | undefined> => {
      // Of `seen`, only what never changes in an attempt: its intent, merchant, mode, provider, account and currency.
      const scope = { merchantId: seen.merchant_id, mode: seen.mode };
      const currency = seen.currency as Currency;
      // In lock order (the attempt, then its intent), then the reads; the merchant's terms last,
      // a plain read that carries those sent ahead of it.
      const [attempt, intent, attempts, accountsFor, merchant] = await allAhead([
        repo.lockAhead(tx, id),
        intents.lockForChange(tx, scope, seen.intent_id),
        repo.listForIntentAhead(tx, seen.intent_id),
        ledger.collectionAccounts(tx, { ...scope, providerAccount: seen.provider_account, connector: seen.connector, currency }),
        merchantTerms(seen.merchant_id, tx),
      ]);
      if (!attempt) return;
      const paid = decision.status === 'SUCCESSFUL' && decision.amount === attempt.amount_minor && decision.currency === attempt.currency;
      // The provider reports a success after this side stopped waiting for it (and told the
      // merchant the attempt failed): the payer's money, returned to them as any late payment.
      const paidAfterGivingUp = paid && attempt.status === 'FAILED' && GAVE_UP_REASONS.has(attempt.failure_reason ?? '');
      if (attempt.status !== 'PENDING' && !paidAfterGivingUp) return;
      if (!intent) throw new Error(`attempt ${id} without its intent`);
      const now = clock.now();
      /** The intent's direct payment with this attempt decided, as the event shows it. */
      const directWith = (decided: AttemptRow) => directPaymentOf(attempts.map((a) => (a.id === decided.id ? decided : a)));
      if (!paid) {
        const reason = decision.status === 'FAILED' ? decision.reason : 'AMOUNT_MISMATCH';
        if (decision.status === 'SUCCESSFUL')
          log?.error({ attempt: id, provider: attempt.provider }, 'mobile-money payment settled for another amount or currency: see caisse reconcile');
        const failed = await repo.updateLocked(tx, attempt, {
          status: 'FAILED',
          failure_code: failureCodeOf(reason),
          failure_reason: reason.slice(0, 200),
          completed_at: now,
          updated_at: now,
        });
        if (intent.status !== 'PROCESSING') return undefined;
        const to = isDue(intent.expires_at, now) ? 'EXPIRED' : attempts.length >= MAX_PAYMENT_ATTEMPTS ? 'FAILED' : 'PENDING';
        await intents.transition(tx, intent, to, {
          apiVersion: merchant.pinnedVersion,
          patch: {
            attempts: intent.attempts + 1,
            last_error_code: failed.failure_code,
            last_error_message: `The mobile-money payment failed (${reason.slice(0, 100)})`,
          },
          eventData: { attempt: attemptView(failed) },
          direct: directWith(failed),
        });
        return undefined;
      }
      if (intent.status !== 'PROCESSING' || paidAfterGivingUp) {
        // Paid, but the intent can no longer take it: the money is the payer's, returned to them
        // (a late_payment refund), never through the merchant's balance.
        const late = await repo.update(tx, id, {
          status: 'SUCCEEDED',
          late: true,
          failure_code: null,
          failure_reason: null,
          provider_transaction_id: decision.providerTransactionId ?? null,
          completed_at: now,
          updated_at: now,
        });
        log?.warn({ attempt: id, intent: intent.id }, 'mobile-money payment arrived for an intent that cannot take it: returned to the payer (late_payment)');
        return refunds.returnLatePayment(tx, late);
      }
      const transferId = ids('transfer');
      const fee = feeOf(minorUnits(attempt.amount_minor), feeScheduleOf(deps.config, merchant, currency));
      const reserve = balances.reserveFor(merchant, attempt.amount_minor - fee);
      const accounts = await accountsFor({ fee: fee > 0n, reserve: reserve.amount > 0n });
      const decided = {
        status: 'SUCCEEDED',
        fee_minor: fee,
        transfer_id: transferId,
        provider_transaction_id: decision.providerTransactionId ?? null,
        completed_at: now,
        updated_at: now,
      } as const;
      const succeeded: AttemptRow = { ...attempt, ...decided };
      await intents.transition(tx, intent, 'SUCCEEDED', {
        apiVersion: merchant.pinnedVersion,
        patch: { attempts: intent.attempts + 1, last_error_code: null, last_error_message: null, fee_minor: fee },
        eventData: { attempt: attemptView(succeeded) },
        direct: directWith(succeeded),
      });
      // The money moves after the intent's change and event: its write locks the clearing and pending accounts until the commit.
      const postings = chargePostings(
        { from: accounts.clearing.id, pending: accounts.pending.id, revenue: accounts.revenue?.id, reserve: accounts.reserve?.id },
        attempt.amount_minor,
        fee,
        reserve.amount,
      );
      await ledger.transfer(tx, { ...scope, id: transferId, kind: 'mobile_money_charge', reference: attempt.id, currency, postings }, accounts.accounts, {
        deferred: true,
      });
      // After the transfer, which the attempt names (that foreign key is checked at once).
      await repo.updateLocked(tx, attempt, decided);
      // The statement's rows after it: the merchant's running total is locked from here to the commit.
      await balances.recordCharge(tx, scope, {
        intentId: intent.id,
        currency,
        amount: attempt.amount_minor,
        fee,
        transferId,
        availableOn: balances.availableOn(merchant),
        reserve,
      });
      return undefined;
    });
    announceEvents(deps);
    if (lateRefund) refunds.start(lateRefund);
  }

  const lifecycle = createProviderLifecycle<AttemptRow>({
    what: 'payment attempt',
    request_kind: 'attempt',
    kind: 'collection',
    requests: requestStore(db),
    connectors,
    clock,
    logger: log,
    giveUpAfterMs: ATTEMPT_TIMEOUT_MS,
    store: { load: (id) => repo.find(db, id), loadByReference: (reference) => repo.byReference(db, reference) },
    request: (row) => ({
      // The payer sees the merchant's short name: MTN's prompt, Orange's page (payerName).
      ...paymentRequestOf(row, { payerMessage: row.payer_name ?? `Payment ${row.intent_id}`, payeeNote: row.id }),
      ...(row.payer_name ? { payerName: row.payer_name } : {}),
      ...(row.return_url ? { returnUrl: row.return_url } : {}),
      // What the payer chose and where: an aggregator needs both to reach the operator.
      method: row.provider,
      ...(row.country ? { country: row.country } : {}),
      ...(row.customer ? { customer: row.customer } : {}),
      language: row.language === 'en' ? 'en' : 'fr',
    }),
    known: (row) => ({ providerReference: row.provider_reference ?? undefined, amount: row.amount_minor, currency: row.currency as Currency }),
    remember: async (row, handle) => {
      await repo.update(db, row.id, {
        provider_reference: handle.providerReference ?? null,
        redirect_url: handle.redirectUrl === undefined ? row.redirect_url : payerPage(handle.redirectUrl, row),
      });
    },
    settle,
  });

  return lifecycle;
}

export type AttemptLifecycle = ReturnType<typeof createAttemptLifecycle>;
