import { type Static, Type } from 'typebox';
import { CreateIntentBody, MAX_DESCRIPTION_LENGTH, MAX_METADATA_KEYS, Metadata } from '../intents/index.ts';

/** The metadata key every intent a link creates carries: the link's id. */
export const LINK_METADATA_KEY = 'payment_link';
/** A link's own metadata leaves room on its intents for `payment_link`. */
export const MAX_LINK_METADATA_KEYS = MAX_METADATA_KEYS - 1;

const LinkId = Type.String({ pattern: '^plink_[0-9a-z]{26}$', description: 'plink_…' });
const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339, UTC, with milliseconds' });

const metadataField = Type.Unsafe<Static<typeof Metadata>>({
  ...Metadata,
  maxProperties: MAX_LINK_METADATA_KEYS,
  description: `Copied onto every intent the link creates, with \`${LINK_METADATA_KEY}\` (the link's id) added: up to ${MAX_LINK_METADATA_KEYS} keys (\`${LINK_METADATA_KEY}\` is reserved), otherwise as an intent's metadata.`,
});

export const CreatePaymentLinkBody = Type.Object(
  {
    // The intents' own rules: the same amount and currency checks, the same error codes.
    amount: CreateIntentBody.properties.amount,
    currency: CreateIntentBody.properties.currency,
    description: Type.String({
      minLength: 1,
      maxLength: MAX_DESCRIPTION_LENGTH,
      description: `What the customer pays for, shown on the checkout page: 1–${MAX_DESCRIPTION_LENGTH} characters.`,
    }),
    metadata: Type.Optional(metadataField),
    active: Type.Optional(Type.Boolean({ description: 'Whether visits create payments (default true).' })),
  },
  { additionalProperties: false },
);
export type CreatePaymentLinkBody = Static<typeof CreatePaymentLinkBody>;

export const UpdatePaymentLinkBody = Type.Object(
  { active: Type.Boolean({ description: 'false: visits answer a page saying the link is unavailable (410); true: open again.' }) },
  { additionalProperties: false },
);
export type UpdatePaymentLinkBody = Static<typeof UpdatePaymentLinkBody>;

export const PaymentLink = Type.Object({
  id: LinkId,
  object: Type.Literal('payment_link'),
  url: Type.String({ description: 'The shareable address: each visit creates a payment intent and opens its hosted checkout page.' }),
  amount: CreateIntentBody.properties.amount,
  currency: CreateIntentBody.properties.currency,
  description: Type.String(),
  metadata: Metadata,
  active: Type.Boolean(),
  livemode: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type PaymentLink = Static<typeof PaymentLink>;

export const PaymentLinkList = Type.Object({ object: Type.Literal('list'), data: Type.Array(PaymentLink), hasMore: Type.Boolean() });
export type PaymentLinkList = Static<typeof PaymentLinkList>;

const limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1–100 (default 20).' }));

export const ListPaymentLinksQuery = Type.Object(
  {
    limit,
    startingAfter: Type.Optional(
      Type.String({ pattern: '^plink_[0-9a-z]{26}$', description: 'The last id of the previous page: the next page starts after it.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListPaymentLinksQuery = Static<typeof ListPaymentLinksQuery>;

export const ListLinkPaymentsQuery = Type.Object(
  {
    limit,
    startingAfter: Type.Optional(Type.String({ pattern: '^pi_[0-9a-z]{26}$', description: 'The last intent id of the previous page.' })),
  },
  { additionalProperties: false },
);
export type ListLinkPaymentsQuery = Static<typeof ListLinkPaymentsQuery>;

export const PaymentLinkIdParams = Type.Object({ id: Type.String({ description: 'plink_…' }) });
export const VisitParams = Type.Object({ linkId: Type.String({ maxLength: 200, description: 'plink_…' }) });
