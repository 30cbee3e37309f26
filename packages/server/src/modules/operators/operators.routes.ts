import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../platform/errors.ts';
import { PAGES_DIST, sendAppPage } from '../../platform/http/built-pages.ts';
import { assertPermission, assertTwoFactor, staffSessionHook } from '../../platform/http/staff-session.ts';
import { operatorAccountsRoutes } from './operators.accounts.routes.ts';
import { operatorAuditRoutes } from './operators.audit.routes.ts';
import { operatorCustomersRoutes } from './operators.customers.routes.ts';
// The request's operatorSession and the routes' config.operator are declared there.
import './operators.http.ts';
import { operatorMerchantsRoutes } from './operators.merchants.routes.ts';
import { operatorMoneyRoutes } from './operators.money.routes.ts';
import { operatorPayoutsRoutes } from './operators.payouts.routes.ts';
import { operatorProfilesRoutes } from './operators.profiles.routes.ts';
import { operatorProvidersRoutes } from './operators.providers.routes.ts';
import { OPERATOR_PERMISSIONS, operatorCan } from './operators.roles.ts';
import { operatorRoutingRoutes } from './operators.routing.routes.ts';
import type { OperatorSession as Session } from './operators.sessions.ts';
import { operatorSessionRoutes } from './operators.sessions.routes.ts';

/** What a session that has not enrolled TOTP yet may call: its own session and the enrolment. */
const ENROLMENT_ROUTES = new Set(['/operator/api/session', '/operator/api/logout', '/operator/api/totp', '/operator/api/totp/confirm']);

/**
 * The console's areas, one plugin each, in the order their routes are listed (OpenAPI, docs/api.md).
 * Each inherits the session hook and the permission check below.
 */
const AREAS = [
  operatorSessionRoutes,
  operatorAccountsRoutes,
  operatorMerchantsRoutes,
  operatorProfilesRoutes,
  operatorMoneyRoutes,
  operatorRoutingRoutes,
  operatorPayoutsRoutes,
  operatorProvidersRoutes,
  operatorCustomersRoutes,
  operatorAuditRoutes,
];

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

  for (const area of AREAS) await app.register(area);
}
