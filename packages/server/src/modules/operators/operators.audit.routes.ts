import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { need, tags } from './operators.http.ts';
import { OperatorAuditList, OperatorAuditQuery } from './operators.schema.ts';

/** What operators did. */
export async function operatorAuditRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const operators = app.services.operators;

  app.get(
    '/audit',
    {
      config: need('audit:read'),
      schema: { tags, summary: 'What operators did, newest first', querystring: OperatorAuditQuery, response: { 200: OperatorAuditList } },
    },
    async (req) => operators.listAudit(req.query),
  );
}
