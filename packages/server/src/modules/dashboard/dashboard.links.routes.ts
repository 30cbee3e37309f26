import type { Caller } from '../../platform/tenancy.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IntentList } from '../intents/index.ts';
import {
  CreatePaymentLinkBody,
  ListLinkPaymentsQuery,
  ListPaymentLinksQuery,
  originOf,
  PaymentLink,
  PaymentLinkList,
  UpdatePaymentLinkBody,
} from '../paymentlinks/index.ts';
import { ModeIdParams, ModeParams } from './dashboard.schema.ts';
import type { DashboardSession } from './dashboard.service.ts';

const tags = ['dashboard (internal)'];
const session = { auth: 'none' as const, csp: 'api' as const };
type ScopeOf = (req: { params: { mode: 'test' | 'live' }; dashboardSession: DashboardSession }) => Caller;

/**
 * The dashboard's payment links (issue 22), as the API's `/payment-links` in the mode of the
 * path: reading needs `payments:read`, creating and (de)activating `payments:write`.
 */
export function dashboardLinkRoutes(instance: FastifyInstance, scope: ScopeOf) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const links = app.services.paymentLinks;

  app.get(
    '/:mode/payment-links',
    {
      config: { ...session, permission: 'payments:read' },
      schema: {
        tags,
        summary: 'Payment links, newest first (as GET /payment-links)',
        params: ModeParams,
        querystring: ListPaymentLinksQuery,
        response: { 200: PaymentLinkList },
      },
    },
    async (req) => links.list(scope(req), req.query, originOf(req)),
  );

  app.post(
    '/:mode/payment-links',
    {
      config: { ...session, permission: 'payments:write' },
      schema: {
        tags,
        summary: 'Create a payment link (as POST /payment-links)',
        params: ModeParams,
        body: CreatePaymentLinkBody,
        response: { 201: PaymentLink },
      },
    },
    async (req, reply) => reply.code(201).send(await links.create(scope(req), req.body, originOf(req))),
  );

  app.get(
    '/:mode/payment-links/:id',
    {
      config: { ...session, permission: 'payments:read' },
      schema: {
        tags,
        summary: 'A payment link with the first page of its payments',
        params: ModeIdParams,
        response: { 200: Type.Object({ link: PaymentLink, payments: IntentList }) },
      },
    },
    async (req) => ({
      link: await links.retrieve(scope(req), req.params.id, originOf(req)),
      payments: await links.listPayments(scope(req), req.params.id, {}),
    }),
  );

  app.get(
    '/:mode/payment-links/:id/payments',
    {
      config: { ...session, permission: 'payments:read' },
      schema: {
        tags,
        summary: "A payment link's payments, newest first",
        params: ModeIdParams,
        querystring: ListLinkPaymentsQuery,
        response: { 200: IntentList },
      },
    },
    async (req) => links.listPayments(scope(req), req.params.id, req.query),
  );

  app.post(
    '/:mode/payment-links/:id',
    {
      config: { ...session, permission: 'payments:write' },
      schema: { tags, summary: 'Deactivate or reactivate a payment link', params: ModeIdParams, body: UpdatePaymentLinkBody, response: { 200: PaymentLink } },
    },
    async (req) => links.update(scope(req), req.params.id, req.body, originOf(req)),
  );
}
