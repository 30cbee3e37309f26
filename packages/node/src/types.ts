/**
 * The SDK's public types, read off the generated `paths` (@caisse/api-types) so that they follow
 * the server's route schemas: a field the server adds or renames changes them here.
 */
import type { JsonAnswer, JsonBody, paths, Query } from '@caisse/api-types';

/** A payment intent as the merchant sees it (with `metadata`). */
export type PaymentIntent = JsonAnswer<paths['/gateway/{id}']['get'], 200>;
/** The answer to `intents.create`: the intent and its `sessionToken`, shown only this once. */
export type CreatedPaymentIntent = JsonAnswer<paths['/gateway']['post'], 201>;
export type PaymentIntentStatus = PaymentIntent['status'];
export type PaymentIntentCreateParams = JsonBody<paths['/gateway']['post']>;
export type PaymentIntentListParams = Partial<Query<paths['/gateway']['get']>>;
export type PaymentIntentList = JsonAnswer<paths['/gateway']['get'], 200>;
export type Metadata = NonNullable<PaymentIntentCreateParams['metadata']>;

export type Refund = JsonAnswer<paths['/gateway/{id}/refunds']['post'], 201>;
export type RefundCreateParams = JsonBody<paths['/gateway/{id}/refunds']['post']>;
export type RecordedRefundParams = JsonBody<paths['/gateway/{id}/refunds/recorded']['post']>;

export type EventType = NonNullable<Query<paths['/events']['get']>['type']>;
export type EventListParams = Partial<Query<paths['/events']['get']>>;
type EventEnvelope = JsonAnswer<paths['/events/{id}']['get'], 200>;
/**
 * An event, as `events.retrieve` returns it and as a webhook delivers it. `data.paymentIntent`
 * is the intent at the moment of the event, `metadata` included, as created.
 */
export interface CaisseEvent<T extends EventType = EventType> extends Pick<EventEnvelope, 'id' | 'object' | 'createdAt' | 'livemode' | 'apiVersion'> {
  type: T;
  data: { paymentIntent: PaymentIntent };
}
export interface EventList {
  data: CaisseEvent[];
  hasMore: boolean;
}
export type EventResendParams = JsonBody<paths['/events/{id}/resend']['post']>;
export type EventResendResult = JsonAnswer<paths['/events/{id}/resend']['post'], 200>;

export type WebhookEndpoint = JsonAnswer<paths['/webhook-endpoints/{id}']['get'], 200>;
/** The answer to `webhookEndpoints.create` and `rollSecret`: the endpoint and its `whsec_` secret. */
export type WebhookEndpointWithSecret = JsonAnswer<paths['/webhook-endpoints']['post'], 201>;
export type WebhookEndpointCreateParams = JsonBody<paths['/webhook-endpoints']['post']>;
export type WebhookEndpointUpdateParams = JsonBody<paths['/webhook-endpoints/{id}']['patch']>;
export type WebhookEndpointListParams = Partial<Query<paths['/webhook-endpoints']['get']>>;
export type WebhookEndpointList = JsonAnswer<paths['/webhook-endpoints']['get'], 200>;
export type DeletedWebhookEndpoint = JsonAnswer<paths['/webhook-endpoints/{id}']['delete'], 200>;
export type WebhookEndpointSecret = JsonAnswer<paths['/webhook-endpoints/{id}/secret']['get'], 200>;
export type WebhookEndpointRollSecretParams = JsonBody<paths['/webhook-endpoints/{id}/roll-secret']['post']>;
export type WebhookDeliveryListParams = Partial<Query<paths['/webhook-endpoints/{id}/deliveries']['get']>>;
export type WebhookDeliveryList = JsonAnswer<paths['/webhook-endpoints/{id}/deliveries']['get'], 200>;

export type Balance = JsonAnswer<paths['/balance']['get'], 200>;
export type BalanceTransactionList = JsonAnswer<paths['/balance/transactions']['get'], 200>;
export type BalanceTransaction = BalanceTransactionList['data'][number];
export type BalanceTransactionListParams = Partial<Query<paths['/balance/transactions']['get']>>;
export type BalanceTransactionExportParams = Partial<Query<paths['/balance/transactions.csv']['get']>>;

/** Which methods checkout offers in a mode: the wallet and each mobile-money provider (docs/spec/mobile-money-payments.md). */
export type PaymentMethodSettings = JsonAnswer<paths['/payment-methods/settings']['get'], 200>;
export type PaymentMethodSettingsUpdateParams = JsonBody<paths['/payment-methods/settings']['put']>;

export type Payout = JsonAnswer<paths['/payouts/{id}']['get'], 200>;
export type PayoutCreateParams = JsonBody<paths['/payouts']['post']>;
export type PayoutListParams = Partial<Query<paths['/payouts']['get']>>;
export type PayoutList = JsonAnswer<paths['/payouts']['get'], 200>;
export type PayoutSchedule = JsonAnswer<paths['/payout-schedule']['get'], 200>;
export type PayoutScheduleUpdateParams = JsonBody<paths['/payout-schedule']['put']>;

export type PaymentLink = JsonAnswer<paths['/payment-links/{id}']['get'], 200>;
export type PaymentLinkCreateParams = JsonBody<paths['/payment-links']['post']>;
export type PaymentLinkUpdateParams = JsonBody<paths['/payment-links/{id}']['post']>;
export type PaymentLinkListParams = Partial<Query<paths['/payment-links']['get']>>;
export type PaymentLinkList = JsonAnswer<paths['/payment-links']['get'], 200>;
export type PaymentLinkPaymentListParams = Partial<Query<paths['/payment-links/{id}/payments']['get']>>;

export type TestUserCreateParams = JsonBody<paths['/test/users']['post']>;
export type TestUser = JsonAnswer<paths['/test/users']['post'], 201>;
export type TestWalletFundParams = JsonBody<paths['/test/wallets/fund']['post']>;
export type Wallet = JsonAnswer<paths['/test/wallets/fund']['post'], 200>;
export type TestMessageListParams = Partial<Query<paths['/test/messages']['get']>>;
export type TestMessageList = JsonAnswer<paths['/test/messages']['get'], 200>;

/** A test user's phone number and password, for `testHelpers.login`. */
export type TestLoginParams = JsonBody<paths['/auth/web']['post']>;
/** A signed-in test user: `token` is the user's access token (15 minutes) for initOtp, verifyOtp and charge. */
export type TestUserSession = JsonAnswer<paths['/auth/web']['post'], 200>;
export type InitOtpParams = JsonBody<paths['/otp/init']['post']>;
/** Where the code went (masked), and when another may be sent. */
export type OtpChallenge = JsonAnswer<paths['/otp/init']['post'], 200>;
export type VerifyOtpParams = JsonBody<paths['/otp/verify']['post']>;
/** A verified code: `authorizationToken` authorizes one charge (`x-otp-token`). */
export type OtpAuthorization = JsonAnswer<paths['/otp/verify']['post'], 200>;
/** The charge's body, and the `authorizationToken` of `verifyOtp` (sent as `x-otp-token`). */
export type TestChargeParams = JsonBody<paths['/charge']['post']> & { authorizationToken: string };
/** The intent a charge paid, as the customer sees it (no `metadata`). */
export type ChargedPaymentIntent = JsonAnswer<paths['/charge']['post'], 200>;
/** A charge with a mobile-money method: the intent to pay and the payer's provider and number. */
export type TestMobileMoneyChargeParams = Required<Pick<JsonBody<paths['/charge']['post']>, 'intentionId' | 'paymentMethod'>>;
/** The intent a mobile-money charge started: PROCESSING, with its attempts and what the payer does next. */
export type ProcessingPaymentIntent = JsonAnswer<paths['/charge']['post'], 202>;
