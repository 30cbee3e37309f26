import { Type } from 'typebox';

export const Message = Type.Object({
  id: Type.String({ description: '`msg_…`' }),
  object: Type.Literal('message'),
  userId: Type.Union([Type.String(), Type.Null()]),
  channel: Type.Union([Type.Literal('sms'), Type.Literal('email')]),
  to: Type.String({ description: 'Phone number (sms) or e-mail address' }),
  body: Type.Union([Type.String(), Type.Null()], { description: 'The text, holding the code' }),
  provider: Type.String(),
  status: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const MessageList = Type.Object({ data: Type.Array(Message), hasMore: Type.Boolean() });

export const ListMessagesQuery = Type.Object(
  {
    userId: Type.Optional(Type.String({ maxLength: 64 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Type.String({ maxLength: 64, description: 'A message id: the page starts after it' })),
  },
  { additionalProperties: false },
);

export const OperatorMessagesQuery = Type.Object(
  {
    to: Type.Optional(Type.String({ maxLength: 254, description: 'Only the messages to this e-mail address or phone number' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Type.String({ maxLength: 64, description: 'A message id: the page starts after it' })),
  },
  { additionalProperties: false },
);
