import { assertModeOpen, type Caller, type KeyMode } from '../../platform/tenancy.ts';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { assertPermission, assertTwoFactor, STATE_CHANGING, staffSessionHook } from '../../platform/http/staff-session.ts';
import { type DashboardAudit, type DashboardRoutes, type DashboardSessions, type DashboardUser, sendCsv } from '../../platform/http/dashboard-api.ts';
import { onReplica } from '../../platform/db.ts';
import { ApiError } from '../../platform/errors.ts';
import { Intent } from '../intents/index.ts';
import { RecordedRefundBody, Refund, RefundBody, refundStatusCode } from '../charges/index.ts';
import { AUDIT_ACTIONS, type DashboardSession } from './dashboard.service.ts';
import {
  EmptyBody,
  SessionPatch,
  LoginBody,
  ModeIdParams,
  ModeParams,
  Overview,
  OverviewQuery,
  CustomerDetail,
  CustomerList,
  CustomersQuery,
  PaymentDetail,
  PaymentList,
  PaymentsExportQuery,
  PaymentsQuery,
  SearchQuery,
  SearchResults,
  Session,
  AuditList,
  AuditQuery,
} from './dashboard.schema.ts';
import { paymentsCsvName } from './dashboard.exports.ts';
import registerPages from './dashboard.pages.ts';
import accountRoutes, { clientOf } from './dashboard.account.routes.ts';
import { LoginChallenge } from './dashboard.account.schema.ts';
import { can, type Permission, PERMISSIONS } from './dashboard.roles.ts';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession: DashboardSession;
    dashboardToken: string;
  }
}

const tags = ['dashboard (internal)'];
/** The dashboard API answers JSON: the API's CSP and no-store, not the pages' headers. No API key. */
const session = { auth: 'none' as const, csp: 'api' as const };
const open = { ...session, dashboard: 'public' as const };
/** A session route and the permission its caller's role must have. */
const need = (permission: Permission) => ({ ...session, permission });

/**
 * Makes a session route without a permission impossible: registering one throws, so the app does
 * not build. Every dashboard API route is either public (`dashboard: 'public'`) or says what it
 * needs (`permission`, from PERMISSIONS).
 */
export function requirePermissions(instance: FastifyInstance) {
  instance.addHook('onRoute', (route) => {
    assertModeFromPath(route);
    const config = (route.config ?? {}) as { dashboard?: 'public' | 'session'; permission?: string };
    if (config.dashboard === 'public') return;
    if (config.permission === undefined || !(PERMISSIONS as readonly string[]).includes(config.permission)) {
      throw new Error(
        `Dashboard API route ${String(route.method)} ${route.url} has no permission: declare config.permission (dashboard.roles.ts) or make it public`,
      );
    }
  });
}

/**
 * A route acts in a mode only through its `:mode` segment, checked by its params schema
 * (`ModeParams`): the session hook reads it there to refuse live mode (two-factor sign-in,
 * approval). A route that spells `live` or `test` itself, or leaves `:mode` unchecked, would slip
 * past that hook: registering one throws, so the app does not build.
 */
function assertModeFromPath(route: { method: string | string[]; url: string; schema?: { params?: unknown } }) {
  const segments = route.url.split('/');
  const where = `Dashboard API route ${String(route.method)} ${route.url}`;
  if (segments.includes('live') || segments.includes('test')) throw new Error(`${where} names a mode: use the :mode segment (ModeParams)`);
  if (!segments.includes(':mode')) return;
  const params = route.schema?.params as { properties?: { mode?: { anyOf?: { const?: unknown }[] } } } | undefined;
  const modes = params?.properties?.mode?.anyOf?.map((m) => m.const);
  if (modes?.length !== 2 || !modes.includes('test') || !modes.includes('live')) {
    throw new Error(`${where} has a :mode segment its params schema does not check: use ModeParams or ModeIdParams`);
  }
}

/** The mode of the path, when it names one (team routes do not). */
function modeOf(request: FastifyRequest): KeyMode | undefined {
  const mode = (request.params as { mode?: string } | undefined)?.mode;
  return mode === 'live' || mode === 'test' ? mode : undefined;
}

/**
 * The dashboard's API (docs/spec/endpoints.md: "its own API under /dashboard/api", session cookie) and its
 * pages. Every call after sign-in acts on the signed-in user's merchant, in the mode named in the
 * path (`/dashboard/api/test/…`, `/dashboard/api/live/…`).
 *
 * Sessions: an HttpOnly, SameSite=Strict cookie (Secure and `__Host-` in production) holding a
 * random token whose SHA-256 only is stored; 30 minutes idle, 12 hours at most. CSRF: every POST,
 * PUT, PATCH and DELETE must carry `x-csrf-token` (from the sign-in answer or GET /session: an HMAC of
 * the session token), and cross-site requests are refused outright (`Sec-Fetch-Site`, `Origin`).
 */
export default async function dashboardRoutes(instance: FastifyInstance, options: DashboardOptions) {
  registerPages(instance);
  await instance.register(dashboardApi, { prefix: '/dashboard/api', features: options.features });
}

export interface DashboardOptions {
  /** The features' pages' APIs (payouts, balance, webhooks…), each registered by its own module. */
  features: DashboardRoutes[];
}

async function dashboardApi(instance: FastifyInstance, { features }: DashboardOptions) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const dashboard = app.services.dashboard;

  app.decorateRequest('dashboardSession', null as unknown as DashboardSession);
  app.decorateRequest('dashboardToken', '');
  app.decorateRequest('dashboardUser', null as unknown as DashboardUser);
  app.decorateRequest('dashboardAudit', null as unknown as DashboardAudit);
  requirePermissions(app);

  // Cross-site refusal, session, CSRF (platform/http/staff-session.ts), then the role first: a
  // session without two-factor is refused live mode only, whatever its role may do.
  app.addHook(
    'onRequest',
    staffSessionHook({
      sessions: dashboard.staff,
      isPublic: (request) => request.routeOptions.config.dashboard === 'public',
      authenticate: dashboard.authenticate,
      attach(request, session, token) {
        request.dashboardSession = session;
        request.dashboardToken = token;
        request.dashboardUser = session;
        request.dashboardAudit = dashboard.auditFor(session);
      },
      gates: [
        // The role is read with the session on every request: a changed role applies at once.
        (request, { role }) =>
          assertPermission(
            role,
            request.routeOptions.config.permission,
            can,
            (r, needed) => `Your role (${r}) does not allow this: it needs the ${needed} permission; ask an owner of the team`,
          ),
        // Live mode holds live money and the keys that move it: a member of any role without
        // two-factor sign-in is refused every live route until they enrol (issue 30); test mode needs none.
        (request, session) =>
          assertTwoFactor({
            passed: session.totpEnabled,
            reachable: modeOf(request) !== 'live',
            detail: 'Live mode needs two-factor sign-in: enrol an authenticator app on the Account page (POST /dashboard/api/account/totp), then come back',
          }),
        // Every live route, reads included, as for live keys: a feature's new route cannot forget it.
        (request, session) => {
          const mode = modeOf(request);
          if (mode !== undefined) assertModeOpen(session, mode);
        },
      ],
    }),
  );

  const scope = (req: { params: { mode: 'test' | 'live' }; dashboardSession: DashboardSession }): Caller => ({
    merchantId: req.dashboardSession.merchantId,
    mode: req.params.mode,
    pinnedVersion: req.dashboardSession.pinnedVersion,
  });

  app.decorate('dashboardSessions', {
    assertMayIssueKey: (req, key) => dashboard.assertMayIssueKey(req.dashboardSession, modeOf(req), key, clientOf(req).address),
    async signIn(req, reply, userId) {
      const { sessionToken, session: view, absoluteExpiresAt } = await dashboard.openSession(userId, clientOf(req));
      reply.header('set-cookie', dashboard.staff.issueCookie(sessionToken, absoluteExpiresAt));
      return view;
    },
    endAll: dashboard.endSessions,
    auditAs: dashboard.auditFor,
  } satisfies DashboardSessions);

  // Read-your-writes: after a dashboard write, the merchant's reads go to the primary until the
  // replica has replayed it (docs/scaling.md). Sent once the handler is done, so after its commit.
  const reads = app.deps.reads;
  app.addHook('onSend', async (request, _reply, payload) => {
    if (reads && STATE_CHANGING.has(request.method) && request.dashboardSession) reads.wrote(request.dashboardSession.merchantId);
    return payload;
  });
  /** A heavy read of the signed-in merchant's: the replica may answer it (DATABASE_READ_URL). */
  const replicaRead = <T>(req: { dashboardSession: DashboardSession }, fn: () => T): T => onReplica(reads, req.dashboardSession.merchantId, fn);

  for (const feature of features) await feature(app);

  // ---- session ----------------------------------------------------------------------------------

  app.post(
    '/login',
    {
      config: open,
      schema: {
        tags,
        summary: 'Sign in to the dashboard',
        description:
          'E-mail and password (argon2id). Sets the session cookie and answers the session with its `csrfToken`; for a user with two-factor sign-in, no cookie yet: 200 `{mfaRequired: true, challenge}` for POST /dashboard/api/login/totp. Wrong e-mail or password: 401 `invalid_credentials` (one answer for both). 5 failures for an e-mail from one client address within 15 minutes, or 100 from all addresses within 24 hours: 429 `login_locked` with `Retry-After`. More than `CAISSE_RATE_LIMIT_IP` (20) sign-ins a minute from one address, whatever the e-mail: 429 `rate_limited` with `Retry-After`.',
        body: LoginBody,
        response: { 200: Type.Union([Session, LoginChallenge]) },
      },
    },
    async (req, reply) => {
      const signedIn = await dashboard.login(req.body, clientOf(req));
      if ('challenge' in signedIn) return signedIn.challenge;
      reply.header('set-cookie', dashboard.staff.issueCookie(signedIn.sessionToken, signedIn.absoluteExpiresAt));
      return signedIn.session;
    },
  );

  await accountRoutes(app);

  app.get(
    '/session',
    { config: need('account'), schema: { tags, summary: 'The signed-in session, with its CSRF token', response: { 200: Session } } },
    async (req) => dashboard.sessionView(req.dashboardSession, req.dashboardToken),
  );

  app.patch(
    '/session',
    {
      config: need('account'),
      schema: {
        tags,
        summary: "Set the signed-in user's language (the language switch), remembered for their next sign-ins",
        body: SessionPatch,
        response: { 200: Session },
      },
    },
    async (req) => {
      req.dashboardSession = await dashboard.setLanguage(req.dashboardSession, req.body.language);
      return dashboard.sessionView(req.dashboardSession, req.dashboardToken);
    },
  );

  app.post(
    '/logout',
    { config: need('account'), schema: { tags, summary: 'Sign out: ends the session and clears the cookie', body: EmptyBody } },
    async (req, reply) => {
      await dashboard.logout(req.dashboardSession);
      reply.header('set-cookie', dashboard.staff.cookies.clear());
      return reply.code(204).send();
    },
  );

  // ---- payments ---------------------------------------------------------------------------------

  app.get(
    '/:mode/payments',
    {
      config: need('payments:read'),
      schema: {
        tags,
        summary: 'Payments, newest first, by status and creation date',
        params: ModeParams,
        querystring: PaymentsQuery,
        response: { 200: PaymentList },
      },
    },
    async (req) => replicaRead(req, () => dashboard.listPayments(scope(req), req.query)),
  );

  app.get(
    '/:mode/payments.csv',
    {
      config: need('payments:read'),
      schema: {
        tags,
        summary: "The payments the list's filters select, newest first, as a CSV download",
        description:
          "RFC 4180 (header row, CRLF), streamed: `id`, `created_at`, `amount` (major units), `currency`, `status`, `description`, `metadata` (JSON), `fee`, `net`, `amount_refunded` (major units; fee and net empty until paid), `method` (`wallet` or `mobile_money`), `provider`, `connector` and `provider_account` (empty for the wallet), `payer` (the number, masked as the dashboard shows it), `provider_reference` (the provider's id of the payment), `amount_refunded_outside` (the part of `amount_refunded` recorded as paid back outside Caisse: no money moved here). A cell a spreadsheet would run as a formula starts with `'`. The filters of GET …/payments without `limit` and `startingAfter`; a bad one is 400 `validation_error` (or `parameter_unknown`) before any byte. The file is named with the period as the filters wrote it, the end day inclusive: `caisse-payments-test-2026-11-01_2026-11-28.csv` (`…-until-<day>` without a start; today without an end).",
        params: ModeParams,
        querystring: PaymentsExportQuery,
        produces: ['text/csv'],
      },
    },
    async (req, reply) => {
      // The stream's reads start here, in the replica's scope, and keep it to the last page.
      const stream = replicaRead(req, () => dashboard.paymentsCsv(scope(req), req.query));
      return sendCsv(reply, paymentsCsvName(req.params.mode, req.query, app.deps.clock.now()), stream);
    },
  );

  app.get(
    '/:mode/search',
    {
      config: need('payments:read'),
      schema: {
        tags,
        summary: "The header's search: payments by id, metadata value, amount or customer phone (last digits)",
        description:
          "Newest first, 20 at most. A text of 4 digits or more (spaces and a leading + allowed) also finds the payments of the merchant's customers whose phone number ends with those digits; fewer digits are searched as an amount or a metadata value only.",
        params: ModeParams,
        querystring: SearchQuery,
        response: { 200: SearchResults },
      },
    },
    async (req) => replicaRead(req, () => dashboard.search({ ...scope(req), merchantCountry: req.dashboardSession.merchantCountry }, req.query.q)),
  );

  app.get(
    '/:mode/overview',
    {
      config: { ...session, permission: 'payments:read' },
      schema: {
        tags,
        summary: 'The Home page: volume, successful payments, success rate and new customers, with their series and the previous period',
        description:
          'Periods in UTC: `today` (hourly series) and the last `7d` or `30d` days including today (daily series). The previous period is as long and cut at the same point (today so far against yesterday up to the same time). Every payment counts, whatever the method or connector (the wallet or any mobile-money operator), at the time it was decided; a late mobile-money payment returned to the payer does not. Volume: the sum of the successful payments per currency (refunds not deducted). Success rate: successful payment attempts / all decided attempts (succeeded or declined) in the period, null without attempts; an intent never attempted (expired, canceled unpaid) does not count. New customers: payers (a wallet customer, or a mobile-money number) whose first successful payment to this merchant falls in the period. Closed hours come from an hourly rollup, the open hour from the payments themselves.',
        params: ModeParams,
        querystring: OverviewQuery,
        response: { 200: Overview },
      },
    },
    async (req) => replicaRead(req, () => dashboard.overview(scope(req), req.query.period ?? 'today')),
  );

  app.get(
    '/:mode/payments/:id',
    {
      config: need('payments:read'),
      schema: { tags, summary: 'A payment with its events and their webhook deliveries', params: ModeIdParams, response: { 200: PaymentDetail } },
    },
    async (req) => dashboard.payment(scope(req), req.params.id),
  );

  app.post(
    '/:mode/payments/:id/cancel',
    { config: need('payments:write'), schema: { tags, summary: 'Cancel an open payment', params: ModeIdParams, body: EmptyBody, response: { 200: Intent } } },
    async (req) => dashboard.cancelPayment(req.dashboardSession, scope(req), req.params.id),
  );

  app.post(
    '/:mode/payments/:id/refund',
    {
      config: need('payments:write'),
      schema: {
        tags,
        summary: 'Refund a payment, whole or in part (as POST /gateway/{id}/refunds)',
        description:
          'All that is left (no `amount`) or part of it, back to the wallet that paid. Errors as the API: `refund_exceeds_amount` (422), `amount_invalid`, `intent_state_invalid` (409), `not_found`. Written to the audit log with the refund.',
        params: ModeIdParams,
        body: RefundBody,
        response: { 201: Refund, 202: Refund },
      },
    },
    async (req, reply) => {
      const refund = await dashboard.refundPayment(req.dashboardSession, scope(req), req.params.id, req.body);
      return reply.code(refundStatusCode(refund)).send(refund);
    },
  );

  app.post(
    '/:mode/payments/:id/recorded-refund',
    {
      config: need('payments:write'),
      schema: {
        tags,
        summary: 'Record a refund made outside Caisse (as POST /gateway/{id}/refunds/recorded)',
        description:
          "For a payment its provider cannot refund (`refundRecordable` on the payment's page): the merchant paid the payer back another way. No money moves in Caisse. Errors as the API: `refund_exceeds_amount` (422), `amount_invalid`, `validation_error`, `intent_state_invalid`, `refund_supported`, `refund_in_progress` (409), `not_found`. Written to the audit log as a refund.",
        params: ModeIdParams,
        body: RecordedRefundBody,
        response: { 201: Refund },
      },
    },
    async (req, reply) => reply.code(201).send(await dashboard.recordRefund(req.dashboardSession, scope(req), req.params.id, req.body)),
  );

  // ---- customers --------------------------------------------------------------------------------

  app.get(
    '/:mode/customers',
    {
      config: need('customers:read'),
      schema: {
        tags,
        summary: "The merchant's customers: masked phone, first and last payment, count and volume (never a wallet)",
        params: ModeParams,
        querystring: CustomersQuery,
        response: { 200: CustomerList },
      },
    },
    async (req) => replicaRead(req, () => dashboard.customers(scope(req), req.query)),
  );

  app.get(
    '/:mode/customers/:id',
    {
      config: need('customers:read'),
      schema: {
        tags,
        summary: 'One customer: what it paid this merchant, its payment attempts and the top-ups it started here (never a wallet)',
        params: ModeIdParams,
        response: { 200: CustomerDetail },
      },
    },
    async (req) => dashboard.customer(scope(req), req.params.id),
  );

  // ---- audit log --------------------------------------------------------------------------------

  app.get(
    '/audit-log',
    {
      config: need('audit:read'),
      schema: {
        tags,
        summary: 'Who did what in the dashboard, newest first',
        description: `Keys, webhook endpoints, refunds, cancellations, payouts and team changes, with the member who did it. Filter by \`action\` (${AUDIT_ACTIONS.join(', ')}); pages with \`startingAfter\` (the last id).`,
        querystring: AuditQuery,
        response: { 200: AuditList },
      },
    },
    async (req) => dashboard.audit.list(req.dashboardSession, req.query),
  );

  // Anything else under /dashboard/api is a JSON 404, not the dashboard's HTML page.
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    config: open,
    schema: { hide: true },
    handler: async (req: FastifyRequest, _reply: FastifyReply) => {
      throw new ApiError('not_found', `No route ${req.method} ${req.url.split('?')[0]}`);
    },
  });
}
