import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { assertTestMode, callerOf, dashboardTags as tags, ModeParams, sessionRoute } from '../../platform/http/dashboard-api.ts';
import { ListMessagesQuery, MessageList } from './messaging.schema.ts';

/** The Test data page's messages outbox: the SMS and e-mails test mode sent, for the signed-in merchant. */
export function messagingDashboardRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const messaging = app.services.messaging;

  app.get(
    '/:mode/messages',
    {
      config: sessionRoute('testdata:write'),
      schema: {
        tags,
        summary: 'The test-mode messages outbox (404 in live mode)',
        params: ModeParams,
        querystring: ListMessagesQuery,
        response: { 200: MessageList },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      assertTestMode(caller, 'The messages outbox');
      return messaging.list({ merchantId: caller.merchantId, mode: caller.mode, ...req.query });
    },
  );
}
