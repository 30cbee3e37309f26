// The messaging module: SMS and e-mail through providers, and the outbox.
export {
  type Channel,
  createMessagingService,
  type MessageSender,
  messageView,
  type MessageView,
  type MessagingService,
  type OutgoingMessage,
  type ProofMessage,
  type SentMessage,
  smsBody,
  type StagedMessage,
  type Transports,
  transportsFromConfig,
  WITHHELD_CODE,
} from './messaging.service.ts';
export { ListMessagesQuery, Message, MessageList, OperatorMessagesQuery } from './messaging.schema.ts';
export { default as messagingRoutes } from './messaging.routes.ts';
export { messagingDashboardRoutes } from './messaging.dashboard.ts';
