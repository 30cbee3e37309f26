import { type Static, Type } from 'typebox';
import { EVENT_TYPES } from '../events/index.ts';

/** Schemas of `GET /listen/stream` (the event stream behind `caisse listen`). */

export const StreamQuery = Type.Object(
  {
    events: Type.Optional(
      Type.String({
        maxLength: 500,
        description: `Comma-separated event types to receive (${EVENT_TYPES.join(', ')}); absent or \`*\`: every type.`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type StreamQuery = Static<typeof StreamQuery>;

export const StreamHeaders = Type.Object({
  accept: Type.Optional(Type.String({ description: 'Must accept `text/event-stream` (EventSource sends it).' })),
  'last-event-id': Type.Optional(
    Type.String({ maxLength: 64, description: 'Resume after this position: the `id` of the last message received (an event id, or the `ready` cursor).' }),
  ),
});

/** The `data` of the first message of every stream (`event: ready`). */
export const ReadyMessage = Type.Object({
  object: Type.Literal('listen_session'),
  merchantId: Type.String(),
  livemode: Type.Literal(false),
  events: Type.Array(Type.String(), { description: 'Event types streamed; empty: all.' }),
  cursor: Type.String({ description: 'This position, also the message `id`.' }),
  resumedAfter: Type.Union([Type.String(), Type.Null()]),
});
export type ReadyMessage = Static<typeof ReadyMessage>;
