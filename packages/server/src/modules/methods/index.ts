// The payment methods module: what an intent may be paid with, and the merchant's choice per mode (docs/spec/mobile-money-payments.md).
export { CARD_BRANDS, createMethodsService, type MethodsService } from './methods.service.ts';
export { MethodField, type MethodName } from './methods.schema.ts';
export { default as methodsRoutes } from './methods.routes.ts';
export { methodsDashboardRoutes } from './methods.dashboard.ts';
