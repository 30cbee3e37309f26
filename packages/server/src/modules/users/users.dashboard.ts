import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { assertTestMode, callerOf, dashboardTags as tags, ModeParams, sessionRoute } from '../../platform/http/dashboard-api.ts';
import { scopeOf } from '../../platform/tenancy.ts';
import { CreateTestUserBody, TestUser } from './users.schema.ts';

/** The Test data page's funded test users, for the signed-in merchant in test mode. */
export function usersDashboardRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const users = app.services.users;

  app.post(
    '/:mode/test-users',
    {
      config: sessionRoute('testdata:write'),
      schema: {
        tags,
        summary: 'Create a verified test user with a funded wallet (404 in live mode)',
        params: ModeParams,
        body: CreateTestUserBody,
        response: { 201: TestUser },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      assertTestMode(caller, 'Creating funded test users');
      return reply.code(201).send(await users.createTestUser({ ...scopeOf(caller), merchantCountry: caller.merchantCountry }, req.body));
    },
  );
}
