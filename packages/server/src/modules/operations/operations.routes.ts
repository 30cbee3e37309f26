import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../platform/db-unavailable.ts';
import { ApiError, ERRORS, type ErrorCode } from '../../platform/errors.ts';
import { assertMetricsAccess } from '../../platform/metrics.ts';

const Status = Type.Object({ status: Type.String() });
const ProblemType = Type.Object({
  type: Type.String(),
  code: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  documentation: Type.String(),
});

/**
 * Health, readiness, metrics, the OpenAPI document and the problem types: no API credentials
 * (metrics: see assertMetricsAccess).
 */
export default async function operationsRoutes(app: FastifyInstance) {
  app.get('/healthz', { config: { auth: 'none' }, schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Status } } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    {
      config: { auth: 'none' },
      schema: { tags: ['operations'], summary: 'A writable database answers (503 `unavailable` with Retry-After otherwise)', response: { 200: Status } },
    },
    async () => {
      // A standby that is not promoted yet answers reads but refuses every write: not ready.
      let readOnly: boolean;
      try {
        const { rows } = await sql<{ read_only: boolean }>`select pg_is_in_recovery() as read_only`.execute(app.deps.db);
        readOnly = rows[0]?.read_only === true;
      } catch {
        readOnly = true;
      }
      if (readOnly) throw new ApiError('unavailable', 'No writable database answers', { headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) } });
      return { status: 'ready' };
    },
  );

  app.get('/metrics', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
    assertMetricsAccess(request, app.deps.config);
    reply.type(app.metrics.registry.contentType);
    return app.metrics.registry.metrics();
  });

  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => app.swagger());

  // An error's `type` is a URI reference: resolved against this server, it names what it means.
  app.get(
    '/errors/:code',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['operations'],
        summary: 'What the `type` of an error answer (`/errors/<code>`) means: its code, title and status',
        params: Type.Object({ code: Type.String() }),
        response: { 200: ProblemType },
      },
    },
    async (request) => {
      const { code } = request.params as { code: string };
      if (!Object.hasOwn(ERRORS, code)) throw new ApiError('not_found', `No problem type ${code}`, { param: 'code' });
      const { title, status } = ERRORS[code as ErrorCode];
      return { type: `/errors/${code}`, code, title, status, documentation: '/docs' };
    },
  );
}
