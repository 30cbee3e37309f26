// The dashboard module: dashboard sessions, its API, its pages and the hosted checkout's keys.
export { createDashboardService, type DashboardService } from './dashboard.service.ts';
export { default as dashboardRoutes } from './dashboard.routes.ts';
