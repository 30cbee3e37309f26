import { createBalancesService } from './modules/balances/index.ts';
import { createAttemptsService, createChargesService, createMobileRefunds, createRecordedRefunds, directPayments } from './modules/charges/index.ts';
import { createDashboardService } from './modules/dashboard/index.ts';
import { createEventsService } from './modules/events/index.ts';
import { createIntentsService } from './modules/intents/index.ts';
import { createLedgerService } from './modules/ledger/index.ts';
import { createListenService } from './modules/listen/index.ts';
import { createMerchantsService } from './modules/merchants/index.ts';
import { createMessagingService } from './modules/messaging/index.ts';
import { createOtpService } from './modules/otp/index.ts';
import { createOperatorsService } from './modules/operators/index.ts';
import { createOnboardingService } from './modules/onboarding/index.ts';
import { createCustomerLimits, createUsersService } from './modules/users/index.ts';
import { createModeConnectors, intentCurrencies, type ModeConnectors } from './modules/connectors/index.ts';
import { createRequestRouter, requestAccountsOf } from './modules/lifecycle/index.ts';
import { createProviderAccounts } from './modules/provideraccounts/index.ts';
import { createMethodsService } from './modules/methods/index.ts';
import { createPaymentLinksService } from './modules/paymentlinks/index.ts';
import { createPayoutsService } from './modules/payouts/index.ts';
import { createRoutesService } from './modules/routes/index.ts';
import { createReconciliationService } from './modules/reconciliation/index.ts';
import { createTopupsService } from './modules/topups/index.ts';
import { createWebhooksService, deliveriesOutbox, MAX_ENDPOINTS } from './modules/webhooks/index.ts';
import { createLogger } from './platform/logger.ts';
import type { Logger } from 'pino';
import type { Deps } from './platform/deps.ts';

/**
 * How Caisse reached the provider for each source of a statement's rows: a refund's or payout's
 * own request, a payment's successful attempt (the one that paid it, not a late one).
 */
const statementAccounts: NonNullable<Parameters<typeof createBalancesService>[1]['sourceAccounts']> = async (executor, ids) => {
  const found = await requestAccountsOf(executor, ids);
  for (const [intentId, direct] of await directPayments(executor, ids)) {
    const paidBy = direct.attempts.find((a) => a.status === 'SUCCEEDED' && a.late !== true);
    if (paidBy !== undefined) found.set(intentId, { connector: paidBy.connector, providerAccount: paidBy.providerAccount });
  }
  return found;
};

/**
 * Every module's service, built once from the injected world: the composition root. Modules
 * receive their collaborators here instead of importing each other's internals.
 */
export function createServices(deps: Deps, opts: { connectors?: ModeConnectors; logger?: Logger } = {}) {
  const logger = opts.logger ?? createLogger({ level: 'silent' });
  // The platform's accounts (environment, sandbox) and those operators add, chosen by the merchant's country.
  const providerAccounts = createProviderAccounts(deps, {
    platform: opts.connectors ?? createModeConnectors(deps.config, { clock: deps.clock, logger, callbackKey: deps.config.masterKey }),
    logger,
  });
  const connectors = providerAccounts.source;
  const merchants = createMerchantsService(deps);
  const messaging = createMessagingService(deps);
  const ledger = createLedgerService(deps);
  // The webhooks module subscribes to the outbox: an event's deliveries are written with it.
  const events = createEventsService(deps, { subscriber: deliveriesOutbox(() => deps.ids('delivery'), MAX_ENDPOINTS) });
  const intents = createIntentsService(deps, {
    events,
    pinnedVersions: merchants.pinnedVersions,
    directPayments,
    currencies: (mode, country, executor) => intentCurrencies(connectors, mode, country, executor),
  });
  const users = createUsersService(deps, {
    messaging,
    ledger,
    merchantLanguage: async (id) => (await merchants.findMerchant(id))?.language,
    merchantName: async (id) => (await merchants.findMerchant(id))?.name,
  });
  const otp = createOtpService(deps, { messaging, users, intents });
  const balances = createBalancesService(deps, { ledger, sourceAccounts: statementAccounts });
  const customerLimits = createCustomerLimits(deps);
  const topups = createTopupsService(deps, { ledger, connectors, logger, notices: users, limits: customerLimits });
  // Which connector reaches a method in a mode and country (docs/spec/routes.md).
  const routes = createRoutesService(deps, { connectors });
  const refunds = createMobileRefunds(deps, { balances, intents, connectors, merchantTerms: merchants.paymentTerms, logger });
  const recordedRefunds = createRecordedRefunds(deps, { intents, directRefunds: refunds });
  const methods = createMethodsService(deps, { connectors, routes, intentBySessionToken: intents.retrieveBySessionToken, merchant: merchants.findMerchant });
  const attempts = createAttemptsService(deps, {
    ledger,
    balances,
    intents,
    connectors,
    refunds,
    routes,
    merchantTerms: merchants.paymentTerms,
    methodCaps: methods,
    payerName: async (merchantId, tx) => (await merchants.shortName(merchantId, tx)).name,
    logger,
  });
  const payouts = createPayoutsService(deps, {
    balances,
    connectors,
    routes,
    events,
    pinnedVersions: merchants.pinnedVersions,
    isFrozen: merchants.isFrozen,
    isApproved: merchants.isApproved,
    countryOf: merchants.countryOf,
    logger,
  });
  const reconciliation = createReconciliationService(deps, { connectors, topups, payouts, attempts, refunds });
  const services = {
    reconciliation,
    merchants,
    messaging,
    ledger,
    balances,
    events,
    users,
    webhooks: createWebhooksService(deps, { events }),
    intents,
    otp,
    charges: createChargesService(deps, {
      ledger,
      balances,
      intents,
      otp,
      customers: users,
      limits: customerLimits,
      methodCaps: methods,
      directRefunds: refunds,
      recordedRefunds,
    }),
    listen: createListenService(deps, { events }),
    connectors,
    providerAccounts,
    // Every provider request's lifecycle: the providers' callbacks (one lookup by reference) and the one poller.
    callbacks: createRequestRouter([topups.lifecycle, attempts.lifecycle, payouts.lifecycle, refunds.lifecycle], {
      db: deps.db,
      clock: deps.clock,
      connectors,
      logger,
    }),
    attempts,
    refunds,
    recordedRefunds,
    topups,
    payouts,
    routes,

    paymentLinks: createPaymentLinksService(deps, { intents, merchant: merchants.findMerchant }),
    methods,
  };
  const onboarding = createOnboardingService(deps, { merchants, messaging });
  return {
    ...services,
    onboarding,
    dashboard: createDashboardService(deps, services),
    operators: createOperatorsService(deps, {
      merchants,
      ledger,
      verifyBooks: balances.verifyBooks,
      onboarding,
      payouts,
      customerLimits,
      connectors,
      users,
      methods: services.methods,
      reconciliation,
      providerAccounts,
      routes,
      lateReturns: refunds,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
