import { createChargesService } from './modules/charges/charges.service.ts';
import { createDashboardService } from './modules/dashboard/dashboard.service.ts';
import { createIntentsService } from './modules/intents/intents.service.ts';
import { createLedgerService } from './modules/ledger/ledger.service.ts';
import { createListenService } from './modules/listen/listen.service.ts';
import { createMerchantsService } from './modules/merchants/merchants.service.ts';
import { createMessagingService } from './modules/messaging/messaging.service.ts';
import { createOtpService } from './modules/otp/otp.service.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { createWebhooksService } from './modules/webhooks/webhooks.service.ts';
import type { Deps } from './platform/deps.ts';

/** Every module's service, built once from the injected world. */
export function createServices(deps: Deps) {
  const messaging = createMessagingService(deps);
  const ledger = createLedgerService(deps);
  const services = {
    merchants: createMerchantsService(deps),
    messaging,
    ledger,
    users: createUsersService(deps, { messaging, ledger }),
    webhooks: createWebhooksService(deps),
    intents: createIntentsService(deps),
    otp: createOtpService(deps, { messaging }),
    charges: createChargesService(deps, { ledger }),
    listen: createListenService(deps),
  };
  return { ...services, dashboard: createDashboardService(deps, services) };
}

export type Services = ReturnType<typeof createServices>;
