import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/errors.ts';
import { clientAddress } from '../../platform/http/rate-limit.ts';
import { PAGES_DIST, sendAppPage } from '../../platform/http/built-pages.ts';
import { assertPermission, assertTwoFactor, staffSessionHook } from '../../platform/http/staff-session.ts';
import {
  AddProviderAccountBody,
  ProviderAccountCheck,
  ProviderAccountIdParams,
  ProviderAccountList,
  ProviderAccountSchema,
} from '../provideraccounts/index.ts';
import {
  ConfirmTotpBody,
  EmptyBody,
  FreezeBody,
  InvitedOperator,
  InviteOperatorBody,
  LedgerVerification,
  MerchantIdParams,
  MerchantsQuery,
  MerchantMethodsBody,
  MerchantTermsBody,
  ReconciliationRunList,
  MerchantSummaryList,
  OperatorAuditList,
  OperatorAuditQuery,
  OperatorList,
  OperatorLoginBody,
  OperatorMerchant,
  OperatorMoney,
  OperatorSession,
  OperatorTotpEnrolment,
  PayoutIdParams,
  CustomerLimitsList,
  OperatorProviderList,
  CustomersQuery,
  CustomerIdParams,
  CustomerLockBody,
  OperatorCustomerList,
  CustomerLock,
  CustomerLimitsSchema,
  SetCustomerLimitsBody,
  PayoutsInReview,
  PayoutThresholdList,
  RejectPayoutBody,
  ReviewPayoutBody,
  SetPayoutThresholdBody,
  CustomerPasswordReset,
  FeesQuery,
  OperatorFees,
  ManualReturn,
  ManualReturnList,
  ManualReturnParams,
  ManualReturnsQuery,
  MarkReturnedBody,
  OperatorRoute,
  OperatorRouteList,
  RoutesQuery,
  SetRouteBody,
} from './operators.schema.ts';
import { sendCsv } from '../../platform/http/dashboard-api.ts';
import { Payout } from '../payouts/index.ts';
import type { OperatorClient, OperatorSession as Session } from './operators.sessions.ts';
import { ApproveBody, BusinessProfile, RejectBody, SubmittedProfileList } from '../onboarding/index.ts';
import { MessageList, OperatorMessagesQuery } from '../messaging/index.ts';
import { OPERATOR_PERMISSIONS, type OperatorPermission, operatorCan } from './operators.roles.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Operator API routes: `public` (sign-in) or what the signed-in operator's role must have. */
    operator?: 'public' | OperatorPermission;
  }
  interface FastifyRequest {
    operatorSession: Session;
    operatorToken: string;
  }
}

const tags = ['operator console (internal)'];
/** JSON answers with the API's CSP and no-store; no API key. */
const base = { auth: 'none' as const, csp: 'api' as const };
const open = { ...base, operator: 'public' as const };
const need = (permission: OperatorPermission) => ({ ...base, operator: permission });
/** What a session that has not enrolled TOTP yet may call: its own session and the enrolment. */
const ENROLMENT_ROUTES = new Set(['/operator/api/session', '/operator/api/logout', '/operator/api/totp', '/operator/api/totp/confirm']);

function clientOf(req: FastifyRequest): OperatorClient {
  const agent = req.headers['user-agent'];
  return { address: clientAddress(req), userAgent: typeof agent === 'string' ? agent : undefined };
}

/**
 * The operator console's API under /operator/api, with its own session cookie
 * (`caisse_operator`, `__Host-` in production): a dashboard session never opens it, nor the
 * reverse (other cookie, other token shape, other table). CSRF as the dashboard: every POST carries
 * `x-csrf-token`, and cross-site requests are refused outright. Every route but sign-in names the
 * permission it needs (deny by default, operators.roles.ts); until the operator has enrolled
 * TOTP, only the enrolment routes answer.
 */
export default async function operatorRoutes(instance: FastifyInstance, opts: { dist?: string } = {}) {
  const dist = opts.dist ?? PAGES_DIST;
  const page = { auth: 'none' as const, csp: 'page' as const };
  // The console's page (its assets are the dashboard build's, under /dashboard/assets/).
  instance.get('/operator', { config: page, schema: { hide: true } }, (req, reply) => sendAppPage(dist, 'operator.html', req, reply));
  instance.get('/operator/*', { config: page, schema: { hide: true } }, (req, reply) => {
    if ((req.params as { '*': string })['*'].startsWith('api/')) throw new ApiError('not_found', `No route ${req.method} ${req.url.split('?')[0]}`);
    return sendAppPage(dist, 'operator.html', req, reply);
  });
  await instance.register(operatorApi, { prefix: '/operator/api' });
}

async function operatorApi(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const operators = app.services.operators;

  app.decorateRequest('operatorSession', null as unknown as Session);
  app.decorateRequest('operatorToken', '');

  // A route without a permission cannot be registered: the app does not build.
  app.addHook('onRoute', (route) => {
    const declared = (route.config as { operator?: string } | undefined)?.operator;
    if (declared !== 'public' && !(OPERATOR_PERMISSIONS as readonly string[]).includes(declared ?? '')) {
      throw new Error(`Operator API route ${String(route.method)} ${route.url} declares no permission (config.operator)`);
    }
  });

  // Cross-site refusal, session, CSRF (platform/http/staff-session.ts), then two-factor first:
  // until enrolment an operator has no role to speak of, only the enrolment routes answer.
  app.addHook(
    'onRequest',
    staffSessionHook({
      sessions: operators.staff,
      isPublic: (request) => request.routeOptions.config.operator === 'public',
      authenticate: operators.authenticate,
      attach(request, session, token) {
        request.operatorSession = session;
        request.operatorToken = token;
      },
      gates: [
        (request, session) =>
          assertTwoFactor({
            passed: session.stage === 'full',
            reachable: ENROLMENT_ROUTES.has(request.routeOptions.url ?? ''),
            detail: 'Operators must use two-factor sign-in: enrol an authenticator app first (POST /operator/api/totp, then /operator/api/totp/confirm)',
          }),
        (request, { role }) => {
          const needed = request.routeOptions.config.operator;
          assertPermission(
            role,
            needed === 'public' ? undefined : needed,
            operatorCan,
            (r, permission) => `Your operator role (${r}) does not allow this: it needs the ${permission} permission`,
          );
        },
      ],
    }),
  );

  // ---- session and enrolment --------------------------------------------------------------------

  app.post(
    '/login',
    {
      config: open,
      schema: {
        tags,
        summary: 'Sign in to the operator console',
        description:
          'E-mail, password and, once enrolled, the current TOTP `code`. Sets the session cookie. An operator without TOTP gets a session that can only enrol (`totpEnrolmentRequired`). Wrong e-mail or password: 401 `invalid_credentials`; no code: 403 `totp_code_required`; a wrong one: 401 `totp_code_invalid`. 5 failures within 15 minutes: 429 `login_locked`. More than `CAISSE_RATE_LIMIT_IP` (20) sign-ins a minute from one address: 429 `rate_limited`.',
        body: OperatorLoginBody,
        response: { 200: OperatorSession },
      },
    },
    async (req, reply) => {
      const signedIn = await operators.login(req.body, clientOf(req));
      reply.header('set-cookie', operators.staff.issueCookie(signedIn.sessionToken, signedIn.absoluteExpiresAt));
      return signedIn.session;
    },
  );

  app.get(
    '/session',
    { config: need('account'), schema: { tags, summary: 'The signed-in operator, with the CSRF token', response: { 200: OperatorSession } } },
    async (req) => operators.sessionView(req.operatorSession, req.operatorToken),
  );

  app.post(
    '/logout',
    { config: need('account'), schema: { tags, summary: 'Sign out: ends the session and clears the cookie', body: EmptyBody } },
    async (req, reply) => {
      await operators.logout(req.operatorSession);
      reply.header('set-cookie', operators.staff.cookies.clear());
      return reply.code(204).send();
    },
  );

  app.post(
    '/totp',
    {
      config: need('account'),
      schema: {
        tags,
        summary: 'Start TOTP enrolment: a new secret and its otpauth:// URI, shown once',
        body: EmptyBody,
        response: { 200: OperatorTotpEnrolment },
      },
    },
    async (req) => operators.startTotp(req.operatorSession),
  );

  app.post(
    '/totp/confirm',
    {
      config: need('account'),
      schema: {
        tags,
        summary: 'Finish TOTP enrolment with a current code: the session is then fully signed in',
        body: ConfirmTotpBody,
        response: { 200: OperatorSession },
      },
    },
    async (req) => operators.sessionView(await operators.confirmTotp(req.operatorSession, req.body.code), req.operatorToken),
  );

  // ---- operators ----------------------------------------------------------------------------------

  app.get('/operators', { config: need('operators:read'), schema: { tags, summary: 'The operators', response: { 200: OperatorList } } }, async () =>
    operators.listOperators(),
  );

  app.post(
    '/operators',
    {
      config: need('operators:write'),
      schema: {
        tags,
        summary: 'Invite an operator: answers a password shown once, to hand over; TOTP enrolment comes at the first sign-in',
        body: InviteOperatorBody,
        response: { 201: InvitedOperator },
      },
    },
    async (req, reply) => reply.code(201).send(await operators.invite(req.operatorSession, req.body)),
  );

  // ---- merchants ----------------------------------------------------------------------------------

  app.get(
    '/merchants',
    {
      config: need('merchants:read'),
      schema: {
        tags,
        summary: 'Merchants, newest first, by id, name or e-mail (50 at most)',
        querystring: MerchantsQuery,
        response: { 200: MerchantSummaryList },
      },
    },
    async (req) => operators.listMerchants(req.query),
  );

  app.get(
    '/merchants/:id',
    {
      config: need('merchants:read'),
      schema: { tags, summary: 'A merchant: settings, keys, balances and freeze', params: MerchantIdParams, response: { 200: OperatorMerchant } },
    },
    async (req) => operators.merchant(req.params.id),
  );

  for (const [path, frozen] of [
    ['freeze', true],
    ['unfreeze', false],
  ] as const) {
    app.post(
      `/merchants/:id/${path}`,
      {
        config: need('merchants:freeze'),
        schema: {
          tags,
          summary: frozen
            ? 'Freeze a merchant: its new intents, charges and payouts answer 403 `merchant_frozen`, in both modes, at once'
            : 'Unfreeze a merchant',
          params: MerchantIdParams,
          body: FreezeBody,
          response: { 200: OperatorMerchant },
        },
      },
      async (req) => operators.setFrozen(req.operatorSession, req.params.id, frozen, req.body.reason),
    );
  }

  app.put(
    '/merchants/:id/terms',
    {
      config: need('merchants:terms'),
      schema: {
        tags,
        summary: "Set a merchant's fees, settlement delay or rolling reserve (a field left out keeps its value); they apply to payments from then on",
        params: MerchantIdParams,
        body: MerchantTermsBody,
        response: { 200: OperatorMerchant },
      },
    },
    async (req) => operators.setTerms(req.operatorSession, req.params.id, req.body),
  );

  app.put(
    '/merchants/:id/methods',
    {
      config: need('merchants:methods'),
      schema: {
        tags,
        summary:
          'Set the payment methods a merchant may offer in a mode: checkout stops offering the others at once, and the merchant choosing one answers 403 `payment_method_not_allowed`',
        params: MerchantIdParams,
        body: MerchantMethodsBody,
        response: { 200: OperatorMerchant },
      },
    },
    async (req) => operators.setMethods(req.operatorSession, req.params.id, req.body),
  );

  // ---- business profiles --------------------------------------------------------------------------

  app.get(
    '/profiles',
    {
      config: need('merchants:review'),
      schema: { tags, summary: 'Business profiles waiting for review, oldest submission first', response: { 200: SubmittedProfileList } },
    },
    async () => operators.submittedProfiles(),
  );

  app.get(
    '/merchants/:id/profile',
    {
      config: need('merchants:review'),
      schema: { tags, summary: "A merchant's business profile and its review state", params: MerchantIdParams, response: { 200: BusinessProfile } },
    },
    async (req) => operators.profile(req.params.id),
  );

  app.get(
    '/merchants/:id/profile/document',
    {
      config: need('merchants:review'),
      schema: {
        tags,
        summary: "The owner's identity document, decrypted, to the signed-in operator only (never cached, never public)",
        params: MerchantIdParams,
      },
    },
    async (req, reply) => {
      const doc = await operators.document(req.params.id);
      const extension = doc.contentType === 'application/pdf' ? 'pdf' : doc.contentType === 'image/png' ? 'png' : 'jpg';
      return reply
        .type(doc.contentType)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `inline; filename="identity-${req.params.id}.${extension}"`)
        .send(doc.bytes);
    },
  );

  app.post(
    '/merchants/:id/profile/approve',
    {
      config: need('merchants:review'),
      schema: {
        tags,
        summary: 'Approve a submitted profile: live keys and live calls work at once; the merchant is told by e-mail',
        description: 'A profile not submitted (or reviewed already, as by another operator at the same moment): 409 `profile_state_invalid`.',
        params: MerchantIdParams,
        body: ApproveBody,
        response: { 200: BusinessProfile },
      },
    },
    async (req) => operators.review(req.operatorSession, req.params.id, true, req.body.reason),
  );

  app.post(
    '/merchants/:id/profile/reject',
    {
      config: need('merchants:review'),
      schema: {
        tags,
        summary: 'Reject a submitted profile with a reason, told to the merchant by e-mail; it may change the profile and submit again',
        params: MerchantIdParams,
        body: RejectBody,
        response: { 200: BusinessProfile },
      },
    },
    async (req) => operators.review(req.operatorSession, req.params.id, false, req.body.reason),
  );

  app.get(
    '/messages',
    {
      config: need('merchants:review'),
      schema: {
        tags,
        summary: 'The operator outbox: e-mails that prove control of an address, kept because no mail transport is configured',
        description:
          "Sign-up verification links, password resets, team invitations and the notices of a sign-up tried with an existing address, newest first, when no SMTP server is configured (development; production only with `CAISSE_LIVE_OUTBOX=allow`, and then without the link). A merchant never reads these: its test outbox keeps only test mode's messages. The CLI reads the same list: `npx caisse messages list`.",
        querystring: OperatorMessagesQuery,
        response: { 200: MessageList },
      },
    },
    async (req) => app.services.messaging.listForOperators(req.query),
  );

  // ---- money --------------------------------------------------------------------------------------

  app.get(
    '/money',
    {
      config: need('money:read'),
      schema: { tags, summary: "The platform's money per mode and currency, by ledger account kind", response: { 200: OperatorMoney } },
    },
    async () => operators.money(),
  );

  app.get(
    '/money/fees',
    {
      config: need('money:read'),
      schema: {
        tags,
        summary: "The platform's fee revenue per UTC day, mode, currency and merchant, from the ledger's fee revenue accounts",
        description:
          'Fees taken less fees given back by refunds, in [from, to): `to` is the end of today (UTC) when left out, `from` 30 days before `to` when `from` is left out, 366 days at most (400 `validation_error` otherwise).',
        querystring: FeesQuery,
        response: { 200: OperatorFees },
      },
    },
    async (req) => operators.fees(req.query),
  );

  app.get(
    '/money/fees.csv',
    {
      config: need('money:read'),
      schema: {
        tags,
        summary: 'The same fee revenue report as a CSV download (one row per day, mode, currency and merchant)',
        querystring: FeesQuery,
        produces: ['text/csv'],
      },
    },
    async (req, reply) => {
      // The period is checked before the first byte: a bad one is a problem+json 400, not a broken file.
      const stream = operators.feesCsv(req.query);
      return sendCsv(reply, `caisse-fees-${req.query.mode ?? 'all'}-${req.query.from ?? 'start'}-${req.query.to ?? 'now'}`, stream);
    },
  );

  app.get(
    '/reconciliation',
    {
      config: need('money:read'),
      schema: {
        tags,
        summary: 'The newest reconciliation of each provider and mode (`caisse reconcile` records each run): its result and counts',
        response: { 200: ReconciliationRunList },
      },
    },
    async () => operators.reconciliations(),
  );

  app.post(
    '/ledger/verify',
    {
      config: need('ledger:verify'),
      schema: { tags, summary: 'Run the ledger check now (as `npx caisse ledger verify`)', body: EmptyBody, response: { 200: LedgerVerification } },
    },
    async (req) => operators.verifyLedger(req.operatorSession),
  );

  // ---- routes and late payments to return by hand (decision 0077) ---------------------------------

  app.get(
    '/routes',
    {
      config: need('providers:read'),
      schema: {
        tags,
        summary: 'Every route: for each mode, country and method, the connectors a new attempt (or payout) tries in order, its default and whether it was set',
        querystring: RoutesQuery,
        response: { 200: OperatorRouteList },
      },
    },
    async (req) => operators.routes(req.query.mode),
  );

  app.put(
    '/routes',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Set a route (connectors null: back to the default); audited',
        description:
          'An unknown connector, or one that does not serve the method in that country (or cannot send money, for a payout route): 400 `route_invalid` saying which.',
        body: SetRouteBody,
        response: { 200: OperatorRoute },
      },
    },
    async (req) =>
      operators.setRoute(
        req.operatorSession,
        { mode: req.body.mode, country: req.body.country, kind: req.body.kind ?? 'payment', method: req.body.method },
        req.body.connectors,
      ),
  );

  app.get(
    '/late-payments',
    {
      config: need('money:read'),
      schema: {
        tags,
        summary: 'Late payments whose connector cannot send them back: to return to the payer by hand (open ones first)',
        querystring: ManualReturnsQuery,
        response: { 200: ManualReturnList },
      },
    },
    async (req) => operators.lateReturns(req.query.status),
  );

  app.post(
    '/late-payments/:id/returned',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Say a late payment was returned to the payer by hand (a note saying how is required); audited',
        description: "Its held money leaves for the connector's clearing account. Already marked: 409 `return_state_invalid`.",
        params: ManualReturnParams,
        body: MarkReturnedBody,
        response: { 200: ManualReturn },
      },
    },
    async (req) => operators.markReturned(req.operatorSession, req.params.id, req.body.note),
  );

  // ---- payout review ------------------------------------------------------------------------------

  app.get(
    '/payouts/thresholds',
    {
      config: need('payouts:review'),
      schema: { tags, summary: 'The payout review thresholds, per mode and currency', response: { 200: PayoutThresholdList } },
    },
    async () => operators.payoutThresholds(),
  );

  app.put(
    '/payouts/thresholds',
    {
      config: need('payouts:thresholds'),
      schema: {
        tags,
        summary: 'Set (or, with amount null, remove) the threshold above which a payout of a mode and currency waits in REVIEW',
        description: 'Payouts made from then on are held; the operator who set it may not review what it holds (another one must).',
        body: SetPayoutThresholdBody,
        response: { 200: PayoutThresholdList },
      },
    },
    async (req) => operators.setPayoutThreshold(req.operatorSession, req.body),
  );

  app.get(
    '/payouts/review',
    {
      config: need('payouts:review'),
      schema: {
        tags,
        summary: 'Payouts waiting for review, oldest first',
        response: { 200: PayoutsInReview },
      },
    },
    async () => operators.payoutsInReview(),
  );

  for (const [path, approve] of [
    ['approve', true],
    ['reject', false],
  ] as const) {
    app.post(
      `/payouts/:id/${path}`,
      {
        config: need('payouts:review'),
        schema: {
          tags,
          summary: approve
            ? 'Approve a payout in REVIEW: it goes to the provider (PENDING)'
            : 'Reject a payout in REVIEW with a reason: FAILED (REVIEW_REJECTED), its money back in available, `payout.failed` sent',
          description:
            "Not in REVIEW (as for the second of two operators at the same moment): 409 `payout_state_invalid`. By the operator who set the threshold that held it: 403 `four_eyes_required`. Approving a frozen merchant's payout: 403 `merchant_frozen`.",
          params: PayoutIdParams,
          body: approve ? ReviewPayoutBody : RejectPayoutBody,
          response: { 200: Payout },
        },
      },
      async (req) => operators.reviewPayout(req.operatorSession, req.params.id, approve, req.body.reason),
    );
  }

  // ---- providers ---------------------------------------------------------------------------------

  app.get(
    '/providers',
    {
      config: need('providers:read'),
      schema: {
        tags,
        summary: 'Each provider in each mode: brand, countries, currencies, capabilities, set up or not, health',
        description: 'Health is this process’s view (outcomes since it started); a setting’s value is never shown.',
        response: { 200: OperatorProviderList },
      },
    },
    async () => operators.providers(),
  );

  // ---- provider accounts (decision 0075) ---------------------------------------------------------

  app.get(
    '/provider-accounts',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Every provider account, the platform’s included (environment variables, sandbox); credentials masked',
        response: { 200: ProviderAccountList },
      },
    },
    async () => operators.providerAccounts(),
  );

  app.post(
    '/provider-accounts',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Add a provider account: a connector, a mode, its countries, settings and credentials (write-only)',
        body: AddProviderAccountBody,
        response: { 201: ProviderAccountSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await operators.addProviderAccount(req.operatorSession, req.body)),
  );

  app.post(
    '/provider-accounts/:id/disable',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Disable a provider account: no new request goes through it; those in flight finish through it',
        params: ProviderAccountIdParams,
        body: EmptyBody,
        response: { 200: ProviderAccountSchema },
      },
    },
    async (req) => operators.disableProviderAccount(req.operatorSession, req.params.id),
  );

  app.post(
    '/provider-accounts/:id/check',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Check a provider account with one harmless call its credentials allow; recorded as its lastCheck',
        params: ProviderAccountIdParams,
        body: EmptyBody,
        response: { 200: ProviderAccountCheck },
      },
    },
    async (req) => operators.checkProviderAccount(req.operatorSession, req.params.id),
  );

  // ---- customers (support) -------------------------------------------------------------------------

  app.get(
    '/customers',
    {
      config: need('customers:read'),
      schema: {
        tags,
        summary: 'Look a customer up by phone number: each mode’s account, lock, wallet, latest movements across merchants, limits',
        querystring: CustomersQuery,
        response: { 200: OperatorCustomerList },
      },
    },
    async (req) => operators.customers(req.operatorSession, req.query.phone),
  );

  for (const lock of [true, false]) {
    app.post(
      lock ? '/customers/:id/lock' : '/customers/:id/unlock',
      {
        config: need('customers:lock'),
        schema: {
          tags,
          summary: lock
            ? 'Lock a customer: sign-in answers 403 `customer_locked` and their access tokens stop working'
            : 'Unlock a customer: they sign in again',
          params: CustomerIdParams,
          body: CustomerLockBody,
          response: { 200: CustomerLock },
        },
      },
      async (req) => operators.lockCustomer(req.operatorSession, req.params.id, lock, req.body.reason),
    );
  }

  app.post(
    '/customers/:id/password-reset',
    {
      config: need('customers:reset'),
      schema: {
        tags,
        summary: 'Send the customer the password reset code by SMS, the one POST /auth/password-reset sends',
        description:
          'The customer then sets a new password with POST /auth/password-reset/confirm (the checkout or their account page). Unknown customer: 404 `not_found`; too many codes sent to the number: 429 `rate_limited`.',
        params: CustomerIdParams,
        body: EmptyBody,
        response: { 200: CustomerPasswordReset },
      },
    },
    async (req) => operators.sendPasswordReset(req.operatorSession, req.params.id),
  );

  // ---- customer limits ----------------------------------------------------------------------------

  app.get(
    '/customer-limits',
    {
      config: need('customers:read'),
      schema: { tags, summary: 'The customer limits per mode, tier and currency', response: { 200: CustomerLimitsList } },
    },
    async () => operators.customerLimits(),
  );

  app.put(
    '/customer-limits',
    {
      config: need('customers:limits'),
      schema: {
        tags,
        summary: "Set a tier's caps in a mode and currency: wallet balance, top-ups per day and per month, one payment",
        description:
          'Over a cap, a top-up or a wallet payment answers 403 `customer_limit_exceeded` with `limit` (its name) and `value`. Tier 0 is a customer with a verified phone number.',
        body: SetCustomerLimitsBody,
        response: { 200: CustomerLimitsSchema },
      },
    },
    async (req) => operators.setCustomerLimits(req.operatorSession, req.body),
  );

  // ---- audit --------------------------------------------------------------------------------------

  app.get(
    '/audit',
    {
      config: need('audit:read'),
      schema: { tags, summary: 'What operators did, newest first', querystring: OperatorAuditQuery, response: { 200: OperatorAuditList } },
    },
    async (req) => operators.listAudit(req.query),
  );
}
