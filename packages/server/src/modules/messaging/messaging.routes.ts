import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { assertTestMode } from '../../platform/http/auth.ts';
import { ListMessagesQuery, MessageList } from './messaging.schema.ts';

/** The test-mode outbox (docs/spec/otp-and-charge.md, docs/spec/running.md). */
export default async function messagingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const messaging = app.services.messaging;

  app.get(
    '/test/messages',
    {
      config: { auth: 'sk', access: 'customers:read' },
      schema: {
        tags: ['test helpers'],
        summary: 'Messages sent in test mode (the outbox)',
        description:
          'SMS and e-mails that test mode "sent", newest first, `body` holding the code. Filter with `userId`. Test mode only (404 `not_found` with live keys): test mode never sends a real message.',
        security: [{ apiKey: [], secretKey: [] }],
        querystring: ListMessagesQuery,
        response: { 200: MessageList },
      },
    },
    async (request) => {
      assertTestMode(request);
      const { userId, limit, startingAfter } = request.query;
      return messaging.list({ merchantId: request.merchant.merchantId, mode: request.merchant.mode, userId, limit, startingAfter });
    },
  );
}
