import type { Deps } from '../../platform/deps.ts';
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS } from '../../platform/throttle.ts';
import { AUDIT_ACTIONS } from '../../platform/http/dashboard-api.ts';
import type { ChargesService } from '../charges/index.ts';
import type { TopupsService } from '../topups/index.ts';
import type { EventsService } from '../events/index.ts';
import type { IntentsService } from '../intents/index.ts';
import type { MerchantsService } from '../merchants/index.ts';
import type { MessagingService } from '../messaging/index.ts';
import type { UsersService } from '../users/index.ts';
import type { WebhooksService } from '../webhooks/index.ts';
import { createDashboardAnalytics } from './dashboard.analytics.ts';
import { createDashboardAudit } from './dashboard.audit.ts';
import { createCheckoutPages } from './dashboard.checkout.ts';
import { createDashboardExports } from './dashboard.exports.ts';
import { createDashboardPayments } from './dashboard.payments.ts';
import { createDashboardSearch } from './dashboard.search.ts';
import { createDashboardSessions } from './dashboard.sessions.ts';

/** Sign-in lockout: 5 failures per e-mail address within 15 minutes (as POST /auth/web). */
export { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS };
export { AUDIT_ACTIONS };
export { OVERVIEW_PERIODS, type OverviewPeriod } from './dashboard.analytics.ts';
export type { Actor } from './dashboard.audit.ts';
export { CHECKOUT_KEY_NAME, type CheckoutPageConfig } from './dashboard.checkout.ts';
export type { PaymentsQuery } from './dashboard.payments.ts';
export { PHONE_SEARCH_MIN_DIGITS } from './dashboard.search.ts';
export { type DashboardSession, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, type SessionView } from './dashboard.sessions.ts';

/**
 * The dashboard module's service, composed of its concerns: sessions (sign-in, CSRF, what a role
 * allows), the audit log, the Payments and Customers pages, the search, the CSV export, the Home
 * page's figures and the hosted checkout's key. Each part is built once here with what it uses.
 */
export function createDashboardService(
  deps: Deps,
  services: {
    merchants: MerchantsService;
    intents: IntentsService;
    charges: Pick<
      ChargesService,
      'customerStats' | 'lastPayer' | 'listForCustomer' | 'refund' | 'refundsOf' | 'hourFigures' | 'intentsOfPayers' | 'walletPayersOf'
    >;
    topups: Pick<TopupsService, 'listForCustomerAt'>;
    events: EventsService;
    webhooks: WebhooksService;
    messaging: MessagingService;
    users: UsersService;
  },
) {
  const audit = createDashboardAudit(deps);
  return {
    ...createDashboardSessions(deps, services),
    auditFor: audit.auditFor,
    audit: { record: audit.record, list: audit.list },
    ...createDashboardPayments(services, audit.auditFor),
    ...createDashboardExports(services),
    ...createDashboardSearch(services),
    ...createDashboardAnalytics(deps, services.charges),
    ...createCheckoutPages(deps, services),
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
