/** The shapes the dashboard API answers (packages/server/src/modules/dashboard/dashboard.schema.ts). */
import type { PaymentAttempt as PublicAttempt } from '@caisse/react';

export type Mode = 'test' | 'live';

export interface Session {
  object: 'dashboard_session';
  email: string;
  /** The user's own language; null: none chosen (the browser's, then the merchant's, decide). */
  language: 'fr' | 'en' | null;
  merchant: { id: string; name: string; language: 'fr' | 'en' };
  /** The user's team role, and what it may do (the page shows only what works). */
  role: Role;
  permissions: string[];
  csrfToken: string;
  expiresAt: string;
  /** Two-factor sign-in is on; without it live mode answers 403 `totp_required`. */
  totpEnabled: boolean;
}

/** The answer of a password sign-in when the user has two-factor sign-in: no session yet. */
export interface LoginChallenge {
  object: 'dashboard_login_challenge';
  mfaRequired: true;
  challenge: string;
  expiresAt: string;
}

export interface AccountSecurity {
  totpEnabled: boolean;
  totpEnabledAt: string | null;
  recoveryCodesLeft: number;
}

export interface TotpEnrolment {
  secret: string;
  uri: string;
  /** An SVG data URL of the otpauth:// URI. */
  qrCode: string;
}

export interface AccountSessionEntry {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  address: string | null;
  userAgent: string | null;
  current: boolean;
}

export type PaymentStatus = 'PENDING' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED' | 'EXPIRED' | 'CANCELED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
export const PAYMENT_STATUSES: PaymentStatus[] = ['PENDING', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'EXPIRED', 'CANCELED', 'PARTIALLY_REFUNDED', 'REFUNDED'];

export interface Payment {
  id: string;
  amount: string;
  currency: string;
  description: string | null;
  status: PaymentStatus;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  livemode: boolean;
  amountRefunded: string;
  lastError: { code: string; message: string } | null;
  /** The tries so far: each attempt (contract §12), or their count from a server before it. */
  attempts: number | PaymentAttempt[];
  metadata: Record<string, string | number | boolean>;
  /** What Caisse kept and what the merchant gets, once paid (contract §10). */
  fee?: string | null;
  net?: string | null;
  /** How it was paid: the provider and the payer's number, masked. */
  paymentMethod?: { type: string; provider?: string | null; phoneNumber?: string | null } | null;
}

/** One try at paying an intent with a method (contract §12), as the merchant sees it. */
export interface PaymentAttempt extends PublicAttempt {
  /** The payer's number, masked. */
  phoneNumber?: string | null;
  /** The provider's own id for the request (MTN's financialTransactionId), once known. */
  providerReference?: string | null;
}

/** A refund: wallet refunds are SUCCEEDED at once; mobile-money ones are PENDING until the provider answers. */
export interface Refund {
  id: string;
  amount: string;
  currency: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  /** e.g. `late_payment`: a success that came when the intent could no longer take it, returned automatically. */
  reason?: string | null;
  failureCode?: string | null;
  createdAt: string;
}

export interface List<T> {
  data: T[];
  hasMore: boolean;
}

export interface WebhookEvent {
  id: string;
  type: string;
  createdAt: string;
  livemode: boolean;
  data: { paymentIntent?: Record<string, unknown>; payout?: Record<string, unknown> };
}

export interface Delivery {
  id: string;
  eventId: string;
  endpointId: string;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  completedAt: string | null;
}

/** One attempt of a delivery as the event page shows it: the request sent and what came back. */
export interface AttemptDetail {
  attemptedAt: string;
  statusCode: number | null;
  latencyMs: number;
  succeeded: boolean;
  error: string | null;
  /** Null for a loopback target (development): its answers are never kept. */
  responseExcerpt: string | null;
  requestHeaders: Record<string, string> | null;
  requestBodyExcerpt: string | null;
}

export interface DeliveryDetail extends Delivery {
  endpoint: { id: string; url: string; description: string | null } | null;
  attempts: AttemptDetail[];
}

/** GET /dashboard/api/{mode}/events/{id}. */
export interface EventDetail {
  event: WebhookEvent;
  /** The envelope exactly as sent and signed. */
  payload: string;
  deliveries: DeliveryDetail[];
}

/** A customer as the dashboard names it: the phone number is masked (last digits only). */
export interface CustomerRef {
  id: string;
  phoneNumber: string;
}

/** One of the merchant's customers, with what they paid this merchant (never a wallet). */
export interface Customer extends CustomerRef {
  createdAt: string;
  firstPaymentAt: string | null;
  lastPaymentAt: string | null;
  /** Succeeded payments to this merchant. */
  payments: number;
  volume: { currency: string; amount: string }[];
}

/** One charge attempt of a customer at this merchant (an intent may have several). */
export interface CustomerPayment {
  id: string;
  intentId: string;
  amount: string;
  currency: string;
  status: 'succeeded' | 'failed';
  failureCode: string | null;
  createdAt: string;
}

/** A wallet top-up by mobile money that a customer started through this merchant's checkout. */
export interface Topup {
  id: string;
  amount: string;
  currency: string;
  provider: string;
  phoneNumber: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  failureReason: string | null;
  livemode: boolean;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** `GET /dashboard/api/{mode}/customers/{id}`: the customer's row, its payment attempts here and its top-ups started here. */
export interface CustomerDetail {
  customer: Customer;
  payments: CustomerPayment[];
  topups: Topup[];
}

export interface PaymentDetail {
  payment: Payment;
  events: WebhookEvent[];
  deliveries: Delivery[];
  /** The customer who last tried to pay it, if any. */
  customer: CustomerRef | null;
  refunds?: Refund[];
}

/** What a restricted key may touch (the server's API resources), and how. */
export const API_RESOURCES = ['payments', 'refunds', 'payouts', 'customers', 'balance', 'webhooks', 'events', 'payment_links'] as const;
export type ApiResource = (typeof API_RESOURCES)[number];
export type AccessLevel = 'none' | 'read' | 'write';
export type KeyPermissions = Partial<Record<ApiResource, AccessLevel>>;

export interface ApiKey {
  id: string;
  kind: 'publishable' | 'secret' | 'restricted';
  mode: Mode;
  name: string;
  display: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  allowedOrigins: string[];
  /** A restricted key's access per resource; null for the other kinds. */
  permissions: KeyPermissions | null;
}
export interface CreatedApiKey extends ApiKey {
  secret: string;
}

/** Event types, as the server's catalogue lists them (events.schema.ts): endpoints' choices and the Events page's filter. */
export const EVENT_TYPES = ['payment.completed', 'payment.failed', 'payment.expired', 'payment.canceled', 'payment.refunded', 'refund.failed', 'payout.paid', 'payout.failed'] as const;

export interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabledEvents: string[];
  enabled: boolean;
  disabledReason: 'manual' | 'gone' | 'failing' | null;
  createdAt: string;
}
/** The endpoint's deliveries attempted in the last 24 hours and how many succeeded (rate null: none attempted). */
export interface EndpointStats {
  attempted: number;
  succeeded: number;
  successRate: number | null;
}
export interface EndpointWithSecret extends Endpoint {
  secret: string;
}
export interface EndpointSecret {
  secret: string;
  rollingSecrets: { secret: string; expiresAt: string }[];
}

export interface Balance {
  livemode: boolean;
  available: { currency: string; amount: string }[];
  pending: { currency: string; amount: string }[];
  /** The same figures, one entry per currency. */
  balances: { currency: string; available: string; pending: string }[];
}

export const CURRENCIES = ['XAF', 'XOF', 'EUR', 'USD'] as const;

/** Mobile-money providers by their brand names, the same in every language. */
export const PROVIDER_NAMES: Record<string, string> = { mtn_momo: 'MTN MoMo' };

export const BALANCE_TRANSACTION_TYPES = ['charge', 'fee', 'refund', 'payout', 'payout_reversal', 'adjustment'] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/** One line of the balance statement (`GET /dashboard/api/{mode}/balance/transactions`). */
export interface BalanceTransaction {
  id: string;
  type: BalanceTransactionType;
  /** Signed: what it adds to (or takes from) the merchant's money. */
  amount: string;
  currency: string;
  /** Available + pending right after it. */
  balanceAfter: string;
  source: string | null;
  description: string;
  status: 'pending' | 'available';
  availableOn: string;
  createdAt: string;
}

export type PayoutStatus = 'PENDING' | 'PAID' | 'FAILED';
export const PAYOUT_STATUSES: PayoutStatus[] = ['PENDING', 'PAID', 'FAILED'];

export interface Payout {
  id: string;
  amount: string;
  currency: string;
  destination: { provider: string; phoneNumber: string };
  description: string | null;
  method: 'manual' | 'scheduled';
  status: PayoutStatus;
  /** The provider's reason of a FAILED payout (e.g. PAYEE_NOT_FOUND). */
  failureReason: string | null;
  livemode: boolean;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

export const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export interface PayoutSchedule {
  livemode: boolean;
  interval: 'manual' | 'daily' | 'weekly';
  weeklyAnchor: string | null;
  destination: { provider: string; phoneNumber: string } | null;
  /** Per currency, the least available balance worth paying out. */
  minimumAmount: Record<string, string>;
  nextRunAt: string | null;
}

export interface Message {
  id: string;
  userId: string | null;
  channel: 'sms' | 'email';
  to: string;
  body: string | null;
  status: string;
  createdAt: string;
}

export interface TestUser {
  id: string;
  phoneNumber: string;
  email: string | null;
  balances: { currency: string; amount: string }[];
}

/** A payment link (issue 22): each visit of `url` creates a payment and opens its checkout. */
export interface PaymentLink {
  id: string;
  url: string;
  amount: string;
  currency: string;
  description: string;
  metadata: Record<string, string | number | boolean>;
  active: boolean;
  livemode: boolean;
  createdAt: string;
  updatedAt: string;
}

export type Role = 'owner' | 'developer' | 'analyst' | 'support';
export const ROLES: Role[] = ['owner', 'developer', 'analyst', 'support'];

export interface TeamMember {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
}

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

export interface Team {
  members: TeamMember[];
  invitations: Invitation[];
}

export interface InvitationPreview {
  email: string;
  role: Role;
  merchant: { name: string };
  expiresAt: string;
}

export interface AuditEntry {
  id: string;
  action: string;
  actor: { id: string | null; email: string };
  mode: Mode | null;
  targetId: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

export type OverviewPeriod = 'today' | '7d' | '30d';

export interface OverviewFigures {
  volume: { currency: string; amount: string }[];
  payments: number;
  attempts: number;
  /** Successful charge attempts / all attempts; null without attempts. */
  successRate: number | null;
  newCustomers: number;
}

/** GET /dashboard/api/:mode/overview */
export interface Overview {
  object: 'dashboard_overview';
  period: OverviewPeriod;
  interval: 'hour' | 'day';
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
  current: OverviewFigures;
  previous: OverviewFigures;
  series: (OverviewFigures & { start: string })[];
}
