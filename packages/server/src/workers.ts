import type { Logger } from 'pino';
import { startSettlement } from './modules/balances/index.ts';
import { startChargeRollup } from './modules/charges/index.ts';
import { startSweeper } from './modules/intents/index.ts';
import { startLifecyclePoller } from './modules/lifecycle/index.ts';
import { startPayoutScheduler } from './modules/payouts/index.ts';
import { startRetention } from './modules/retention/index.ts';
import { startDispatcher } from './modules/webhooks/index.ts';
import type { Deps } from './platform/deps.ts';
import type { BackgroundWorker } from './platform/worker.ts';
import type { Services } from './services.ts';

/**
 * The background workers of `start` (unless --no-worker) and of `caisse worker`: the webhook
 * dispatcher, the expiry sweeper, retention, the provider-request poller, settlement, the payout scheduler, the overview's rollup. Each owns its work; all share one loop
 * (platform/worker.ts) and stop together.
 */
export function startBackgroundWorkers(deps: Deps, services: Services, logger: Logger): BackgroundWorker[] {
  return [
    startDispatcher(deps, logger, { events: services.events }),
    startSweeper(services.intents, logger),
    startRetention(deps, services, logger),
    // One poller for every provider request: attempts, top-ups, payouts and refunds.
    startLifecyclePoller('provider-request-poller', services.callbacks, logger),
    startSettlement(services.balances, logger),
    startPayoutScheduler(services.payouts, logger),
    startChargeRollup(services.charges, logger),
  ];
}
