/**
 * Provider requests (docs/architecture.md, "Connectors"): the one lifecycle of every money
 * movement through a provider (attempts, top-ups, payouts, refunds to mobile money), its table
 * `provider_requests`, its one poller and the providers' callbacks. The module's only public entry.
 */
export { createProviderLifecycle, FIRST_POLL_DELAY_MS, PAGE_LOST_REASON, pageLostAfterMs, paymentRequestOf, POLL_LEASE_MS } from './lifecycle.ts';
export { createRequestRouter } from './lifecycle.router.ts';
export { requestAccountsOf, requestStore } from './lifecycle.repository.ts';
export { startLifecyclePoller } from './lifecycle.poller.ts';
export { CALLBACKS_PER_ADDRESS_PER_MINUTE, CALLBACKS_PER_REFERENCE_PER_MINUTE, default as lifecycleRoutes } from './lifecycle.routes.ts';
