// The payment links module: shareable links whose visits create intents (issue 22).
export { createPaymentLinksService } from './paymentlinks.service.ts';
export { default as paymentLinksRoutes } from './paymentlinks.routes.ts';
export { paymentLinksDashboardRoutes } from './paymentlinks.dashboard.ts';
