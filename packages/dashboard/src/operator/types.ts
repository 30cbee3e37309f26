/**
 * The shapes the operator console's API answers, from the types generated from the server's
 * route schemas (`DashboardPaths` of @caisse/api-types): never a hand-made copy.
 */
import type { Answer } from '../dashboard/types.ts';

export type OperatorSession = Answer<'/operator/api/session', 'get'>;
export type OperatorPermission = OperatorSession['permissions'][number];
export type TotpEnrolment = Answer<'/operator/api/totp', 'post'>;
export type MerchantList = Answer<'/operator/api/merchants', 'get'>;
export type OperatorMerchant = Answer<'/operator/api/merchants/{id}', 'get'>;
export type MerchantMethodChoices = Answer<'/operator/api/merchants/{id}/methods/choices', 'get'>;
export type Money = Answer<'/operator/api/money', 'get'>;
export type LedgerVerification = Answer<'/operator/api/ledger/verify', 'post'>;
export type AuditList = Answer<'/operator/api/audit', 'get'>;
export type OperatorList = Answer<'/operator/api/operators', 'get'>;
export type InvitedOperator = Answer<'/operator/api/operators', 'post'>;
export type SubmittedProfiles = Answer<'/operator/api/profiles', 'get'>;
export type MerchantProfile = Answer<'/operator/api/merchants/{id}/profile', 'get'>;
export type OperatorOutbox = Answer<'/operator/api/messages', 'get'>;
export type PayoutThresholds = Answer<'/operator/api/payouts/thresholds', 'get'>;
export type PayoutsInReview = Answer<'/operator/api/payouts/review', 'get'>;
export type ProviderList = Answer<'/operator/api/providers', 'get'>;
export type ProviderAccountList = Answer<'/operator/api/provider-accounts', 'get'>;
export type ProviderAccount = ProviderAccountList['data'][number];
export type ProviderAccountCheck = Answer<'/operator/api/provider-accounts/{id}/check', 'post'>;
export type CustomerList = Answer<'/operator/api/customers', 'get'>;
export type CustomerLock = Answer<'/operator/api/customers/{id}/lock', 'post'>;
export type CustomerPasswordReset = Answer<'/operator/api/customers/{id}/password-reset', 'post'>;
export type CustomerLimitsList = Answer<'/operator/api/customer-limits', 'get'>;
export type Fees = Answer<'/operator/api/money/fees', 'get'>;
export type ReconciliationRuns = Answer<'/operator/api/reconciliation', 'get'>;
export type RouteList = Answer<'/operator/api/routes', 'get'>;
export type LatePayments = Answer<'/operator/api/late-payments', 'get'>;
