import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { need, tags } from './operators.http.ts';
import {
  ManualReturn,
  ManualReturnList,
  ManualReturnParams,
  ManualReturnsQuery,
  MarkReturnedBody,
  OperatorRoute,
  OperatorRouteList,
  RoutesQuery,
  SetRouteBody,
} from './operators.schema.ts';

/** Routes and late payments to return by hand (decision 0077). */
export async function operatorRoutingRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const operators = app.services.operators;

  app.get(
    '/routes',
    {
      config: need('providers:read'),
      schema: {
        tags,
        summary: 'Every route: for each mode, country and method, the connectors a new attempt (or payout) tries in order, its default and whether it was set',
        querystring: RoutesQuery,
        response: { 200: OperatorRouteList },
      },
    },
    async (req) => operators.routes(req.query.mode),
  );

  app.put(
    '/routes',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Set a route (connectors null: back to the default); audited',
        description:
          'An unknown connector, or one that does not serve the method in that country (or cannot send money, for a payout route): 400 `route_invalid` saying which.',
        body: SetRouteBody,
        response: { 200: OperatorRoute },
      },
    },
    async (req) =>
      operators.setRoute(
        req.operatorSession,
        { mode: req.body.mode, country: req.body.country, kind: req.body.kind ?? 'payment', method: req.body.method },
        req.body.connectors,
      ),
  );

  app.get(
    '/late-payments',
    {
      config: need('money:read'),
      schema: {
        tags,
        summary: 'Late payments whose connector cannot send them back: to return to the payer by hand (open ones first)',
        querystring: ManualReturnsQuery,
        response: { 200: ManualReturnList },
      },
    },
    async (req) => operators.lateReturns(req.query.status),
  );

  app.post(
    '/late-payments/:id/returned',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Say a late payment was returned to the payer by hand (a note saying how is required); audited',
        description: "Its held money leaves for the connector's clearing account. Already marked: 409 `return_state_invalid`.",
        params: ManualReturnParams,
        body: MarkReturnedBody,
        response: { 200: ManualReturn },
      },
    },
    async (req) => operators.markReturned(req.operatorSession, req.params.id, req.body.note),
  );
}
