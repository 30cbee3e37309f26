import { readExecutor, type Tx } from '../../platform/db.ts';
import { HOUR, MINUTE } from '../../platform/clock.ts';
import { firstIdAt } from '../../platform/ids.ts';
import { type FeeSchedule, feeOf, feeReturned } from '../../platform/fees.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type IdempotentAnswer, inTransaction } from '../../platform/http/idempotency.ts';
import { allAhead } from '../../platform/prepared.ts';
import { type Currency, formatAmount, minorUnits, parseAmount } from '../../platform/money.ts';
import { announceEvents } from '../events/index.ts';
import { type IntentsService, type PublicIntent, publicView, statusAfterFailedCharge, statusAfterRefund } from '../intents/index.ts';
import type { BalancesService } from '../balances/index.ts';
import type { LedgerService, PostingInput } from '../ledger/index.ts';
import { assertSameUser, type OtpService } from '../otp/index.ts';
import { chargesRepository as repo, type HourFigures, type RefundRow } from './charges.repository.ts';

export type { HourFigures };
import type { ChargeBody, Refund, RefundBody } from './charges.schema.ts';
import type { Caller, KeyMode, MerchantContext, Scope, UserContext } from '../../platform/tenancy.ts';

/** What a refused charge writes into the intent's lastError (it names no balance: the merchant reads it). */
export function insufficientFundsMessage(amount: string, currency: string): string {
  return `The wallet does not hold the ${amount} ${currency} to pay`;
}

export function refundView(r: RefundRow): Refund {
  return {
    id: r.id,
    object: 'refund',
    amount: formatAmount(r.amount_minor, r.currency as Currency),
    currency: r.currency,
    intentId: r.intent_id,
    status: 'SUCCEEDED',
    reason: r.reason,
    createdAt: r.created_at.toISOString(),
  };
}

export function notFound(id: string, param: string): ApiError {
  return new ApiError('not_found', `No payment intent ${id}`, { param });
}

export function stateInvalid(status: string, doing: string): ApiError {
  return new ApiError('intent_state_invalid', `An intent that is ${status} cannot be ${doing}`, { extra: { intentStatus: status } });
}

/** 201 for a refund already done (a wallet payment's), 202 for one the provider still has to make. */
export function refundStatusCode(refund: Refund): 201 | 202 {
  return refund.status === 'SUCCEEDED' ? 201 : 202;
}

/** What a refund asks for (default: all that is `left`), or 422 `refund_exceeds_amount`. */
export function refundAmount(body: RefundBody, left: bigint, currency: Currency): bigint {
  const amount = body.amount === undefined ? left : parseAmount(body.amount, currency);
  if (amount > left || amount <= 0n) {
    throw new ApiError('refund_exceeds_amount', `At most ${formatAmount(left, currency)} ${currency} is left to refund`, {
      param: 'amount',
      extra: { amountRefundable: formatAmount(left > 0n ? left : 0n, currency) },
    });
  }
  return amount;
}

/** What a customer paid one merchant (the dashboard's Customers page). */
export interface CustomerPayments {
  firstPaymentAt: string | null;
  lastPaymentAt: string | null;
  payments: number;
  volume: { currency: string; amount: string }[];
}

/**
 * An hour is rolled up once it has been closed this long: a charge's transaction reads the clock
 * before it commits, and must have committed before its hour is counted.
 */
export const ROLLUP_GRACE_MS = 2 * MINUTE;
const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR) * HOUR);
/** Charges made in [from, to), with the primary-key bounds that find them (a minute of slack each side). */
const chargeWindow = (from: Date, to: Date) => ({
  from,
  to,
  idFrom: firstIdAt('charge', new Date(from.getTime() - MINUTE)),
  idTo: firstIdAt('charge', new Date(to.getTime() + MINUTE)),
});

/** What a charge answers: the paid intent, or the refusal it committed (declined, expired). */
type ChargeOutcome = { kind: 'succeeded'; intent: PublicIntent } | { kind: 'refused'; error: ApiError };

/**
 * The money movement (docs/spec/payment-intents.md, docs/spec/otp-and-charge.md): a charge moves the intent's amount from the paying user's
 * wallet to the merchant's balance; a refund moves (part of) it back. Each is one transaction
 * under the intent's row lock, with the ledger transfer, the state change and its event.
 */
/** The merchant's fee schedule in a currency: its own where it has one, else the configured default. */
/**
 * A charge's postings: the payer's money out of `from`, into the merchant's pending account
 * (amount − fee − the reserve's share), its reserve account (that share, when held) and the
 * platform's revenue (the fee). Postings of zero are left out.
 */
export function chargePostings(
  to: { from: string; pending: string; revenue?: string; reserve?: string },
  amount: bigint,
  fee: bigint,
  reserve: bigint,
): PostingInput[] {
  const postings: PostingInput[] = [
    { accountId: to.from, amount: -amount },
    { accountId: to.pending, amount: amount - fee - reserve },
  ];
  if (to.reserve !== undefined) postings.push({ accountId: to.reserve, amount: reserve });
  if (to.revenue !== undefined) postings.push({ accountId: to.revenue, amount: fee });
  return postings.filter((p) => p.amount !== 0n);
}

export function feeScheduleOf(config: Deps['config'], merchant: Pick<MerchantContext, 'fees'>, currency: Currency): FeeSchedule {
  const own = merchant.fees;
  const bps = own?.bps ?? config.fees.bps;
  const fixed = own?.fixedMinor ? own.fixedMinor[currency] : undefined;
  return { bps, fixedMinor: minorUnits(fixed !== undefined ? BigInt(fixed) : own?.fixedMinor ? 0n : (config.fees.fixedMinor[currency] ?? 0n)) };
}

export function createChargesService(
  deps: Deps,
  collaborators: {
    ledger: LedgerService;
    balances: Pick<BalancesService, 'availableOn' | 'recordCharge' | 'refundSource' | 'recordRefund' | 'reserveFor' | 'drawReserve' | 'drawOwnHold'>;
    intents: Pick<IntentsService, 'lockForChange' | 'expireIfDue' | 'transition' | 'publicViewIn'>;
    otp: Pick<OtpService, 'spend'>;
    /** A charge is a payment attempt: the merchant sees the customer from then on (users.link). */
    customers: { link(scope: Scope, userId: string, tx: Tx): Promise<void> };
    /** The customer limits (the users module's): 403 `customer_limit_exceeded` above the payment cap. */
    limits?: { checkPayment(tx: Tx, usage: { mode: KeyMode; currency: Currency; amount: bigint }): Promise<void> };
    /** The operator's cap on the merchant's methods (the methods module): 403 `payment_method_not_allowed` without the wallet. */
    methodCaps?: { checkWalletAhead(tx: Tx, scope: Scope): Promise<void> };
    /** Refunds of payments made directly with mobile money (charges.refunds.ts): undefined when the intent was not paid that way. */
    directRefunds?: {
      refund(merchant: Caller, intentId: string, body: RefundBody, answer?: IdempotentAnswer): Promise<Refund | undefined>;
      listForIntent(intentId: string): Promise<Refund[]>;
    };
    /** Refunds made outside Caisse and recorded by the merchant (charges.recorded.ts). */
    recordedRefunds?: { listForIntent(intentId: string): Promise<Refund[]> };
  },
) {
  const { db, clock, ids } = deps;
  const { ledger, balances, intents, otp, customers } = collaborators;
  const feeSchedule = (merchant: MerchantContext, currency: Currency) => feeScheduleOf(deps.config, merchant, currency);

  return {
    /**
     * What each of these customers paid this merchant in this mode (succeeded charges): first and
     * last payment, how many, and the volume per currency.
     */
    async customerStats(scope: Scope, userIds: readonly string[]): Promise<Map<string, CustomerPayments>> {
      const stats = new Map<string, CustomerPayments>();
      for (const r of await repo.statsByCustomer(readExecutor(db), scope.merchantId, scope.mode, userIds)) {
        const s = stats.get(r.user_id) ?? { firstPaymentAt: null, lastPaymentAt: null, payments: 0, volume: [] };
        const first = new Date(r.first_at as unknown as Date);
        const last = new Date(r.last_at as unknown as Date);
        if (s.firstPaymentAt === null || first < new Date(s.firstPaymentAt)) s.firstPaymentAt = first.toISOString();
        if (s.lastPaymentAt === null || last > new Date(s.lastPaymentAt)) s.lastPaymentAt = last.toISOString();
        s.payments += Number(r.count);
        s.volume.push({ currency: r.currency, amount: formatAmount(BigInt(r.volume), r.currency as Currency) });
        stats.set(r.user_id, s);
      }
      return stats;
    },

    /** A customer's payment attempts at this merchant, newest first (the dashboard's customer page). */
    async listForCustomer(scope: Scope, userId: string, limit = 50) {
      return (await repo.listForCustomer(db, scope.merchantId, scope.mode, userId, limit)).map((c) => ({
        id: c.id,
        intentId: c.intent_id,
        amount: formatAmount(c.amount_minor, c.currency as Currency),
        currency: c.currency,
        status: c.status,
        failureCode: c.failure_code,
        createdAt: c.created_at.toISOString(),
      }));
    },

    /** Who paid each of these intents by wallet (or last tried to), by intent id: the customer's id. */
    async walletPayersOf(intentIds: readonly string[]): Promise<Map<string, string>> {
      return new Map((await repo.payersOfIntents(readExecutor(db), intentIds)).map((r) => [r.intent_id, r.user_id]));
    },

    /** The customer who last tried to pay this intent, if any (the dashboard links to it). */
    lastPayer: (intentId: string) => repo.lastPayer(db, intentId),

    /** An intent's refunds, oldest first: to the wallet, to mobile money, and those recorded as made outside Caisse (the dashboard's payment detail). */
    async refundsOf(intentId: string): Promise<Refund[]> {
      const [wallet, direct, recorded] = await Promise.all([
        repo.listRefunds(db, intentId),
        collaborators.directRefunds?.listForIntent(intentId) ?? [],
        collaborators.recordedRefunds?.listForIntent(intentId) ?? [],
      ]);
      return [...wallet.map(refundView), ...direct, ...recorded].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },

    /** The intents these customers paid or tried to pay to the merchant, newest first (the dashboard's phone search). */
    intentsOfPayers: (scope: Scope, userIds: readonly string[], limit: number) =>
      repo.intentsOfPayers(readExecutor(db), scope.merchantId, scope.mode, userIds, limit),

    /**
     * The rollup worker's round: rolls up the oldest closed hour not rolled yet (every merchant at
     * once), in one transaction with the rollup's point, which moves one hour on. Returns true when
     * another closed hour is waiting. Idempotent and resumable: the point and the hour's rows
     * commit together, under the point's row lock.
     */
    async rollUpNext(): Promise<boolean> {
      const now = clock.now();
      const closedBefore = floorHour(new Date(now.getTime() - ROLLUP_GRACE_MS));
      return db.transaction().execute(async (tx) => {
        let hour = await repo.lockRollupState(tx);
        if (hour === null) {
          const first = await repo.firstPaymentAt(tx, firstIdAt('charge', new Date(0)));
          if (first === undefined) return false;
          hour = floorHour(first);
        }
        if (hour >= closedBefore) return false;
        const end = new Date(hour.getTime() + HOUR);
        await repo.rollUpHour(tx, chargeWindow(hour, end));
        await repo.setRolledUntil(tx, end);
        return end < closedBefore;
      });
    },

    /**
     * The overview's figures of [from, to) per hour and currency (from must be a whole hour): the
     * rolled-up hours from the rollup, the rest (the open hour, or hours the worker has not
     * reached) live from the charges through their primary key.
     */
    async hourFigures(scope: Scope, from: Date, to: Date): Promise<HourFigures[]> {
      const reads = readExecutor(db);
      const rolledUntil = await repo.readRollupState(reads);
      const liveFrom = new Date(Math.max(from.getTime(), Math.min(floorHour(to).getTime(), rolledUntil?.getTime() ?? 0)));
      const [rolled, live] = await Promise.all([
        repo.rolledHours(reads, scope.merchantId, scope.mode, from, liveFrom),
        repo.liveHours(reads, scope.merchantId, scope.mode, chargeWindow(liveFrom, to), rolledUntil),
      ]);
      return [...rolled, ...live];
    },

    /**
     * POST /charge. In one transaction: lock the intent; refuse it when unknown (404), expired
     * (409 `intent_expired`, recording the expiry if no sweeper did yet), waiting for a mobile-money
     * attempt (409 `attempt_in_progress`) or not PENDING (409 `intent_state_invalid`); spend the authorization token (401 `otp_token_invalid`); move the
     * money; SUCCEEDED and `payment.completed`. A wallet that does not hold enough is a declined
     * attempt, committed as such (attempt counted, lastError, `payment.failed`, FAILED at the
     * third; the token is spent) and then answered 402 `insufficient_funds`. With `answer` (an
     * Idempotency-Key), the answer of each outcome that commits is stored in its transaction.
     */
    async charge(merchant: MerchantContext, user: UserContext, body: ChargeBody, otpToken: string, answer?: IdempotentAnswer): Promise<PublicIntent> {
      if (body.userId !== undefined) assertSameUser(user, body.userId);
      const intentId = body.intentionId;
      const scope = { merchantId: merchant.merchantId, mode: merchant.mode };
      const outcome = await inTransaction(db, answer, async (tx): Promise<ChargeOutcome> => {
        const refused = async (error: ApiError): Promise<ChargeOutcome> => {
          await answer?.recordProblem(tx, error);
          return { kind: 'refused', error };
        };
        // The intent's lock and the token's spend go together, in one round trip with the BEGIN.
        const spending = otp.spend(tx, { token: otpToken, ...scope, userId: user.userId, intentId });
        const [locked] = await allAhead([intents.lockForChange(tx, scope, intentId), spending.sent]);
        if (!locked) throw notFound(intentId, 'intentionId');
        const row = await intents.expireIfDue(tx, locked, merchant.pinnedVersion);
        if (row !== locked || row.status === 'EXPIRED') {
          // The expiry commits; the token was not used to pay.
          await spending.undo(tx);
          return refused(new ApiError('intent_expired', 'The intent has expired; create a new intent', { param: 'intentionId' }));
        }
        // One attempt in flight per intent, whichever way the second would pay.
        if (row.status === 'PROCESSING')
          throw new ApiError('attempt_in_progress', 'An attempt of this intent is waiting for the provider; wait for its outcome', {
            param: 'intentionId',
          });
        if (row.status !== 'PENDING') throw stateInvalid(row.status, 'charged');

        await customers.link(scope, user.userId, tx);
        await spending.check();

        const currency = row.currency as Currency;
        // The operator's caps (wallet allowed, payment cap) are read ahead, with the wallet's lock: one round trip.
        const [, , { wallet, balance, revenue, accounts }] = await allAhead([
          collaborators.methodCaps?.checkWalletAhead(tx, scope),
          collaborators.limits?.checkPayment(tx, { mode: merchant.mode, currency, amount: row.amount_minor }),
          ledger.paymentAccounts(tx, { ...scope, userId: user.userId, currency }),
        ]);
        const attempts = row.attempts + 1;
        const base = {
          id: ids('charge'),
          merchant_id: scope.merchantId,
          mode: scope.mode,
          intent_id: row.id,
          user_id: user.userId,
          amount_minor: row.amount_minor,
          currency,
          created_at: clock.now(),
        };
        // The wallet is locked: what it holds now is what the transfer would find.
        if (wallet.balance < row.amount_minor) {
          const message = insufficientFundsMessage(formatAmount(row.amount_minor, currency), currency);
          await repo.insertCharge(tx, { ...base, status: 'failed', failure_code: 'insufficient_funds', failure_message: message, transfer_id: null });
          // Only the customer who started the payment counts against it, by their own declines
          // (issue 20): anyone else's is theirs alone, and the intent stays as it was. A test intent
          // paid with unbound codes has no starter yet: its first declined payer starts it.
          const starter = row.started_by ?? user.userId;
          const failed = publicView(
            starter !== user.userId
              ? row
              : await intents.transition(tx, row, statusAfterFailedCharge(await repo.countDeclined(tx, row.id, user.userId)), {
                  apiVersion: merchant.pinnedVersion,
                  patch: {
                    attempts,
                    last_error_code: 'insufficient_funds',
                    last_error_message: message,
                    ...(row.started_by === null ? { started_by: user.userId } : {}),
                  },
                }),
            clock.now(),
          );
          return refused(
            new ApiError('insufficient_funds', `${message}; the payment was not made`, { extra: { intentStatus: failed.status, attempts: failed.attempts } }),
          );
        }
        // The money moves last: its write locks the merchant's balance, which every charge of the
        // merchant needs, and holds it to the commit. The charge row names the transfer before
        // it exists (the foreign key is checked at commit).
        const transferId = ids('transfer');
        const fee = feeOf(minorUnits(row.amount_minor), feeSchedule(merchant, currency));
        await repo.insertCharge(tx, { ...base, status: 'succeeded', failure_code: null, failure_message: null, transfer_id: transferId, fee_minor: fee });
        const paid = await intents.transition(tx, row, 'SUCCEEDED', {
          apiVersion: merchant.pinnedVersion,
          patch: { attempts, last_error_code: null, last_error_message: null, fee_minor: fee },
        });
        // The answer is stored before the transfer, so it does not lengthen the balance's lock.
        // An intent that had a direct mobile-money attempt shows its attempts, as every read does.
        const intent = paid.direct_payment ? await intents.publicViewIn(tx, paid) : publicView(paid, clock.now());
        await answer?.record(tx, 200, intent);
        // The merchant receives amount − fee (less the reserve's share, held), the platform's revenue the fee, in one transfer.
        const reserve = balances.reserveFor(merchant, row.amount_minor - fee);
        const held = reserve.amount > 0n ? await ledger.merchantReserve(tx, { ...scope, currency }) : undefined;
        await ledger.transfer(
          tx,
          {
            ...scope,
            id: transferId,
            kind: 'charge',
            reference: row.id,
            currency,
            postings: chargePostings({ from: wallet.id, pending: balance.id, revenue: revenue.id, reserve: held?.id }, row.amount_minor, fee, reserve.amount),
          },
          held ? [...accounts, held] : accounts,
          { deferred: true },
        );
        // The statement's rows last: the merchant's running total is locked from here to the commit.
        await balances.recordCharge(tx, scope, {
          intentId: row.id,
          currency,
          amount: row.amount_minor,
          fee,
          transferId,
          availableOn: balances.availableOn(merchant),
          reserve,
        });
        return { kind: 'succeeded', intent };
      });
      // Every outcome that got here committed an event (completed, failed or expired).
      announceEvents(deps);
      if (outcome.kind === 'refused') throw outcome.error;
      return outcome.intent;
    },

    /**
     * POST /gateway/{id}/refunds: all that is left (default) or part of it, back from the
     * merchant's balance to the wallet that paid (a direct mobile-money payment: to the payer's
     * number, through `directRefunds`), in one transaction under the intent's row lock
     * (PARTIALLY_REFUNDED / REFUNDED and `payment.refunded`). More than is left: 422
     * `refund_exceeds_amount`; an intent that was not paid (or is fully refunded): 409
     * `intent_state_invalid`. The merchant's balance may go below zero (see the OpenAPI notes).
     */
    async refund(merchant: Caller, intentId: string, body: RefundBody, answer?: IdempotentAnswer): Promise<Refund> {
      const direct = await collaborators.directRefunds?.refund(merchant, intentId, body, answer);
      if (direct) return direct;
      const scope = { merchantId: merchant.merchantId, mode: merchant.mode };
      const refund = await db.transaction().execute(async (tx) => {
        const row = await intents.lockForChange(tx, scope, intentId);
        if (!row) throw notFound(intentId, 'id');
        if (row.status !== 'SUCCEEDED' && row.status !== 'PARTIALLY_REFUNDED') throw stateInvalid(row.status, 'refunded');
        const currency = row.currency as Currency;
        const amount = refundAmount(body, row.amount_minor - row.amount_refunded_minor, currency);
        const charge = await repo.findSucceeded(tx, row.id);
        if (!charge) throw new Error(`intent ${row.id} is ${row.status} without a succeeded charge`);

        // Still pending (not settled): the refund comes out of pending; else out of available.
        const source = await balances.refundSource(tx, scope, row.id, currency);
        const balance = source.account;
        const wallet = await ledger.userWallet(tx, { ...scope, userId: charge.user_id, currency });
        // The fee comes back in proportion to what is refunded (exactly all of it once all is refunded).
        const feeBack = feeReturned({
          amount: minorUnits(row.amount_minor),
          fee: minorUnits(row.fee_minor ?? 0n),
          refundedBefore: minorUnits(row.amount_refunded_minor),
          refund: minorUnits(amount),
        });
        // The rolling reserve: out of available, it covers what available cannot; out of pending,
        // the payment's own hold comes back in proportion.
        const drawn =
          source.status === 'available'
            ? await balances.drawReserve(tx, scope, currency, amount - feeBack)
            : await balances.drawOwnHold(tx, scope, {
                intentId: row.id,
                currency,
                amount: row.amount_minor,
                refundedBefore: row.amount_refunded_minor,
                refund: amount,
              });
        const postings = [
          { accountId: wallet.id, amount },
          { accountId: balance.id, amount: -(amount - feeBack - drawn.drawn) },
          ...(drawn.account ? [{ accountId: drawn.account.id, amount: -drawn.drawn }] : []),
        ].filter((p) => p.amount !== 0n);
        if (feeBack > 0n) postings.push({ accountId: (await ledger.platformRevenue(tx, { ...scope, currency })).id, amount: -feeBack });
        const transfer = await ledger.transfer(tx, { ...scope, kind: 'refund', reference: row.id, currency, postings });
        const refunded = row.amount_refunded_minor + amount;
        await intents.transition(tx, row, statusAfterRefund(row.amount_minor, refunded), {
          apiVersion: merchant.pinnedVersion,
          patch: { amount_refunded_minor: refunded },
        });
        const refund = refundView(
          await repo.insertRefund(tx, {
            id: ids('refund'),
            merchant_id: scope.merchantId,
            mode: scope.mode,
            intent_id: row.id,
            charge_id: charge.id,
            amount_minor: amount,
            currency,
            reason: body.reason ?? null,
            transfer_id: transfer.id,
            fee_returned_minor: feeBack,
            created_at: clock.now(),
          }),
        );
        await balances.recordRefund(tx, scope, {
          refundId: refund.id,
          intentId: row.id,
          currency,
          amount,
          feeReturned: feeBack,
          reserveDrawn: drawn.drawn,
          transferId: transfer.id,
          status: source.status,
          availableOn: source.availableOn,
        });
        await answer?.record(tx, 201, refund);
        return refund;
      });
      announceEvents(deps);
      return refund;
    },
  };
}

export type ChargesService = ReturnType<typeof createChargesService>;
