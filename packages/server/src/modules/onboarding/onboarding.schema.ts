import { Type } from 'typebox';
import { CountrySchema } from '../../platform/countries.schema.ts';

/** Schemas of sign-up (dashboard, public), the business profile (dashboard) and its review (operator console). */

const Timestamp = Type.String({ format: 'date-time' });
const Country = Type.Union(CountrySchema.anyOf, { description: 'Where the business sells' });
const State = Type.Union([Type.Literal('not_submitted'), Type.Literal('submitted'), Type.Literal('approved'), Type.Literal('rejected')]);
const Field = (description: string) => Type.String({ maxLength: 300, description });

export const SignUpBody = Type.Object(
  {
    businessName: Type.String({ minLength: 1, maxLength: 200 }),
    country: Country,
    email: Type.String({ minLength: 3, maxLength: 254, format: 'email' }),
    password: Type.String({ minLength: 1, maxLength: 1024, description: '8 characters at least, not a common one' }),
    language: Type.Optional(
      Type.Union([Type.Literal('fr'), Type.Literal('en')], { description: "The merchant's language; default: the browser's, else French" }),
    ),
  },
  { additionalProperties: false },
);

export const SignUpRequested = Type.Object({
  object: Type.Literal('sign_up_request'),
  expiresInSeconds: Type.Integer({ description: 'How long the link works' }),
  delivery: Type.Union([Type.Literal('email'), Type.Literal('operator_outbox')], {
    description:
      'Where the e-mail went: `email` (the SMTP server), or `operator_outbox` when none is configured (development): the operator console and `npx caisse messages list` show it, never the merchant',
  }),
});

export const VerifyEmailBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
export const ResendVerificationBody = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254, format: 'email' }) }, { additionalProperties: false });
export const VerificationResent = Type.Object({ object: Type.Literal('email_verification_request'), expiresInSeconds: Type.Integer() });
export const EmailVerified = Type.Object({ object: Type.Literal('email_verification'), email: Type.String(), verified: Type.Literal(true) });

const DetailsFields = {
  legalName: Field('The legal name, as registered'),
  tradeName: Field('The name customers know (optional)'),
  registrationNumber: Field('The trade register number (RCCM)'),
  taxNumber: Field('The tax number: NIU in Cameroon, NINEA in Senegal, NCC in Côte d’Ivoire, IFU in Benin and Burkina Faso, NIF in Mali and Togo'),
  address: Field('The business address'),
  activity: Field('What the business sells'),
  website: Field('Its website or social page'),
  ownerName: Field("The owner's full name, as on the identity document"),
};

export const ProfileDetailsBody = Type.Object(
  {
    legalName: Type.Optional(DetailsFields.legalName),
    tradeName: Type.Optional(DetailsFields.tradeName),
    registrationNumber: Type.Optional(DetailsFields.registrationNumber),
    taxNumber: Type.Optional(DetailsFields.taxNumber),
    address: Type.Optional(DetailsFields.address),
    activity: Type.Optional(DetailsFields.activity),
    website: Type.Optional(DetailsFields.website),
    ownerName: Type.Optional(DetailsFields.ownerName),
  },
  { additionalProperties: false },
);

export const BusinessProfile = Type.Object({
  object: Type.Literal('business_profile'),
  merchantId: Type.String(),
  merchantName: Type.String(),
  country: Type.String(),
  taxNumberName: Type.String({ description: 'The tax number’s local name: NIU, NINEA, NCC, IFU or NIF' }),
  state: State,
  liveApproved: Type.Boolean({ description: 'Live keys and live calls work' }),
  emailVerified: Type.Boolean(),
  emailVerifiedVia: Type.Union([Type.Literal('smtp'), Type.Literal('outbox'), Type.Null()], {
    description:
      'How the verification link reached the owner: `smtp` (a real mailbox), or `outbox` (the development outbox, which an operator reads: it proves nothing of the address). Null: not verified, made by the CLI, or verified before Caisse recorded it',
  }),
  details: Type.Object(DetailsFields),
  shortName: Type.Object(
    {
      name: Type.String({ description: 'The name sent to providers that show one to the payer (the phone prompt, the payment page)' }),
      custom: Type.Boolean({ description: 'The merchant chose it; false: the default' }),
      default: Type.String({ description: 'The name without a choice: from the trade name, else the merchant’s name, else "Caisse"' }),
    },
    { description: 'The payer-facing short name: 4 to 22 ASCII letters, digits and spaces' },
  ),
  document: Type.Union([Type.Object({ contentType: Type.String(), size: Type.Integer(), uploadedAt: Timestamp }), Type.Null()]),
  rejectionReason: Type.Union([Type.String(), Type.Null()]),
  submittedAt: Type.Union([Timestamp, Type.Null()]),
  reviewedAt: Type.Union([Timestamp, Type.Null()]),
});

export const ShortNameBody = Type.Object(
  {
    shortName: Type.Union([Type.String({ maxLength: 200 }), Type.Null()], {
      description: '4 to 22 ASCII letters, digits and spaces (400 `short_name_invalid` otherwise); null: back to the default',
    }),
  },
  { additionalProperties: false },
);

export const SubmittedProfileList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      merchantId: Type.String(),
      merchantName: Type.String(),
      country: Type.String(),
      legalName: Type.String(),
      submittedAt: Type.Union([Timestamp, Type.Null()]),
    }),
  ),
});

export const ApproveBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false });
export const RejectBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, description: 'Told to the merchant and kept in the audit log' }) },
  { additionalProperties: false },
);
