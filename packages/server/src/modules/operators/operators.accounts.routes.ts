import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { need, tags } from './operators.http.ts';
import { InvitedOperator, InviteOperatorBody, OperatorList } from './operators.schema.ts';

/** The operators: the list, and an admin's invitation. */
export async function operatorAccountsRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const operators = app.services.operators;

  app.get('/operators', { config: need('operators:read'), schema: { tags, summary: 'The operators', response: { 200: OperatorList } } }, async () =>
    operators.listOperators(),
  );

  app.post(
    '/operators',
    {
      config: need('operators:write'),
      schema: {
        tags,
        summary: 'Invite an operator: answers a password shown once, to hand over; TOTP enrolment comes at the first sign-in',
        body: InviteOperatorBody,
        response: { 201: InvitedOperator },
      },
    },
    async (req, reply) => reply.code(201).send(await operators.invite(req.operatorSession, req.body)),
  );
}
