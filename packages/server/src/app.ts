import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Logger } from 'pino';
import { chargesRoutes, registerManualReturnMetrics } from './modules/charges/index.ts';
import { dashboardRoutes } from './modules/dashboard/index.ts';
import { operatorRoutes } from './modules/operators/index.ts';
import { onboardingDashboardRoutes } from './modules/onboarding/index.ts';
import { intentsRoutes } from './modules/intents/index.ts';
import { ledgerRoutes } from './modules/ledger/index.ts';
import { balancesDashboardRoutes, balancesRoutes } from './modules/balances/index.ts';
import { listenRoutes } from './modules/listen/index.ts';
import { messagingDashboardRoutes, messagingRoutes } from './modules/messaging/index.ts';
import { operationsRoutes } from './modules/operations/index.ts';
import { otpRoutes } from './modules/otp/index.ts';
import { usersDashboardRoutes, usersRoutes } from './modules/users/index.ts';
import { webhooksDashboardRoutes, webhooksRoutes } from './modules/webhooks/index.ts';
import { registerReadMetrics } from './platform/db.ts';
import type { Deps } from './platform/deps.ts';
import type { AccessTokenVerifier } from './platform/tenancy.ts';
import { registerErrorHandling } from './platform/http/errors.ts';
import { clientErrorHandler } from './platform/http/client-errors.ts';
import { serverOptions, type TlsFiles } from './platform/http/https.ts';
import type { WindowCounters } from './platform/http/rate-limit.ts';
import { frameworkErrors, registerSecurity } from './platform/http/security.ts';
import { registerIdempotency } from './platform/http/idempotency.ts';
import { serializerCompiler } from './platform/http/serialization.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import { createMetrics, httpDurationObserver, type Metrics } from './platform/metrics.ts';
import { openapiDocument } from './platform/openapi.ts';
import { createServices, type Services } from './services.ts';
import type { ModeConnectors } from './modules/connectors/index.ts';
import { topupsRoutes } from './modules/topups/index.ts';
import { registerProviderMetrics } from './modules/connectors/index.ts';
import { lifecycleRoutes } from './modules/lifecycle/index.ts';
import { payoutsDashboardRoutes, payoutsRoutes } from './modules/payouts/index.ts';
import { paymentLinksDashboardRoutes, paymentLinksRoutes } from './modules/paymentlinks/index.ts';
import { methodsDashboardRoutes, methodsRoutes } from './modules/methods/index.ts';
import { merchantsDashboardRoutes } from './modules/merchants/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
    services: Services;
    metrics: Metrics;
  }
}

export const BODY_LIMIT = 64 * 1024;

/**
 * One log line per request, when it ends (method, masked URL, status, time), instead of Fastify's
 * two ("incoming request", then "request completed"): half the log writes on the hot path. Error
 * lines are Fastify's own.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

export interface AppOptions {
  deps: Deps;
  logger: Logger;
  /** Certificate and key when the server terminates TLS itself (runtime reads the files). */
  tls?: TlsFiles;
  /** Rate-limit counters to use instead of those the config chooses (tests). */
  rateLimitCounters?: WindowCounters;
  /** Mobile-money connectors per mode (runtime points test mode at its sandbox); default: from config. */
  connectors?: ModeConnectors;
}

/** Builds the whole HTTP app from its dependencies. It never listens: main.ts and tests do. */
export async function buildApp({ deps, logger, tls, rateLimitCounters, connectors }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT,
    requestIdHeader: false,
    genReqId: () => deps.ids('request'),
    logController: new OneLinePerRequest(),
    routerOptions: { ignoreTrailingSlash: true },
    ...serverOptions(deps.config, tls),
    frameworkErrors,
    clientErrorHandler: clientErrorHandler(() => deps.ids('request')),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Bodies are JSON only: anything else is 415 unsupported_media_type.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  const services = createServices(deps, { connectors, logger: logger as Logger });
  app.decorate('deps', deps);
  app.decorate('services', services);
  app.decorate('metrics', createMetrics());
  registerProviderMetrics(app.metrics.registry, services.connectors);
  registerManualReturnMetrics(app.metrics.registry, services.refunds);
  if (deps.reads) registerReadMetrics(app.metrics.registry, deps.reads);

  // Synchronous (no promise per request), with each label set's child kept (issue 23).
  const observe = httpDurationObserver(app.metrics);
  app.addHook('onResponse', (request, reply, done) => {
    observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  // The request id, security headers, HTTPS, body limits, CORS, authentication and rate limits
  // (docs/spec/request-rules.md), in that order, in two synchronous hooks.
  const userTokens: { verify?: AccessTokenVerifier } = {};
  userTokens.verify = services.users.verifyAccessToken;
  await registerSecurity(app, {
    config: deps.config,
    clock: deps.clock,
    bodyLimit: BODY_LIMIT,
    counters: rateLimitCounters,
    merchants: services.merchants,
    verifyAccessToken: () => userTokens.verify,
  });
  // Every POST of the API (merchant and user routes alike) honours Idempotency-Key (docs/spec/request-rules.md).
  registerIdempotency(app, deps);

  await app.register(swagger, { openapi: openapiDocument });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(operationsRoutes);
  await app.register(usersRoutes);
  await app.register(ledgerRoutes);
  await app.register(balancesRoutes);
  await app.register(messagingRoutes);
  await app.register(webhooksRoutes);
  await app.register(intentsRoutes);
  await app.register(otpRoutes);
  await app.register(chargesRoutes);
  await app.register(listenRoutes);
  await app.register(topupsRoutes);
  await app.register(lifecycleRoutes);
  await app.register(payoutsRoutes);
  await app.register(paymentLinksRoutes);
  await app.register(methodsRoutes);
  // Provider calls a request started finish before the database closes.
  // Waiting payers get their answer now (the intent as it is), not when their wait ends.
  app.addHook('preClose', async () => services.intents.waiters.close());
  app.addHook('onClose', async () => {
    await services.topups.drain();
    await services.payouts.drain();
    await services.connectors.close();
  });

  // The dashboard's own API (sessions, roles, audit) and, inside it, each feature's pages' API.
  await app.register(dashboardRoutes, {
    features: [
      paymentLinksDashboardRoutes,
      methodsDashboardRoutes,
      onboardingDashboardRoutes,
      webhooksDashboardRoutes,
      balancesDashboardRoutes,
      payoutsDashboardRoutes,
      messagingDashboardRoutes,
      usersDashboardRoutes,
      merchantsDashboardRoutes,
    ],
  });
  await app.register(operatorRoutes);

  return app;
}
