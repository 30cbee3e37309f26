/** The shapes the dashboard API answers (packages/server/src/modules/dashboard/dashboard.schema.ts). */
export type Mode = 'test' | 'live';

export interface Session {
  object: 'dashboard_session';
  email: string;
  /** The user's own language; null: none chosen (the browser's, then the merchant's, decide). */
  language: 'fr' | 'en' | null;
  merchant: { id: string; name: string; language: 'fr' | 'en' };
  csrfToken: string;
  expiresAt: string;
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
  attempts: number;
  metadata: Record<string, string | number | boolean>;
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
  data: { paymentIntent: Record<string, unknown> };
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
}

export interface ApiKey {
  id: string;
  kind: 'publishable' | 'secret';
  mode: Mode;
  name: string;
  display: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  allowedOrigins: string[];
}
export interface CreatedApiKey extends ApiKey {
  secret: string;
}

export const EVENT_TYPES = ['payment.completed', 'payment.failed', 'payment.expired', 'payment.canceled', 'payment.refunded'] as const;

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
