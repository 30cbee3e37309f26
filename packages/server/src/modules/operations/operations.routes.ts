import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.ts';
import { assertMetricsAccess } from '../../platform/metrics.ts';

const Status = Type.Object({ status: Type.String() });

/** Health, readiness, metrics and the OpenAPI document: no API credentials (metrics: see assertMetricsAccess). */
export default async function operationsRoutes(app: FastifyInstance) {
  app.get(
    '/healthz',
    { config: { auth: 'none' }, schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Status } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: { auth: 'none' },
      schema: { tags: ['operations'], summary: 'The database answers', response: { 200: Status } },
    },
    async () => {
      try {
        await sql`select 1`.execute(app.deps.db);
      } catch {
        throw new ApiError('unavailable', 'The database does not answer');
      }
      return { status: 'ready' };
    },
  );

  app.get('/metrics', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
    assertMetricsAccess(request, app.deps.config);
    reply.type(app.metrics.registry.contentType);
    return app.metrics.registry.metrics();
  });

  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => app.swagger());
}
