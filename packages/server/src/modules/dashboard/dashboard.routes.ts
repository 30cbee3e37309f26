import { clientAddress } from '../../platform/http/rate-limit.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/errors.ts';
import { ListMessagesQuery, MessageList } from '../messaging/index.ts';
import { BalanceTransactionList, ExportBalanceTransactionsQuery, ListBalanceTransactionsQuery, MerchantBalance } from '../balances/index.ts';
import { CreatePayoutBody, ListPayoutsQuery, Payout, PayoutList, PayoutSchedule, PayoutScheduleBody } from '../payouts/index.ts';
import { CreateTestUserBody, TestUser } from '../users/index.ts';
import {
  CreateEndpointBody,
  DeletedEndpoint,
  DeliveriesQuery,
  DeliveryList,
  Endpoint,
  EndpointList,
  EndpointSecret,
  EndpointStats,
  EndpointWithSecret,
  EventList,
  EventsQuery,
  ListQuery,
  ResendBody,
  ResendResult,
  RollSecretBody,
  UpdateEndpointBody,
} from '../webhooks/index.ts';
import { Intent } from '../intents/index.ts';
import type { DashboardScope, DashboardSession } from './dashboard.service.ts';
import {
  ApiKey,
  ApiKeyList,
  CreatedApiKey,
  CreateKeyBody,
  EmptyBody,
  SessionPatch,
  LoginBody,
  ModeIdParams,
  ModeParams,
  OriginsBody,
  Overview,
  OverviewQuery,
  CustomerDetail,
  CustomerList,
  CustomersQuery,
  PaymentDetail,
  PaymentList,
  PaymentsExportQuery,
  PaymentsQuery,
  RolledApiKey,
  RollKeyBody,
  SearchQuery,
  SearchResults,
  Session,
} from './dashboard.schema.ts';
import { clearSessionCookie, sessionCookie, sessionTokenOf } from './dashboard.cookies.ts';
import registerPages from './dashboard.pages.ts';
import type { Permission } from './dashboard.roles.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Dashboard API routes: `public` (sign-in) or `session` (the default: a signed-in user). */
    dashboard?: 'public' | 'session';
    /** What a session route needs of the signed-in user's role (dashboard.roles.ts). */
    permission?: Permission;
  }
  interface FastifyRequest {
    dashboardSession: DashboardSession;
    dashboardToken: string;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const tags = ['dashboard (internal)'];
/** The dashboard API answers JSON: the API's CSP and no-store, not the pages' headers. No API key. */
const session = { auth: 'none' as const, csp: 'api' as const };
const open = { ...session, dashboard: 'public' as const };

/**
 * Refuses requests a browser made for another site: `Sec-Fetch-Site: cross-site` (every current
 * browser sends it), or an `Origin` whose host is not this server's. With the SameSite=Strict
 * cookie and the CSRF token, the third line of defence against cross-site request forgery.
 */
function assertSameSite(request: FastifyRequest) {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  let foreignOrigin = false;
  if (typeof origin === 'string') {
    try {
      const from = new URL(origin);
      const self = new URL(`${from.protocol}//${request.headers.host ?? ''}`);
      const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
      foreignOrigin = from.hostname !== self.hostname || port(from) !== port(self);
    } catch {
      foreignOrigin = true;
    }
  }
  if (site === 'cross-site' || foreignOrigin) {
    throw new ApiError('csrf_token_invalid', 'The dashboard API takes requests from the dashboard\'s own pages only');
  }
}

/** A CSV download: its file name made of safe characters only (the filters can hold `:` and `+`). */
function sendCsv(reply: FastifyReply, name: string, stream: NodeJS.ReadableStream) {
  const file = `${name}.csv`.replace(/[^A-Za-z0-9._-]/g, '_');
  return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${file}"`).send(stream);
}

/**
 * The dashboard's API (contract §2: "its own API under /dashboard/api", session cookie) and its
 * pages. Every call after sign-in acts on the signed-in user's merchant, in the mode named in the
 * path (`/dashboard/api/test/…`, `/dashboard/api/live/…`).
 *
 * Sessions: an HttpOnly, SameSite=Strict cookie (Secure and `__Host-` in production) holding a
 * random token whose SHA-256 only is stored; 30 minutes idle, 12 hours at most. CSRF: every POST,
 * PUT, PATCH and DELETE must carry `x-csrf-token` (from the sign-in answer or GET /session: an HMAC of
 * the session token), and cross-site requests are refused outright (`Sec-Fetch-Site`, `Origin`).
 */
export default async function dashboardRoutes(instance: FastifyInstance) {
  registerPages(instance);
  await instance.register(dashboardApi, { prefix: '/dashboard/api' });
}

async function dashboardApi(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const dashboard = app.services.dashboard;
  const production = app.deps.config.mode === 'production';

  app.decorateRequest('dashboardSession', null as unknown as DashboardSession);
  app.decorateRequest('dashboardToken', '');

  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return;
    const needsSession = request.routeOptions.config.dashboard !== 'public';
    if (STATE_CHANGING.has(request.method) || !needsSession) assertSameSite(request);
    if (!needsSession) return;
    const token = sessionTokenOf(request, production);
    try {
      request.dashboardSession = await dashboard.authenticate(token);
    } catch (err) {
      // A cookie that no longer opens a session is cleared, so the browser stops sending it.
      if (token !== undefined) reply.header('set-cookie', clearSessionCookie(production));
      throw err;
    }
    request.dashboardToken = token as string;
    if (STATE_CHANGING.has(request.method)) {
      const sent = request.headers['x-csrf-token'];
      dashboard.checkCsrf(request.dashboardToken, typeof sent === 'string' ? sent : undefined);
    }
  });

  const scope = (req: { params: { mode: 'test' | 'live' }; dashboardSession: DashboardSession }): DashboardScope => ({
    merchantId: req.dashboardSession.merchantId,
    mode: req.params.mode,
    pinnedVersion: req.dashboardSession.pinnedVersion,
  });

  // ---- session ----------------------------------------------------------------------------------

  app.post(
    '/login',
    {
      config: open,
      schema: {
        tags,
        summary: 'Sign in to the dashboard',
        description:
          'E-mail and password (argon2id). Sets the session cookie and answers the session with its `csrfToken`. Wrong e-mail or password: 401 `invalid_credentials` (one answer for both). 5 failures for an e-mail from one client address within 15 minutes, or 100 from all addresses within 24 hours: 429 `login_locked` with `Retry-After`. More than `CAISSE_RATE_LIMIT_IP` (20) sign-ins a minute from one address, whatever the e-mail: 429 `rate_limited` with `Retry-After`.',
        body: LoginBody,
        response: { 200: Session },
      },
    },
    async (req, reply) => {
      const { sessionToken, session: view, absoluteExpiresAt } = await dashboard.login(req.body, clientAddress(req));
      reply.header('set-cookie', sessionCookie(sessionToken, absoluteExpiresAt, app.deps.clock.now(), production));
      return view;
    },
  );

  app.get(
    '/session',
    { config: session, schema: { tags, summary: 'The signed-in session, with its CSRF token', response: { 200: Session } } },
    async (req) => dashboard.sessionView(req.dashboardSession, req.dashboardToken),
  );

  app.patch(
    '/session',
    {
      config: session,
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
    { config: session, schema: { tags, summary: 'Sign out: ends the session and clears the cookie', body: EmptyBody } },
    async (req, reply) => {
      await dashboard.logout(req.dashboardSession);
      reply.header('set-cookie', clearSessionCookie(production));
      return reply.code(204).send();
    },
  );

  // ---- payments ---------------------------------------------------------------------------------

  app.get(
    '/:mode/payments',
    {
      config: session,
      schema: {
        tags,
        summary: 'Payments, newest first, by status and creation date',
        params: ModeParams,
        querystring: PaymentsQuery,
        response: { 200: PaymentList },
      },
    },
    async (req) => dashboard.listPayments(scope(req), req.query),
  );

  app.get(
    '/:mode/payments.csv',
    {
      config: session,
      schema: {
        tags,
        summary: 'The payments the list\'s filters select, newest first, as a CSV download',
        description:
          'RFC 4180 (header row, CRLF), streamed: `id`, `created_at`, `amount` (major units), `currency`, `status`, `description`, `metadata` (JSON). A cell a spreadsheet would run as a formula starts with `\'`. The filters of GET …/payments without `limit` and `startingAfter`; a bad one is 400 `validation_error` (or `parameter_unknown`) before any byte.',
        params: ModeParams,
        querystring: PaymentsExportQuery,
        produces: ['text/csv'],
      },
    },
    async (req, reply) => {
      const stream = dashboard.paymentsCsv(scope(req), req.query);
      return sendCsv(reply, `caisse-payments-${req.params.mode}-${req.query.createdGte ?? 'start'}-${req.query.createdLt ?? 'now'}`, stream);
    },
  );

  app.get(
    '/:mode/search',
    {
      config: { ...session, permission: 'payments:read' },
      schema: {
        tags,
        summary: "The header's search: payments by id, metadata value, amount or customer phone (last digits)",
        description:
          'Newest first, 20 at most. A text of 4 digits or more (spaces and a leading + allowed) also finds the payments of the merchant\'s customers whose phone number ends with those digits; fewer digits are searched as an amount or a metadata value only.',
        params: ModeParams,
        querystring: SearchQuery,
        response: { 200: SearchResults },
      },
    },
    async (req) => dashboard.search(scope(req), req.query.q),
  );

  app.get(
    '/:mode/overview',
    {
      config: { ...session, permission: 'payments:read' },
      schema: {
        tags,
        summary: 'The Home page: volume, successful payments, success rate and new customers, with their series and the previous period',
        description:
          'Periods in UTC: `today` (hourly series) and the last `7d` or `30d` days including today (daily series). The previous period is as long and cut at the same point (today so far against yesterday up to the same time). Volume: the sum of the successful payments per currency (refunds not deducted). Success rate: successful charge attempts / all charge attempts (succeeded or declined) in the period, null without attempts; an intent never attempted (expired, canceled unpaid) does not count. New customers: customers whose first successful payment to this merchant falls in the period. Closed hours come from an hourly rollup, the open hour from the charges themselves.',
        params: ModeParams,
        querystring: OverviewQuery,
        response: { 200: Overview },
      },
    },
    async (req) => dashboard.overview(scope(req), req.query.period ?? 'today'),
  );

  app.get(
    '/:mode/payments/:id',
    {
      config: session,
      schema: { tags, summary: 'A payment with its events and their webhook deliveries', params: ModeIdParams, response: { 200: PaymentDetail } },
    },
    async (req) => dashboard.payment(scope(req), req.params.id),
  );

  app.post(
    '/:mode/payments/:id/cancel',
    { config: session, schema: { tags, summary: 'Cancel an open payment', params: ModeIdParams, body: EmptyBody, response: { 200: Intent } } },
    async (req) => dashboard.cancelPayment(scope(req), req.params.id),
  );

  // ---- API keys ---------------------------------------------------------------------------------

  app.get(
    '/:mode/keys',
    { config: session, schema: { tags, summary: 'API keys and secret keys of the mode, newest first', params: ModeParams, response: { 200: ApiKeyList } } },
    async (req) => dashboard.listKeys(scope(req)),
  );

  app.post(
    '/:mode/keys',
    {
      config: session,
      schema: { tags, summary: 'Create a key: the answer shows it in full, once', params: ModeParams, body: CreateKeyBody, response: { 201: CreatedApiKey } },
    },
    async (req, reply) => reply.code(201).send(await dashboard.createKey(scope(req), req.body)),
  );

  app.post(
    '/:mode/keys/:id/roll',
    {
      config: session,
      schema: {
        tags,
        summary: 'Roll a key: a new one now, the old one working for the grace period',
        params: ModeIdParams,
        body: RollKeyBody,
        response: { 200: RolledApiKey },
      },
    },
    async (req) => dashboard.rollKey(scope(req), req.params.id, req.body.graceSeconds),
  );

  app.post(
    '/:mode/keys/:id/revoke',
    { config: session, schema: { tags, summary: 'Revoke a key now', params: ModeIdParams, body: EmptyBody, response: { 200: ApiKey } } },
    async (req) => dashboard.revokeKey(scope(req), req.params.id),
  );

  app.post(
    '/:mode/keys/:id/allowed-origins',
    {
      config: session,
      schema: { tags, summary: 'Replace the browser origins allowed to use an API key', params: ModeIdParams, body: OriginsBody, response: { 200: ApiKey } },
    },
    async (req) => dashboard.setAllowedOrigins(scope(req), req.params.id, req.body.allowedOrigins),
  );

  // ---- webhooks ---------------------------------------------------------------------------------

  const webhooks = dashboard.webhooks;

  app.get(
    '/:mode/webhook-endpoints',
    { config: session, schema: { tags, summary: 'Webhook endpoints', params: ModeParams, querystring: ListQuery, response: { 200: EndpointList } } },
    async (req) => webhooks.listEndpoints(scope(req), { limit: req.query.limit ?? 20, startingAfter: req.query.startingAfter }),
  );

  app.post(
    '/:mode/webhook-endpoints',
    {
      config: session,
      schema: { tags, summary: 'Add a webhook endpoint', params: ModeParams, body: CreateEndpointBody, response: { 201: EndpointWithSecret } },
    },
    async (req, reply) => reply.code(201).send(await webhooks.createEndpoint(scope(req), req.body)),
  );

  app.get(
    '/:mode/webhook-endpoints/:id',
    { config: session, schema: { tags, summary: 'A webhook endpoint', params: ModeIdParams, response: { 200: Endpoint } } },
    async (req) => webhooks.getEndpoint(scope(req), req.params.id),
  );

  app.patch(
    '/:mode/webhook-endpoints/:id',
    {
      config: session,
      schema: { tags, summary: 'Change a webhook endpoint', params: ModeIdParams, body: UpdateEndpointBody, response: { 200: Endpoint } },
    },
    async (req) => webhooks.updateEndpoint(scope(req), req.params.id, req.body),
  );

  app.delete(
    '/:mode/webhook-endpoints/:id',
    { config: session, schema: { tags, summary: 'Delete a webhook endpoint', params: ModeIdParams, response: { 200: DeletedEndpoint } } },
    async (req) => webhooks.deleteEndpoint(scope(req), req.params.id),
  );

  app.post(
    '/:mode/webhook-endpoints/:id/reveal-secret',
    {
      config: session,
      schema: {
        tags,
        summary: 'Reveal the signing secret (a POST, so it needs the CSRF token)',
        params: ModeIdParams,
        body: EmptyBody,
        response: { 200: EndpointSecret },
      },
    },
    async (req) => webhooks.revealSecret(scope(req), req.params.id),
  );

  app.post(
    '/:mode/webhook-endpoints/:id/roll-secret',
    {
      config: session,
      schema: { tags, summary: 'Roll the signing secret', params: ModeIdParams, body: RollSecretBody, response: { 200: EndpointWithSecret } },
    },
    async (req) => webhooks.rollSecret(scope(req), req.params.id, req.body.expiresIn),
  );

  app.get(
    '/:mode/webhook-endpoints/:id/deliveries',
    {
      config: session,
      schema: { tags, summary: 'Deliveries to an endpoint, newest first', params: ModeIdParams, querystring: DeliveriesQuery, response: { 200: DeliveryList } },
    },
    async (req) =>
      webhooks.listDeliveries(scope(req), req.params.id, { limit: req.query.limit ?? 20, startingAfter: req.query.startingAfter, eventId: req.query.eventId }),
  );

  app.get(
    '/:mode/webhook-endpoints/:id/stats',
    { config: session, schema: { tags, summary: "The endpoint's success rate over the last 24 hours (deliveries attempted, succeeded)", params: ModeIdParams, response: { 200: EndpointStats } } },
    async (req) => webhooks.endpointStats(scope(req), req.params.id),
  );

  app.get(
    '/:mode/events',
    { config: session, schema: { tags, summary: 'Events, newest first', params: ModeParams, querystring: EventsQuery, response: { 200: EventList } } },
    async (req) => webhooks.listEvents(scope(req), { limit: req.query.limit ?? 20, startingAfter: req.query.startingAfter, type: req.query.type }),
  );

  app.post(
    '/:mode/events/:id/resend',
    {
      config: session,
      schema: { tags, summary: 'Send an event again', params: ModeIdParams, body: ResendBody, response: { 200: ResendResult } },
    },
    async (req) => webhooks.resendEvent(scope(req), req.params.id, req.body.endpointId),
  );

  // ---- customers --------------------------------------------------------------------------------

  app.get(
    '/:mode/customers',
    {
      config: session,
      schema: {
        tags,
        summary: "The merchant's customers: masked phone, first and last payment, count and volume (never a wallet)",
        params: ModeParams,
        querystring: CustomersQuery,
        response: { 200: CustomerList },
      },
    },
    async (req) => dashboard.customers(scope(req), req.query),
  );

  app.get(
    '/:mode/customers/:id',
    {
      config: session,
      schema: {
        tags,
        summary: 'One customer: what it paid this merchant, its payment attempts and the top-ups it started here (never a wallet)',
        params: ModeIdParams,
        response: { 200: CustomerDetail },
      },
    },
    async (req) => dashboard.customer(scope(req), req.params.id),
  );

  // ---- balance ----------------------------------------------------------------------------------

  app.get(
    '/:mode/balance',
    { config: session, schema: { tags, summary: "The merchant's balance per currency", params: ModeParams, response: { 200: MerchantBalance } } },
    async (req) => dashboard.balance(scope(req)),
  );

  app.get(
    '/:mode/balance/transactions',
    {
      config: session,
      schema: {
        tags,
        summary: "The balance statement, newest first, by type, currency and period (as GET /balance/transactions)",
        params: ModeParams,
        querystring: ListBalanceTransactionsQuery,
        response: { 200: BalanceTransactionList },
      },
    },
    async (req) => dashboard.balanceTransactions(scope(req), req.query),
  );

  app.get(
    '/:mode/balance/transactions.csv',
    {
      config: session,
      schema: {
        tags,
        summary: 'The balance statement of a period as a CSV download (as GET /balance/transactions.csv)',
        params: ModeParams,
        querystring: ExportBalanceTransactionsQuery,
        produces: ['text/csv'],
      },
    },
    async (req, reply) => {
      // The query is checked before the first byte: a bad period is a problem+json 400, not a broken file.
      const stream = dashboard.balanceCsv(scope(req), req.query);
      return sendCsv(reply, `caisse-balance-${req.params.mode}-${req.query.from ?? 'start'}-${req.query.to ?? 'now'}`, stream);
    },
  );

  // ---- payouts ----------------------------------------------------------------------------------

  app.get(
    '/:mode/payouts',
    { config: session, schema: { tags, summary: 'Payouts, newest first', params: ModeParams, querystring: ListPayoutsQuery, response: { 200: PayoutList } } },
    async (req) => dashboard.payouts.list(scope(req), req.query),
  );

  app.get(
    '/:mode/payouts/:id',
    { config: session, schema: { tags, summary: 'A payout', params: ModeIdParams, response: { 200: Payout } } },
    async (req) => dashboard.payouts.retrieve(scope(req), req.params.id),
  );

  app.post(
    '/:mode/payouts',
    {
      config: session,
      schema: {
        tags,
        summary: 'Pay out part of the available balance to a mobile-money number (as POST /payouts: 202, PENDING)',
        description:
          'Errors as POST /payouts: `amount_invalid`, `currency_unsupported`, `provider_unsupported`, `phone_invalid` (400); `balance_insufficient` (409); `provider_unavailable` (503: no connector for the mode).',
        params: ModeParams,
        body: CreatePayoutBody,
        response: { 202: Payout },
      },
    },
    async (req, reply) => reply.code(202).send(await dashboard.payouts.create(scope(req), req.body)),
  );

  app.get(
    '/:mode/payout-schedule',
    { config: session, schema: { tags, summary: 'The automatic payout schedule of the mode', params: ModeParams, response: { 200: PayoutSchedule } } },
    async (req) => dashboard.payouts.schedule(scope(req)),
  );

  app.put(
    '/:mode/payout-schedule',
    {
      config: session,
      schema: { tags, summary: 'Set the automatic payout schedule (as PUT /payout-schedule)', params: ModeParams, body: PayoutScheduleBody, response: { 200: PayoutSchedule } },
    },
    async (req) => dashboard.payouts.setSchedule(scope(req), req.body),
  );

  // ---- test data --------------------------------------------------------------------------------

  app.get(
    '/:mode/messages',
    {
      config: session,
      schema: { tags, summary: 'The test-mode messages outbox (404 in live mode)', params: ModeParams, querystring: ListMessagesQuery, response: { 200: MessageList } },
    },
    async (req) => dashboard.messages(scope(req), req.query),
  );

  app.post(
    '/:mode/test-users',
    {
      config: session,
      schema: { tags, summary: 'Create a verified test user with a funded wallet (404 in live mode)', params: ModeParams, body: CreateTestUserBody, response: { 201: TestUser } },
    },
    async (req, reply) => reply.code(201).send(await dashboard.createTestUser(scope(req), req.body)),
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
