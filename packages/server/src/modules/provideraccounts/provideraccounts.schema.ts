import { Type } from 'typebox';

const Mode = Type.Union([Type.Literal('test'), Type.Literal('live')]);

export const LastCheckSchema = Type.Object({
  ok: Type.Boolean(),
  at: Type.String({ format: 'date-time' }),
  detail: Type.String({ description: 'What the provider answered, in its own words' }),
});

export const ProviderAccountSchema = Type.Object({
  object: Type.Literal('provider_account'),
  id: Type.String({ description: '`pac_…`; `pac_env_…` is the environment variables’ account, `pac_sandbox_…` test mode’s sandbox' }),
  connector: Type.String({ description: 'The connector’s registry name' }),
  mode: Mode,
  countries: Type.Array(Type.String()),
  settings: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), { description: 'Non-secret settings, by their camelCase names' }),
  credentials: Type.Record(Type.String(), Type.String(), {
    description: 'Each credential given, masked: `…` and at most its last four characters. Credentials are never shown.',
  }),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  capabilities: Type.Array(Type.String()),
  lastCheck: Type.Union([LastCheckSchema, Type.Null()]),
  createdAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  source: Type.Union([Type.Literal('operator'), Type.Literal('environment'), Type.Literal('sandbox')], {
    description: 'Added by an operator, or the platform’s (read-only): the environment variables, test mode’s sandbox',
  }),
  supersededBy: Type.Array(Type.Object({ country: Type.String(), account: Type.String() }), {
    description: 'Countries of this account where another is used: a newer active account, or a disabled one that refuses new requests',
  }),
  webhookPath: Type.Union([Type.String(), Type.Null()], {
    description:
      "Where the provider must send this account's webhooks, under this server's address, when that address is set in the provider's own dashboard (null: given with each request)",
  }),
  callbacks: Type.Array(
    Type.Object({
      purpose: Type.String({ description: 'What the address receives, in the provider’s words: deposits, payouts, refunds, notifications, webhooks' }),
      path: Type.Union([Type.String(), Type.Null()], { description: 'Under this server’s address; null when `url` is given' }),
      url: Type.Union([Type.String(), Type.Null()], {
        description: 'A whole address built from the account’s settings (a notify URL sent with each request), or null',
      }),
      setAtProvider: Type.Boolean({ description: 'True: set once in the provider’s dashboard; false: sent by Caisse with each request' }),
    }),
    {
      description: 'Every address the provider calls this account back at: one per operation type to set in its dashboard, or the base sent with each request',
    },
  ),
});

export const ProviderAccountList = Type.Object({ object: Type.Literal('list'), data: Type.Array(ProviderAccountSchema) });

export const AddProviderAccountBody = Type.Object(
  {
    connector: Type.String({ minLength: 1, maxLength: 40 }),
    mode: Mode,
    countries: Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$' }), { minItems: 1, maxItems: 20 }),
    // Long enough for pawaPay's pinned public keys (settings) and its API tokens, JWTs (credentials); each connector bounds its own.
    settings: Type.Optional(Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 2048 }))),
    credentials: Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 2048 }), {
      description: 'The connector’s credentials (a JSON object): stored encrypted, never shown again',
    }),
  },
  { additionalProperties: false },
);

export const ProviderAccountIdParams = Type.Object({ id: Type.String({ pattern: '^pac_[0-9a-z_]+$', maxLength: 80 }) });

export const ProviderAccountCheck = Type.Object({
  id: Type.String(),
  connector: Type.String(),
  mode: Mode,
  ok: Type.Boolean(),
  at: Type.String({ format: 'date-time' }),
  detail: Type.String(),
});
