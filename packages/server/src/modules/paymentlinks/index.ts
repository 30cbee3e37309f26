// The payment links module: shareable links whose visits create intents (issue 22).
export { createPaymentLinksService, type LinkMerchant, linkUrl, type PaymentLinksService, type Visit } from './paymentlinks.service.ts';
export {
  CreatePaymentLinkBody,
  LINK_METADATA_KEY,
  ListLinkPaymentsQuery,
  ListPaymentLinksQuery,
  MAX_LINK_METADATA_KEYS,
  PaymentLink,
  PaymentLinkIdParams,
  PaymentLinkList,
  UpdatePaymentLinkBody,
  VisitParams,
} from './paymentlinks.schema.ts';
export { default as paymentLinksRoutes, originOf } from './paymentlinks.routes.ts';
export { paymentLinksDashboardRoutes } from './paymentlinks.dashboard.ts';
