import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  CreateEndpointBody,
  DeletedEndpoint,
  DeliveriesQuery,
  DeliveryList,
  Endpoint,
  EndpointIdParams,
  EndpointList,
  EndpointSecret,
  EndpointWithSecret,
  Event,
  EventIdParams,
  EventList,
  EventsQuery,
  ListQuery,
  ResendBody,
  ResendResult,
  RollSecretBody,
  UpdateEndpointBody,
} from './webhooks.schema.ts';

const sk = { auth: 'sk' as const };
const endpointsTag = ['webhook endpoints'];
const eventsTag = ['events'];
const security = [{ apiKey: [], secretKey: [] }];

/** POSTs whose body is optional: no body at all reads as `{}`. */
const optionalBody = async (req: { body: unknown }) => {
  req.body ??= {};
};

/** Webhook endpoints and events (docs/spec/endpoints.md, docs/spec/webhooks.md). Secret-key routes, scoped to the key's merchant and mode. */
export default async function webhooksRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const svc = () => app.services.webhooks;
  const owner = (req: { merchant: { merchantId: string; mode: 'test' | 'live' } }) => ({ merchantId: req.merchant.merchantId, mode: req.merchant.mode });

  app.post(
    '/webhook-endpoints',
    {
      config: { ...sk, access: 'webhooks:write' },
      schema: {
        tags: endpointsTag,
        security,
        summary: 'Create a webhook endpoint',
        description:
          'The answer carries the signing secret `whsec_…` in full (also readable later with `GET /webhook-endpoints/{id}/secret`). ' +
          'At most 16 endpoints per merchant and mode (422 `limit_exceeded`). A URL that does not parse, carries credentials, ' +
          'is not https in live mode, or resolves to a private, link-local or (in live mode, or unless the server allows it) loopback address: 400 `url_invalid`. ' +
          'A host name that does not resolve yet is accepted: every delivery resolves and checks it again before connecting.',
        body: CreateEndpointBody,
        response: { 201: EndpointWithSecret },
      },
    },
    async (req, reply) => reply.code(201).send(await svc().createEndpoint(owner(req), req.body)),
  );

  app.get(
    '/webhook-endpoints',
    {
      config: { ...sk, access: 'webhooks:read' },
      schema: { tags: endpointsTag, security, summary: 'List webhook endpoints, newest first', querystring: ListQuery, response: { 200: EndpointList } },
    },
    async (req) => svc().listEndpoints(owner(req), { limit: req.query.limit ?? 20, startingAfter: req.query.startingAfter }),
  );

  app.get(
    '/webhook-endpoints/:id',
    {
      config: { ...sk, access: 'webhooks:read' },
      schema: { tags: endpointsTag, security, summary: 'Retrieve a webhook endpoint', params: EndpointIdParams, response: { 200: Endpoint } },
    },
    async (req) => svc().getEndpoint(owner(req), req.params.id),
  );

  app.patch(
    '/webhook-endpoints/:id',
    {
      config: { ...sk, access: 'webhooks:write' },
      schema: {
        tags: endpointsTag,
        security,
        summary: 'Update a webhook endpoint (URL, event types, description, enabled)',
        description: 'Disabling parks its pending deliveries; enabling it again resumes them (those past their 3-day window get one last try).',
        params: EndpointIdParams,
        body: UpdateEndpointBody,
        response: { 200: Endpoint },
      },
    },
    async (req) => svc().updateEndpoint(owner(req), req.params.id, req.body),
  );

  app.delete(
    '/webhook-endpoints/:id',
    {
      config: { ...sk, access: 'webhooks:write' },
      schema: {
        tags: endpointsTag,
        security,
        summary: 'Delete a webhook endpoint and its pending deliveries',
        params: EndpointIdParams,
        response: { 200: DeletedEndpoint },
      },
    },
    async (req) => svc().deleteEndpoint(owner(req), req.params.id),
  );

  app.get(
    '/webhook-endpoints/:id/secret',
    {
      config: { ...sk, access: 'webhooks:write' },
      schema: {
        tags: endpointsTag,
        security,
        summary: 'Reveal the signing secret',
        description: 'The current secret, and any rolled secret still signing beside it until its `expiresAt`.',
        params: EndpointIdParams,
        response: { 200: EndpointSecret },
      },
    },
    async (req) => svc().revealSecret(owner(req), req.params.id),
  );

  app.post(
    '/webhook-endpoints/:id/roll-secret',
    {
      config: { ...sk, access: 'webhooks:write' },
      preValidation: optionalBody,
      schema: {
        tags: endpointsTag,
        security,
        summary: 'Roll the signing secret',
        description:
          'Issues a new secret, returned in full. The previous one keeps signing beside it (one more `v1=` in `pay-signature`, ' +
          'one more `v1,` in `webhook-signature`) for `expiresIn` seconds, 24 h by default.',
        params: EndpointIdParams,
        body: RollSecretBody,
        response: { 200: EndpointWithSecret },
      },
    },
    async (req) => svc().rollSecret(owner(req), req.params.id, req.body.expiresIn),
  );

  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      config: { ...sk, access: 'webhooks:read' },
      schema: {
        tags: endpointsTag,
        security,
        summary: "An endpoint's deliveries with every attempt, newest first",
        params: EndpointIdParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList },
      },
    },
    async (req) =>
      svc().listDeliveries(owner(req), req.params.id, { limit: req.query.limit ?? 20, startingAfter: req.query.startingAfter, eventId: req.query.eventId }),
  );

  app.get(
    '/events',
    {
      config: { ...sk, access: 'events:read' },
      schema: { tags: eventsTag, security, summary: 'List events, newest first', querystring: EventsQuery, response: { 200: EventList } },
    },
    async (req) => svc().listEvents(owner(req), { limit: req.query.limit ?? 20, startingAfter: req.query.startingAfter, type: req.query.type }),
  );

  app.get(
    '/events/:id',
    {
      config: { ...sk, access: 'events:read' },
      schema: { tags: eventsTag, security, summary: 'Retrieve an event, as delivered', params: EventIdParams, response: { 200: Event } },
    },
    async (req) => svc().getEvent(owner(req), req.params.id),
  );

  app.post(
    '/events/:id/resend',
    {
      config: { ...sk, access: 'webhooks:write' },
      preValidation: optionalBody,
      schema: {
        tags: eventsTag,
        security,
        summary: 'Deliver an event again',
        description:
          'Creates new deliveries, due at once: to `endpointId` (409 `endpoint_disabled` if it is disabled), or to every enabled endpoint that wants the event type.',
        params: EventIdParams,
        body: ResendBody,
        response: { 200: ResendResult },
      },
    },
    async (req) => svc().resendEvent(owner(req), req.params.id, req.body.endpointId),
  );
}
