import { type Static, Type } from 'typebox';
import { EVENT_TYPES, EventTypeSchema as EventType } from '../events/index.ts';
import { PaymentEvent } from '../intents/index.ts';
import { PayoutEvent } from '../payouts/index.ts';

/** Schemas of the webhook endpoints and events API (docs/spec/endpoints.md, docs/spec/webhooks.md). */

/** Webhook endpoints a merchant may have per mode (so: deliveries per event, at most). */
export const MAX_ENDPOINTS = 16;
const EnabledEvent = Type.Union([...EVENT_TYPES.map((t) => Type.Literal(t)), Type.Literal('*')], {
  description: 'An event type, or `*` for every type',
});
const EnabledEvents = Type.Array(EnabledEvent, {
  maxItems: 32,
  description: 'Event types the endpoint receives. Absent, empty or `["*"]`: every type.',
});
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  'x-code': 'url_invalid',
  description: 'Where events are POSTed. Live mode: https, resolving only to public addresses. Test mode: http or https; loopback when the server allows it.',
});
const Description = Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]);

export const Limit = Type.Integer({ minimum: 1, maximum: 100, default: 20 });

export const EndpointIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const EventIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const CreateEndpointBody = Type.Object(
  {
    url: Url,
    description: Type.Optional(Description),
    enabledEvents: Type.Optional(EnabledEvents),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateEndpointInput = Static<typeof CreateEndpointBody>;

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(Description),
    enabledEvents: Type.Optional(EnabledEvents),
    enabled: Type.Optional(Type.Boolean({ description: 'false disables the endpoint; true enables it again and resumes its pending deliveries' })),
  },
  { additionalProperties: false },
);
export type UpdateEndpointInput = Static<typeof UpdateEndpointBody>;

export const RollSecretBody = Type.Object(
  {
    expiresIn: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 7 * 24 * 3600,
        default: 24 * 3600,
        description: 'Seconds the previous secret keeps signing beside the new one (default 24 h; 0 stops it at once)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ListQuery = Type.Object(
  { limit: Type.Optional(Limit), startingAfter: Type.Optional(Type.String({ maxLength: 64 })) },
  { additionalProperties: false },
);
export const EventsQuery = Type.Object(
  { limit: Type.Optional(Limit), startingAfter: Type.Optional(Type.String({ maxLength: 64 })), type: Type.Optional(EventType) },
  { additionalProperties: false },
);
export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Limit),
    startingAfter: Type.Optional(Type.String({ maxLength: 64 })),
    eventId: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const ResendBody = Type.Object(
  {
    endpointId: Type.Optional(
      Type.String({ maxLength: 64, description: 'Only this endpoint (it must be enabled); default: every enabled endpoint that wants the type' }),
    ),
  },
  { additionalProperties: false },
);

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const Endpoint = Type.Object({
  id: Type.String(),
  object: Type.Literal('webhook_endpoint'),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  enabledEvents: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabledReason: Type.Union([Type.Literal('manual'), Type.Literal('gone'), Type.Literal('failing'), Type.Null()], {
    description: '`manual` (PATCH), `gone` (the receiver answered 410), `failing` (all deliveries failed for 5 days)',
  }),
  livemode: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type EndpointView = Static<typeof Endpoint>;

export const EndpointStats = Type.Object({
  object: Type.Literal('webhook_endpoint_stats'),
  endpointId: Type.String(),
  since: Timestamp,
  until: Timestamp,
  attempted: Type.Integer({ description: 'Deliveries to the endpoint whose last attempt was in the window (the last 24 hours)' }),
  succeeded: Type.Integer({ description: 'Of those, the ones the endpoint acknowledged (2xx)' }),
  successRate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: 'succeeded / attempted; null when nothing was attempted' }),
  lastFailure: Type.Union(
    [
      Type.Object({
        at: Timestamp,
        error: Type.String({ description: 'The network error (`ECONNREFUSED`), or `HTTP 500` for an answer that was not 2xx' }),
        retrying: Type.Boolean({ description: 'The delivery will be attempted again' }),
      }),
      Type.Null(),
    ],
    { description: 'When the latest attempted delivery in the window failed: the endpoint is failing. Null otherwise.' },
  ),
});

export const EndpointWithSecret = Type.Object({
  ...Endpoint.properties,
  secret: Type.String({ description: 'The signing secret `whsec_…`' }),
});

export const EndpointSecret = Type.Object({
  object: Type.Literal('webhook_endpoint_secret'),
  endpointId: Type.String(),
  secret: Type.String({ description: 'The current signing secret' }),
  rollingSecrets: Type.Array(Type.Object({ secret: Type.String(), expiresAt: Timestamp }), {
    description: 'Previous secrets that still sign, beside the current one, until they expire',
  }),
});
export type EndpointSecretView = Static<typeof EndpointSecret>;

export const DeletedEndpoint = Type.Object({ id: Type.String(), object: Type.Literal('webhook_endpoint'), deleted: Type.Literal(true) });

export const EndpointList = Type.Object({ data: Type.Array(Endpoint), hasMore: Type.Boolean() });

export const Attempt = Type.Object({
  attemptedAt: Timestamp,
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  latencyMs: Type.Integer(),
  responseExcerpt: Type.Union([Type.String(), Type.Null()], {
    description: 'The first 2 KiB of the answer; null when there was none, and always for a loopback target (development), whose answers are never kept.',
  }),
  error: Type.Union([Type.String(), Type.Null()]),
  succeeded: Type.Boolean(),
});

export const Delivery = Type.Object({
  id: Type.String(),
  object: Type.Literal('webhook_delivery'),
  eventId: Type.String(),
  endpointId: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  attemptCount: Type.Integer(),
  nextAttemptAt: NullableTimestamp,
  lastAttemptAt: NullableTimestamp,
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  completedAt: NullableTimestamp,
  attempts: Type.Array(Attempt, { description: 'Every attempt, oldest first' }),
});
export type DeliveryView = Static<typeof Delivery>;

export const DeliveryList = Type.Object({ data: Type.Array(Delivery), hasMore: Type.Boolean() });
export const ResendResult = Type.Object({ data: Type.Array(Delivery) });

/** An event (docs/spec/webhooks.md), as delivered to endpoints and as GET /events answers it. */
export const Event = Type.Union([PaymentEvent, PayoutEvent], { description: 'A payment event (`data.paymentIntent`) or a payout event (`data.payout`)' });
export type EventBody = Static<typeof Event>;
export const EventList = Type.Object({ data: Type.Array(Event), hasMore: Type.Boolean() });

// ---- the dashboard's event page (issue 22) ----------------------------------------------------

/** Characters of the request body shown with each attempt: the payload is whole in `payload`. */
export const BODY_EXCERPT_CHARS = 2048;

export const AttemptDetail = Type.Object({
  ...Attempt.properties,
  requestHeaders: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], {
    description:
      'The headers the request went out with, signatures included; null when no request left (its address was refused) or for attempts made before they were kept.',
  }),
  requestBodyExcerpt: Type.Union([Type.String(), Type.Null()], {
    description: `The body sent (the event's payload), its first ${BODY_EXCERPT_CHARS} characters; null when no request left.`,
  }),
});

export const DeliveryDetail = Type.Object({
  ...Delivery.properties,
  endpoint: Type.Union([Type.Object({ id: Type.String(), url: Type.String(), description: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  attempts: Type.Array(AttemptDetail, { description: 'Every attempt, oldest first' }),
});
export type DeliveryDetailView = Static<typeof DeliveryDetail>;

export const EventDetail = Type.Object({
  object: Type.Literal('event_detail'),
  event: Event,
  payload: Type.String({ description: 'The envelope as sent and signed: the exact bytes of every request body' }),
  deliveries: Type.Array(DeliveryDetail, { description: 'Every delivery of the event, newest first (a resend adds one), each with its attempts' }),
});
