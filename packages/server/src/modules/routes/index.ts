/**
 * Routes (docs/spec/routes.md, decision 0077): for each mode, country and payment method, the
 * ordered connectors a new attempt or payout goes through. The module's only public entry.
 */
export { createRoutesService, type RoutesService } from './routes.service.ts';
export type { RouteKey } from './routes.repository.ts';
