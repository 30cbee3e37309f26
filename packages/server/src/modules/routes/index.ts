/**
 * Routes (docs/spec/routes.md, decision 0077): for each mode, country and payment method, the
 * ordered connectors a new attempt or payout goes through. The module's only public entry.
 */
export { createRoutesService, type RouteChoice, type RouteRead, type RoutesService, type RouteView } from './routes.service.ts';
export type { RouteKey, RouteKind } from './routes.repository.ts';
