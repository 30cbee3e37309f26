// The messaging module: SMS and e-mail through providers, and the outbox.
export { type Channel, createMessagingService, type MessageSender, type MessagingService, smsBody, type StagedMessage } from './messaging.service.ts';
export { MessageList, OperatorMessagesQuery } from './messaging.schema.ts';
export { default as messagingRoutes } from './messaging.routes.ts';
export { messagingDashboardRoutes } from './messaging.dashboard.ts';
