import { Type } from 'typebox';
import { CURRENCIES } from '../../platform/money.ts';
import { PASSWORD_MIN_LENGTH } from './users.policy.ts';
import { PHONE_AS_WRITTEN } from '../../platform/phone.ts';

const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339, UTC, with milliseconds' });

export const PhoneNumber = Type.String({
  maxLength: 32,
  'x-code': 'phone_invalid',
  description: PHONE_AS_WRITTEN,
  examples: ['+237650000000'],
});

const Password = Type.String({
  maxLength: 1024,
  description: `At least ${PASSWORD_MIN_LENGTH} characters; very common passwords and the phone number itself are refused (400 password_weak).`,
});
const Email = Type.String({ format: 'email', maxLength: 254, description: 'Optional e-mail address (for codes by e-mail).' });
const UserId = Type.String({ maxLength: 64, description: 'The user id (`usr_…`).' });
/** What a client may send: fr or en, or a tag of either (a browser's `fr-CM`). Stored as fr or en. */
const LANGUAGE_TAG_TEXT =
  'French or English: `fr`, `en`, or a BCP 47 tag of either (`fr-CM`, `en-GB`), saved as `fr` or `en`. Other languages are refused (400 `validation_error`).';
const languageTag = (description = LANGUAGE_TAG_TEXT) =>
  Type.String({ maxLength: 35, pattern: '^([Ff][Rr]|[Ee][Nn])([-_][A-Za-z0-9]{1,8})*$', description, examples: ['fr', 'en', 'fr-CM'] });
const SavedLanguage = Type.Union([Type.Literal('fr'), Type.Literal('en'), Type.Null()], {
  description:
    "The language of the customer's SMS and e-mail; null: none chosen, so the request's `Accept-Language`, then the merchant's default, then French decide.",
});

export const RegisterBody = Type.Object(
  {
    phoneNumber: PhoneNumber,
    password: Password,
    email: Type.Optional(Email),
    language: Type.Optional(
      languageTag(`${LANGUAGE_TAG_TEXT} Without it, the first French or English tag of the request's \`Accept-Language\` is saved, if any.`),
    ),
  },
  { additionalProperties: false },
);

export const VerifyPhoneBody = Type.Object(
  {
    userId: Type.Optional(UserId),
    phoneNumber: Type.Optional(PhoneNumber),
    code: Type.Optional(Type.String({ maxLength: 16, description: 'The 6-digit code received by SMS.' })),
    otp: Type.Optional(Type.String({ maxLength: 16, description: 'Same as `code` (the name verifyOtp uses); send one of them.' })),
  },
  { additionalProperties: false },
);

export const ResendVerificationBody = Type.Object({ userId: Type.Optional(UserId), phoneNumber: Type.Optional(PhoneNumber) }, { additionalProperties: false });

export const LoginBody = Type.Object({ phoneNumber: PhoneNumber, password: Type.String({ maxLength: 1024 }) }, { additionalProperties: false });

export const User = Type.Object({
  id: Type.String({ description: '`usr_…`' }),
  object: Type.Literal('user'),
  phoneNumber: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  phoneVerified: Type.Boolean(),
  language: SavedLanguage,
  livemode: Type.Boolean(),
  createdAt: Timestamp,
});

export const Balance = Type.Object({
  currency: Type.String({ description: 'ISO 4217 code' }),
  amount: Type.String({ description: 'Decimal string in major units ("5000" XAF, "12.50" EUR)' }),
});

export const TestUser = Type.Object({ ...User.properties, balances: Type.Array(Balance) });

/**
 * What the publishable-key routes about a phone number answer, whether the number has an account
 * or not: no customer data (docs/spec/customers.md). What differs goes by SMS to the number itself.
 */
export const PhoneVerification = Type.Object({
  object: Type.Literal('phone_verification'),
  phoneNumber: Type.Union([Type.String(), Type.Null()], {
    description: 'The number, as sent; null when the request named a `userId` (an id never gives away a number)',
  }),
  channel: Type.Literal('sms'),
  expiresAt: Type.String({ format: 'date-time', description: 'When a code sent now would expire' }),
});

export const PasswordResetSent = Type.Object({
  object: Type.Literal('password_reset'),
  phoneNumber: Type.String({ description: 'The number, as sent' }),
  channel: Type.Literal('sms'),
  expiresAt: Type.String({ format: 'date-time', description: 'When a code sent now would expire' }),
});

export const PasswordResetBody = Type.Object({ phoneNumber: PhoneNumber }, { additionalProperties: false });

export const PasswordResetConfirmBody = Type.Object(
  {
    phoneNumber: PhoneNumber,
    code: Type.String({ maxLength: 16, description: 'The 6-digit code received by SMS.' }),
    newPassword: Password,
  },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object({ currentPassword: Type.String({ maxLength: 1024 }), newPassword: Password }, { additionalProperties: false });

export const UserIdParams = Type.Object({ id: Type.String({ maxLength: 64, description: '`usr_…`' }) });

export const ListUsersQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Type.String({ maxLength: 64, description: 'The id of the last customer of the previous page' })),
  },
  { additionalProperties: false },
);

export const UserList = Type.Object({ object: Type.Literal('list'), data: Type.Array(User), hasMore: Type.Boolean() });

export const AuthResponse = Type.Object({
  id: Type.String({ description: 'The user id' }),
  token: Type.String({ description: 'Access token: a JWT signed EdDSA (Ed25519), valid 15 minutes. Send it as `Authorization: Bearer <token>`.' }),
  phoneNumber: Type.String(),
  roles: Type.Array(Type.String(), { description: 'Always contains USER' }),
  expiresAt: Timestamp,
  language: Type.Union([Type.Literal('fr'), Type.Literal('en'), Type.Null()], {
    description: "The customer's saved language: a checkout shows its texts in it from sign-in on. Null: none saved.",
  }),
});

export const UpdateMeBody = Type.Object({ language: languageTag() }, { additionalProperties: false });

export const Jwks = Type.Object({
  keys: Type.Array(
    Type.Object(
      { kty: Type.String(), crv: Type.String(), x: Type.String(), kid: Type.String(), alg: Type.String(), use: Type.String() },
      { additionalProperties: false },
    ),
  ),
});

export const CreateTestUserBody = Type.Object(
  {
    phoneNumber: PhoneNumber,
    password: Type.String({ maxLength: 1024, description: 'Any non-empty password: test users skip the strength rules.' }),
    email: Type.Optional(Email),
    language: Type.Optional(languageTag()),
    balance: Type.Optional(Type.String({ 'x-code': 'amount_invalid', description: 'Opening wallet balance in major units ("0" or omitted: empty wallet).' })),
    currency: Type.Optional(Type.String({ description: `Currency of the balance: ${Object.keys(CURRENCIES).join(', ')} (default XAF).` })),
  },
  { additionalProperties: false },
);
