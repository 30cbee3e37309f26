/**
 * The shapes the dashboard API answers, read from the types generated from the server's route
 * schemas (`DashboardPaths` of @caisse/api-types, `npm run generate:types`): a schema change on the server is a type
 * error here, never a silent copy gone stale. Only the enumerations the pages loop over, and the
 * names the pages use, are written here.
 */
import type { MessageId } from '../shared/i18n.tsx';
import type { DashboardPaths as paths } from '@caisse/api-types';

type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;
/** What `method path` answers with its success status (200 or 201), as JSON. */
export type Answer<P extends keyof paths, M extends 'get' | 'post' | 'put' | 'patch' | 'delete'> = paths[P][M] extends { responses: infer R }
  ? R extends { 200: infer A }
    ? Json<A>
    : R extends { 201: infer A }
      ? Json<A>
      : R extends { 202: infer A }
        ? Json<A>
        : never
  : never;
/** One row of a list answer. */
type Row<P extends keyof paths> = Answer<P, 'get'> extends { data: (infer T)[] } ? T : never;

export type Mode = 'test' | 'live';

export interface List<T> {
  data: T[];
  hasMore: boolean;
}

export type Session = Answer<'/dashboard/api/session', 'get'>;
export type SignUpRequested = Answer<'/dashboard/api/sign-up', 'post'>;
export type EmailVerified = Answer<'/dashboard/api/sign-up/verify', 'post'>;
export type BusinessProfile = Answer<'/dashboard/api/profile', 'get'>;
export type ProfileDetails = BusinessProfile['details'];
/** The answer of a password sign-in when the user has two-factor sign-in: no session yet. */
export type LoginChallenge = Extract<Answer<'/dashboard/api/login', 'post'>, { object: 'dashboard_login_challenge' }>;
export type AccountSecurity = Answer<'/dashboard/api/account/security', 'get'>;
export type TotpEnrolment = Answer<'/dashboard/api/account/totp', 'post'>;
export type AccountSessionEntry = Row<'/dashboard/api/account/sessions'>;

export type PaymentStatus = Row<'/dashboard/api/{mode}/payments'>['status'];
export const PAYMENT_STATUSES: PaymentStatus[] = ['PENDING', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'EXPIRED', 'CANCELED', 'PARTIALLY_REFUNDED', 'REFUNDED'];

/**
 * A payment as the list and the detail answer it: a direct mobile-money payment's attempts come
 * as a list (with the method), a wallet payment's as the count of its declines.
 */
export type Payment = Row<'/dashboard/api/{mode}/payments'>;
/** One try at paying an intent directly with mobile money, as the merchant sees it. */
export type PaymentAttempt = Extract<Payment['attempts'], unknown[]>[number];

/** A refund: wallet refunds succeed at once; mobile-money ones are pending until the provider answers. */
export type Refund = Answer<'/dashboard/api/{mode}/payments/{id}/refund', 'post'>;

export type PaymentDetail = Answer<'/dashboard/api/{mode}/payments/{id}', 'get'>;
/** A refund made outside Caisse, as the merchant records it. */
export type RecordedRefundBody = NonNullable<
  paths['/dashboard/api/{mode}/payments/{id}/recorded-refund']['post']['requestBody']
>['content']['application/json'];

export type EventDetail = Answer<'/dashboard/api/{mode}/events/{id}', 'get'>;
export type WebhookEvent = EventDetail['event'];
export type DeliveryDetail = EventDetail['deliveries'][number];
export type AttemptDetail = DeliveryDetail['attempts'][number];
export type Delivery = Row<'/dashboard/api/{mode}/webhook-endpoints/{id}/deliveries'>;

export type CustomerDetail = Answer<'/dashboard/api/{mode}/customers/{id}', 'get'>;
export type Customer = Row<'/dashboard/api/{mode}/customers'>;

/** What a restricted key may touch (the server's API resources), and how. */
export const API_RESOURCES = ['payments', 'refunds', 'payouts', 'customers', 'balance', 'webhooks', 'events', 'payment_links'] as const;
export type ApiResource = (typeof API_RESOURCES)[number];
export type AccessLevel = 'none' | 'read' | 'write';
export type KeyPermissions = Partial<Record<ApiResource, AccessLevel>>;

export type ApiKey = Row<'/dashboard/api/{mode}/keys'>;
export type CreatedApiKey = Answer<'/dashboard/api/{mode}/keys', 'post'>;

/** Event types, as the server's catalogue lists them: endpoints' choices and the Events page's filter. */
export const EVENT_TYPES = [
  'payment.processing',
  'payment.completed',
  'payment.failed',
  'payment.expired',
  'payment.canceled',
  'payment.refunded',
  'refund.failed',
  'payout.paid',
  'payout.failed',
] as const satisfies readonly EndpointWithSecret['enabledEvents'][number][];

export type Endpoint = Answer<'/dashboard/api/{mode}/webhook-endpoints/{id}', 'get'>;
export type EndpointWithSecret = Answer<'/dashboard/api/{mode}/webhook-endpoints', 'post'>;
export type EndpointStats = Answer<'/dashboard/api/{mode}/webhook-endpoints/{id}/stats', 'get'>;
export type EndpointSecret = Answer<'/dashboard/api/{mode}/webhook-endpoints/{id}/reveal-secret', 'post'>;

export type Balance = Answer<'/dashboard/api/{mode}/balance', 'get'>;
export type BalanceTransaction = Row<'/dashboard/api/{mode}/balance/transactions'>;
export type BalanceTransactionType = BalanceTransaction['type'];
export const BALANCE_TRANSACTION_TYPES: BalanceTransactionType[] = [
  'charge',
  'fee',
  'refund',
  'payout',
  'payout_reversal',
  'refund_reversal',
  'late_payment',
  'adjustment',
  'reserve',
  'reserve_release',
];

export const CURRENCIES = ['XAF', 'XOF', 'EUR', 'USD'] as const;

/** The registry's providers with their brands (the same in every language) and what they can do. */
export type ProviderList = Answer<'/dashboard/api/{mode}/providers', 'get'>;
export type Provider = ProviderList['data'][number];

export type Payout = Row<'/dashboard/api/{mode}/payouts'>;
export type PayoutStatus = Payout['status'];
export const PAYOUT_STATUSES: PayoutStatus[] = ['REVIEW', 'PENDING', 'PAID', 'FAILED'];

export const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type PayoutSchedule = Answer<'/dashboard/api/{mode}/payout-schedule', 'get'>;

export type Message = Row<'/dashboard/api/{mode}/messages'>;
export type TestUser = Answer<'/dashboard/api/{mode}/test-users', 'post'>;

export type PaymentLink = Row<'/dashboard/api/{mode}/payment-links'>;

export type Team = Answer<'/dashboard/api/team', 'get'>;
export type TeamMember = Team['members'][number];
export type Invitation = Team['invitations'][number];
export type Role = TeamMember['role'];
export const ROLES: Role[] = ['owner', 'developer', 'analyst', 'support'];
export type InvitationPreview = Answer<'/dashboard/api/invitations/{token}', 'get'>;

export type AuditEntry = Row<'/dashboard/api/audit-log'>;
export type AuditAction = AuditEntry['action'];
/**
 * The audit log's actions, each with the words its filter and its rows show. A record keyed by the
 * generated union rather than a list: an action the server adds (or drops) is a type error here
 * until the page follows.
 */
export const AUDIT_ACTION_LABELS: Record<AuditAction, MessageId> = {
  'key.created': 'audit.key.created',
  'key.rolled': 'audit.key.rolled',
  'key.revoked': 'audit.key.revoked',
  'key.origins_changed': 'audit.key.origins_changed',
  'webhook_endpoint.created': 'audit.webhook_endpoint.created',
  'webhook_endpoint.updated': 'audit.webhook_endpoint.updated',
  'webhook_endpoint.deleted': 'audit.webhook_endpoint.deleted',
  'webhook_endpoint.secret_rolled': 'audit.webhook_endpoint.secret_rolled',
  'webhook_endpoint.secret_revealed': 'audit.webhook_endpoint.secret_revealed',
  'payment.refunded': 'audit.payment.refunded',
  'payment.canceled': 'audit.payment.canceled',
  'payout.created': 'audit.payout.created',
  'payout_schedule.changed': 'audit.payout_schedule.changed',
  'member.invited': 'audit.member.invited',
  'member.role_changed': 'audit.member.role_changed',
  'member.removed': 'audit.member.removed',
  'invitation.accepted': 'audit.invitation.accepted',
  'invitation.revoked': 'audit.invitation.revoked',
};
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as AuditAction[];

export type Overview = Answer<'/dashboard/api/{mode}/overview', 'get'>;
export type OverviewPeriod = Overview['period'];
export type OverviewFigures = Overview['current'];

export type CountrySettings = Answer<'/dashboard/api/settings/country', 'get'>;
export type Country = CountrySettings['country'];
/** Where a merchant sells: it picks the currency and the providers checkout offers. */
export const COUNTRIES: Country[] = ['CM', 'SN', 'CI', 'BJ', 'BF', 'ML', 'TG'];
export type PaymentMethodSettings = Answer<'/dashboard/api/{mode}/payment-methods/settings', 'get'>;
