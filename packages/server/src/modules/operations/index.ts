// Operations: health, readiness and metrics.
export { default as operationsRoutes } from './operations.routes.ts';
