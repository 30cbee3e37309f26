import type { Logger } from 'pino';
import { startSettlement } from './modules/balances/index.ts';
import { startChargeRollup } from './modules/charges/index.ts';
import { startLifecyclePoller } from './modules/connectors/index.ts';
import { startSweeper } from './modules/intents/index.ts';
import { startPayoutPoller, startPayoutScheduler } from './modules/payouts/index.ts';
import { startRetention } from './modules/retention/index.ts';
import { startTopupPoller } from './modules/topups/index.ts';
import { startDispatcher } from './modules/webhooks/index.ts';
import type { Deps } from './platform/deps.ts';
import type { BackgroundWorker } from './platform/worker.ts';
import type { Services } from './services.ts';

/**
 * The background workers of `start` (unless --no-worker) and of `caisse worker`: the webhook
 * dispatcher, the expiry sweeper, retention, the top-up poller, settlement, the payout poller and scheduler, the overview's rollup. Each owns its work; all share one loop
 * (platform/worker.ts) and stop together.
 */
export function startBackgroundWorkers(deps: Deps, services: Services, logger: Logger): BackgroundWorker[] {
  return [
    startDispatcher(deps, logger, { events: services.events }),
    startSweeper(services.intents, logger),
    startRetention(deps, services, logger),
    startTopupPoller(services.topups, logger),
    startLifecyclePoller('payment-attempt-poller', services.attempts, logger),
    startLifecyclePoller('refund-poller', services.refunds, logger),
    startSettlement(services.balances, logger),
    startPayoutPoller(services.payouts, logger),
    startPayoutScheduler(services.payouts, logger),
    startChargeRollup(services.charges, logger),
  ];
}
