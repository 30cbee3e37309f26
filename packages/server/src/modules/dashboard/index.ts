// The dashboard module: dashboard sessions, its API, its pages and the hosted checkout's keys.
export * from './dashboard.service.ts';
export { default as dashboardRoutes } from './dashboard.routes.ts';
export * from './dashboard.roles.ts';
