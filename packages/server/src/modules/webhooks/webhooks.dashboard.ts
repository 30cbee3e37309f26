import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { callerOf, dashboardTags as tags, FilterInstant, instantOf, ModeIdParams, ModeParams, sessionRoute } from '../../platform/http/dashboard-api.ts';
import { scopeOf } from '../../platform/tenancy.ts';
import { EventTypeSchema } from '../events/index.ts';
import {
  CreateEndpointBody,
  DeletedEndpoint,
  DeliveriesQuery,
  DeliveryList,
  Endpoint,
  EndpointList,
  EndpointSecret,
  EndpointStats,
  EndpointWithSecret,
  EventDetail,
  EventList,
  ListQuery,
  ResendBody,
  ResendResult,
  RollSecretBody,
  UpdateEndpointBody,
} from './webhooks.schema.ts';

/** The Events page's list: paging, type, a creation period and the "failed deliveries" filter. */
export const EventsPageQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    startingAfter: Type.Optional(Type.String({ pattern: '^evt_[0-9a-z]{26}$' })),
    type: Type.Optional(EventTypeSchema),
    createdGte: Type.Optional(FilterInstant('Created at or after this instant')),
    createdLt: Type.Optional(FilterInstant('Created before this instant')),
    deliveryStatus: Type.Optional(
      Type.Literal('failed', { description: 'Only events with a delivery whose last attempt failed (retrying, or given up after about 3 days)' }),
    ),
  },
  { additionalProperties: false },
);
export type EventsPageQuery = Static<typeof EventsPageQuery>;

const EmptyBody = Type.Object({}, { additionalProperties: false });

/**
 * The dashboard's Webhooks and Events pages: the endpoints, their deliveries and the events as
 * sent, for the signed-in merchant in the mode of the path. Every change to an endpoint is
 * written to the audit log once done (the webhooks module has no transaction to share).
 */
export function webhooksDashboardRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const webhooks = app.services.webhooks;
  const { db } = app.deps;

  app.get(
    '/:mode/webhook-endpoints',
    {
      config: sessionRoute('webhooks:read'),
      schema: { tags, summary: 'Webhook endpoints', params: ModeParams, querystring: ListQuery, response: { 200: EndpointList } },
    },
    async (req) => webhooks.listEndpoints(callerOf(req), { limit: req.query.limit ?? 20, startingAfter: req.query.startingAfter }),
  );

  app.post(
    '/:mode/webhook-endpoints',
    {
      config: sessionRoute('webhooks:write'),
      schema: { tags, summary: 'Add a webhook endpoint', params: ModeParams, body: CreateEndpointBody, response: { 201: EndpointWithSecret } },
    },
    async (req, reply) => {
      const endpoint = await webhooks.createEndpoint(callerOf(req), req.body);
      await req.dashboardAudit.record(db, { mode: req.params.mode, action: 'webhook_endpoint.created', targetId: endpoint.id, details: { url: endpoint.url } });
      return reply.code(201).send(endpoint);
    },
  );

  app.get(
    '/:mode/webhook-endpoints/:id',
    { config: sessionRoute('webhooks:read'), schema: { tags, summary: 'A webhook endpoint', params: ModeIdParams, response: { 200: Endpoint } } },
    async (req) => webhooks.getEndpoint(callerOf(req), req.params.id),
  );

  app.patch(
    '/:mode/webhook-endpoints/:id',
    {
      config: sessionRoute('webhooks:write'),
      schema: { tags, summary: 'Change a webhook endpoint', params: ModeIdParams, body: UpdateEndpointBody, response: { 200: Endpoint } },
    },
    async (req) => {
      const endpoint = await webhooks.updateEndpoint(callerOf(req), req.params.id, req.body);
      await req.dashboardAudit.record(db, {
        mode: req.params.mode,
        action: 'webhook_endpoint.updated',
        targetId: req.params.id,
        details: { changed: Object.keys(req.body).sort() },
      });
      return endpoint;
    },
  );

  app.delete(
    '/:mode/webhook-endpoints/:id',
    {
      config: sessionRoute('webhooks:write'),
      schema: { tags, summary: 'Delete a webhook endpoint', params: ModeIdParams, response: { 200: DeletedEndpoint } },
    },
    async (req) => {
      const deleted = await webhooks.deleteEndpoint(callerOf(req), req.params.id);
      await req.dashboardAudit.record(db, { mode: req.params.mode, action: 'webhook_endpoint.deleted', targetId: req.params.id });
      return deleted;
    },
  );

  app.post(
    '/:mode/webhook-endpoints/:id/reveal-secret',
    {
      config: sessionRoute('webhooks:write'),
      schema: {
        tags,
        summary: 'Reveal the signing secret (a POST, so it needs the CSRF token)',
        params: ModeIdParams,
        body: EmptyBody,
        response: { 200: EndpointSecret },
      },
    },
    async (req) => {
      const secret = await webhooks.revealSecret(callerOf(req), req.params.id);
      await req.dashboardAudit.record(db, { mode: req.params.mode, action: 'webhook_endpoint.secret_revealed', targetId: req.params.id });
      return secret;
    },
  );

  app.post(
    '/:mode/webhook-endpoints/:id/roll-secret',
    {
      config: sessionRoute('webhooks:write'),
      schema: { tags, summary: 'Roll the signing secret', params: ModeIdParams, body: RollSecretBody, response: { 200: EndpointWithSecret } },
    },
    async (req) => {
      const { expiresIn } = req.body;
      const endpoint = await webhooks.rollSecret(callerOf(req), req.params.id, expiresIn);
      await req.dashboardAudit.record(db, {
        mode: req.params.mode,
        action: 'webhook_endpoint.secret_rolled',
        targetId: req.params.id,
        details: expiresIn === undefined ? {} : { expiresIn },
      });
      return endpoint;
    },
  );

  app.get(
    '/:mode/webhook-endpoints/:id/deliveries',
    {
      config: sessionRoute('webhooks:read'),
      schema: { tags, summary: 'Deliveries to an endpoint, newest first', params: ModeIdParams, querystring: DeliveriesQuery, response: { 200: DeliveryList } },
    },
    async (req) =>
      webhooks.listDeliveries(callerOf(req), req.params.id, {
        limit: req.query.limit ?? 20,
        startingAfter: req.query.startingAfter,
        eventId: req.query.eventId,
      }),
  );

  app.get(
    '/:mode/webhook-endpoints/:id/stats',
    {
      config: sessionRoute('webhooks:read'),
      schema: {
        tags,
        summary: "The endpoint's success rate over the last 24 hours (deliveries attempted, succeeded)",
        params: ModeIdParams,
        response: { 200: EndpointStats },
      },
    },
    async (req) => webhooks.endpointStats(callerOf(req), req.params.id),
  );

  app.get(
    '/:mode/events',
    {
      config: sessionRoute('events:read'),
      schema: {
        tags,
        summary: 'Events, newest first',
        description: 'Filtered by type, creation period and `deliveryStatus=failed` (a delivery whose last attempt failed), each on its own index.',
        params: ModeParams,
        querystring: EventsPageQuery,
        response: { 200: EventList },
      },
    },
    async (req) => {
      const createdGte = instantOf(req.query.createdGte, 'createdGte');
      const createdLt = instantOf(req.query.createdLt, 'createdLt');
      return webhooks.listEvents(scopeOf(callerOf(req)), { ...req.query, createdGte, createdLt });
    },
  );

  app.get(
    '/:mode/events/:id',
    {
      config: sessionRoute('events:read'),
      schema: {
        tags,
        summary: 'An event as sent, with its deliveries per endpoint and every attempt',
        description:
          "Each attempt has its request headers and body excerpt and the first 2 KiB of the answer (never kept for a loopback target). Another merchant's or mode's event is 404.",
        params: ModeIdParams,
        response: { 200: EventDetail },
      },
    },
    async (req) => webhooks.eventDetail(scopeOf(callerOf(req)), req.params.id),
  );

  app.post(
    '/:mode/events/:id/resend',
    {
      config: sessionRoute('webhooks:write'),
      schema: { tags, summary: 'Send an event again', params: ModeIdParams, body: ResendBody, response: { 200: ResendResult } },
    },
    async (req) => webhooks.resendEvent(callerOf(req), req.params.id, req.body.endpointId),
  );
}
