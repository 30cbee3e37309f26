import { type TOptional, Type } from 'typebox';
import { API_RESOURCES, type ApiResource } from '../../platform/tenancy.ts';

/** Schemas of the dashboard's API keys and team pages (/dashboard/api), used by the dashboard web app only. */

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const Language = Type.Union([Type.Literal('fr'), Type.Literal('en')]);

const KeyKindSchema = Type.Union([Type.Literal('publishable'), Type.Literal('secret'), Type.Literal('restricted')], {
  description: 'publishable (pk_…, for browsers), secret (sk_…, for your server: everything) or restricted (rk_…, for your server: only its permissions)',
});
const Access = Type.Union([Type.Literal('none'), Type.Literal('read'), Type.Literal('write')], { description: 'write includes read' });
/** A restricted key's permissions: one access per API resource (a resource not named: none). */
export const KeyPermissions = Type.Object(
  Object.fromEntries(API_RESOURCES.map((r) => [r, Type.Optional(Access)])) as Record<ApiResource, TOptional<typeof Access>>,
  { additionalProperties: false, description: 'Access per API resource: none, read or write' },
);
const TotpCode = Type.String({
  minLength: 1,
  maxLength: 20,
  description:
    "A fresh code of the member's authenticator app: required for live secret and restricted keys (403 `totp_code_required` without it; a code already used is 401 `totp_code_reused`)",
});

export const ApiKey = Type.Object({
  id: Type.String(),
  object: Type.Literal('api_key'),
  kind: KeyKindSchema,
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  name: Type.String(),
  display: Type.String({ description: 'The start and the end of the key, to recognise it' }),
  createdAt: Timestamp,
  lastUsedAt: NullableTimestamp,
  expiresAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
  allowedOrigins: Type.Array(Type.String()),
  permissions: Type.Union([KeyPermissions, Type.Null()], {
    description: "A restricted key's permissions; null for publishable and secret keys (a secret key may do everything)",
  }),
});
export const CreatedApiKey = Type.Object({ ...ApiKey.properties, secret: Type.String({ description: 'The whole key: shown this once, never stored' }) });
export const ApiKeyList = Type.Object({ data: Type.Array(ApiKey), hasMore: Type.Boolean() });
export const RolledApiKey = Type.Object({ old: ApiKey, new: CreatedApiKey });

const Origins = Type.Array(Type.String({ maxLength: 300 }), { maxItems: 50, description: 'Browser origins allowed to use an API key (none: any)' });

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    kind: KeyKindSchema,
    allowedOrigins: Type.Optional(Origins),
    permissions: Type.Optional(KeyPermissions),
    code: Type.Optional(TotpCode),
  },
  { additionalProperties: false },
);

export const RollKeyBody = Type.Object(
  {
    graceSeconds: Type.Integer({ minimum: 0, maximum: 7 * 24 * 3600, description: 'How long the old key keeps working (0: stops now; at most 7 days)' }),
    code: Type.Optional(TotpCode),
  },
  { additionalProperties: false },
);

export const OriginsBody = Type.Object({ allowedOrigins: Origins }, { additionalProperties: false });

export const EmptyBody = Type.Object({}, { additionalProperties: false });

// ---- team ---------------------------------------------------------------------------------------

const RoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('developer'), Type.Literal('analyst'), Type.Literal('support')], {
  description: 'owner (everything), developer (keys, webhooks, events, test data; no payouts), analyst (read only), support (payments and refunds; no keys)',
});

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const TokenParams = Type.Object({ token: Type.String({ maxLength: 200, description: 'The token of the invitation link (`inv_…`)' }) });

export const Member = Type.Object({
  id: Type.String({ description: '`du_…`' }),
  object: Type.Literal('dashboard_user'),
  email: Type.String(),
  role: RoleSchema,
  createdAt: Timestamp,
});

export const Invitation = Type.Object({
  id: Type.String({ description: '`dinv_…`' }),
  object: Type.Literal('dashboard_invitation'),
  email: Type.String(),
  role: RoleSchema,
  invitedBy: Type.String({ description: 'The e-mail of the member who sent it' }),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});

export const Team = Type.Object({
  object: Type.Literal('dashboard_team'),
  members: Type.Array(Member, { description: 'Oldest first' }),
  invitations: Type.Array(Invitation, { description: 'Pending invitations (not used, revoked or expired), newest first' }),
});

export const InviteBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254, description: 'Who to invite: an address without a dashboard account' }), role: RoleSchema },
  { additionalProperties: false },
);

export const RoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });

export const InvitationPreview = Type.Object({
  object: Type.Literal('dashboard_invitation_preview'),
  email: Type.String(),
  role: RoleSchema,
  merchant: Type.Object({ name: Type.String() }),
  expiresAt: Timestamp,
});

export const AcceptInvitationBody = Type.Object(
  {
    password: Type.String({ minLength: 1, maxLength: 1024, description: 'At least 8 characters; very common passwords are refused (400 `password_weak`).' }),
    language: Type.Optional(Type.Union([Language, Type.Null()], { description: 'The dashboard language the new member chose' })),
  },
  { additionalProperties: false },
);
