// The messaging module: SMS and e-mail through providers, and the outbox.
export * from './messaging.service.ts';
export * from './messaging.schema.ts';
export { default as messagingRoutes } from './messaging.routes.ts';
export { messagingDashboardRoutes } from './messaging.dashboard.ts';
