import type { DashboardAudit } from '../../platform/http/dashboard-api.ts';
import { instantOf } from '../../platform/http/dashboard-api.ts';
import { newId } from '../../platform/ids.ts';
import { maskPhone } from '../../platform/codes.ts';
import { type Caller, scopeOf } from '../../platform/tenancy.ts';
import type { ChargesService, RecordedRefundBody, RecordedRefunds, RefundBody } from '../charges/index.ts';
import type { EventsService } from '../events/index.ts';
import type { IntentStatus, IntentsService } from '../intents/index.ts';
import type { TopupsService } from '../topups/index.ts';
import type { UsersService } from '../users/index.ts';
import type { Actor } from './dashboard.audit.ts';
import type { EventBody, WebhooksService } from '../webhooks/index.ts';

export interface PaymentsQuery {
  limit: number;
  startingAfter?: string;
  status?: IntentStatus;
  createdGte?: string;
  createdLt?: string;
}

/** The smallest intent id of the millisecond `at`: ids sort by creation time (platform/ids.ts). */
export function intentIdAt(at: Date): string {
  return newId('intent', { now: () => at }, (size) => Buffer.alloc(size));
}

/** A customer as the dashboard names it: id and masked phone number. */
function customerRef(u: { id: string; phoneNumber: string }) {
  return { id: u.id, phoneNumber: maskPhone(u.phoneNumber) };
}

/**
 * The Payments and Customers pages: what composes intents, charges and refunds, events and their
 * deliveries, customers and their top-ups. A cancel or a refund writes its audit entry with it.
 */
export function createDashboardPayments(
  services: {
    intents: IntentsService;
    charges: Pick<ChargesService, 'customerStats' | 'lastPayer' | 'listForCustomer' | 'refund' | 'refundsOf'>;
    topups: Pick<TopupsService, 'listForCustomerAt'>;
    events: EventsService;
    webhooks: WebhooksService;
    users: UsersService;
    recordedRefunds: Pick<RecordedRefunds, 'record' | 'recordable'>;
  },
  auditFor: (actor: Actor) => DashboardAudit,
) {
  const { intents, charges, topups, events, webhooks, users, recordedRefunds } = services;
  /** A refund's audit entry (`payment.refunded`), written in the refund's transaction. */
  const refundAudit = (actor: Actor, scope: Caller, id: string, extra: Record<string, unknown> = {}) =>
    auditFor(actor).withChange(scope.mode, 'payment.refunded', (refund) => {
      const r = refund as { id: string; amount: string; currency: string };
      return { targetId: id, details: { refundId: r.id, amount: r.amount, currency: r.currency, ...extra } };
    });
  return {
    /**
     * The intents list with a creation-date window on top of the status filter. Ids sort by
     * creation time, so `createdLt` becomes a `startingAfter` and `createdGte` a lower bound.
     */
    async listPayments(scope: Caller, q: PaymentsQuery) {
      const gte = instantOf(q.createdGte, 'createdGte');
      const lt = instantOf(q.createdLt, 'createdLt');
      let startingAfter = q.startingAfter;
      if (lt) {
        const bound = intentIdAt(lt);
        if (startingAfter === undefined || bound < startingAfter) startingAfter = bound;
      }
      const page = await intents.list(scope, { limit: q.limit, startingAfter, status: q.status });
      if (!gte) return page;
      const floor = intentIdAt(gte);
      const data = page.data.filter((p) => p.id >= floor);
      return { ...page, data, hasMore: page.hasMore && data.length === page.data.length };
    },

    /** One payment with its events, oldest first, and every webhook delivery of them. */
    async payment(scope: Caller, id: string) {
      const payment = await intents.retrieve(scope, id);
      const found = (await events.listForIntent(scopeOf(scope), payment.id)).map((e) => JSON.parse(e.payload) as EventBody);
      const deliveries = await webhooks.deliveriesOfEvents(
        scopeOf(scope),
        found.map((e) => e.id),
      );
      const payer = await charges.lastPayer(payment.id);
      const customer = payer === undefined ? null : await users.retrieve(scope, payer).then(customerRef, () => null);
      return {
        object: 'dashboard_payment' as const,
        payment,
        events: found,
        deliveries,
        customer,
        refunds: await charges.refundsOf(payment.id),
        refundRecordable: await recordedRefunds.recordable(scopeOf(scope), payment.id),
      };
    },

    /** Cancels an open payment; the audit entry commits with the state change. */
    cancelPayment: (actor: Actor, scope: Caller, id: string) =>
      intents.cancel(
        scope,
        id,
        auditFor(actor).withChange(scope.mode, 'payment.canceled', () => ({ targetId: id })),
      ),

    /**
     * Refunds a payment, all that is left or `amount` (the charges module's refund, as POST
     * /gateway/{id}/refunds); the audit entry commits with the refund.
     */
    refundPayment: (actor: Actor, scope: Caller, id: string, body: RefundBody) => charges.refund(scope, id, body, refundAudit(actor, scope, id)),

    /**
     * Records a refund made outside Caisse (the charges module's, as POST
     * /gateway/{id}/refunds/recorded); the audit entry, a refund's, commits with it.
     */
    recordRefund: (actor: Actor, scope: Caller, id: string, body: RecordedRefundBody) =>
      recordedRefunds.record(scope, id, body, refundAudit(actor, scope, id, { recorded: true })),

    // ---- customers -----------------------------------------------------------------------------

    /**
     * The merchant's customers (those linked to it), newest first, with what each paid this
     * merchant: never a wallet, and the phone masked (the page is for people, not for matching).
     */
    async customers(scope: Caller, q: { limit?: number; startingAfter?: string }) {
      const page = await users.list(scope, q);
      const stats = await charges.customerStats(
        scopeOf(scope),
        page.data.map((u) => u.id),
      );
      return {
        object: 'list' as const,
        data: page.data.map((u) => ({
          ...customerRef(u),
          createdAt: u.createdAt,
          ...(stats.get(u.id) ?? { firstPaymentAt: null, lastPaymentAt: null, payments: 0, volume: [] }),
        })),
        hasMore: page.hasMore,
      };
    },

    /**
     * One customer of the merchant (404 unless linked): its row as in the list, its payment
     * attempts at this merchant, and the top-ups it started through this merchant's checkout.
     */
    async customer(scope: Caller, userId: string) {
      const user = await users.retrieve(scope, userId);
      const stats = await charges.customerStats(scopeOf(scope), [user.id]);
      return {
        object: 'dashboard_customer' as const,
        customer: {
          ...customerRef(user),
          createdAt: user.createdAt,
          ...(stats.get(user.id) ?? { firstPaymentAt: null, lastPaymentAt: null, payments: 0, volume: [] }),
        },
        payments: await charges.listForCustomer(scopeOf(scope), user.id),
        topups: await topups.listForCustomerAt(scopeOf(scope), user.id),
      };
    },
  };
}
