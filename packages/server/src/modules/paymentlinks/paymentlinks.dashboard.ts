import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { callerOf, dashboardTags as tags, ModeIdParams, ModeParams, sessionRoute } from '../../platform/http/dashboard-api.ts';
import { IntentList } from '../intents/index.ts';
import { originOf } from './paymentlinks.routes.ts';
import {
  CreatePaymentLinkBody,
  ListLinkPaymentsQuery,
  ListPaymentLinksQuery,
  PaymentLink,
  PaymentLinkList,
  UpdatePaymentLinkBody,
} from './paymentlinks.schema.ts';

/**
 * The dashboard's payment links (issue 22), as the API's `/payment-links` in the mode of the
 * path: reading needs `payments:read`, creating and (de)activating `payments:write`.
 */
export function paymentLinksDashboardRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const links = app.services.paymentLinks;

  app.get(
    '/:mode/payment-links',
    {
      config: sessionRoute('payments:read'),
      schema: {
        tags,
        summary: 'Payment links, newest first (as GET /payment-links)',
        params: ModeParams,
        querystring: ListPaymentLinksQuery,
        response: { 200: PaymentLinkList },
      },
    },
    async (req) => links.list(callerOf(req), req.query, originOf(req)),
  );

  app.post(
    '/:mode/payment-links',
    {
      config: sessionRoute('payments:write'),
      schema: {
        tags,
        summary: 'Create a payment link (as POST /payment-links)',
        params: ModeParams,
        body: CreatePaymentLinkBody,
        response: { 201: PaymentLink },
      },
    },
    async (req, reply) => reply.code(201).send(await links.create(callerOf(req), req.body, originOf(req))),
  );

  app.get(
    '/:mode/payment-links/:id',
    {
      config: sessionRoute('payments:read'),
      schema: {
        tags,
        summary: 'A payment link with the first page of its payments',
        params: ModeIdParams,
        response: { 200: Type.Object({ link: PaymentLink, payments: IntentList }) },
      },
    },
    async (req) => ({
      link: await links.retrieve(callerOf(req), req.params.id, originOf(req)),
      payments: await links.listPayments(callerOf(req), req.params.id, {}),
    }),
  );

  app.get(
    '/:mode/payment-links/:id/payments',
    {
      config: sessionRoute('payments:read'),
      schema: {
        tags,
        summary: "A payment link's payments, newest first",
        params: ModeIdParams,
        querystring: ListLinkPaymentsQuery,
        response: { 200: IntentList },
      },
    },
    async (req) => links.listPayments(callerOf(req), req.params.id, req.query),
  );

  app.post(
    '/:mode/payment-links/:id',
    {
      config: sessionRoute('payments:write'),
      schema: { tags, summary: 'Deactivate or reactivate a payment link', params: ModeIdParams, body: UpdatePaymentLinkBody, response: { 200: PaymentLink } },
    },
    async (req) => links.update(callerOf(req), req.params.id, req.body, originOf(req)),
  );
}
