import { Type } from 'typebox';

/** Schemas of the dashboard's account security routes (/dashboard/api/login/totp, /account/…, /password-reset). */

const Timestamp = Type.String({ format: 'date-time' });
const NewPassword = Type.String({
  maxLength: 1024,
  description: 'At least 8 characters; very common passwords and simple sequences are refused (400 `password_weak`).',
});
const Code = Type.String({
  minLength: 1,
  maxLength: 32,
  description:
    'The 6-digit code of the authenticator app (one 30-second step either side is accepted, each code once), or an unused recovery code (`xxxxx-xxxxx`).',
});

export const LoginChallenge = Type.Object({
  object: Type.Literal('dashboard_login_challenge'),
  mfaRequired: Type.Literal(true),
  challenge: Type.String({ description: 'Send it with a code to POST /dashboard/api/login/totp within 5 minutes; no session exists before.' }),
  expiresAt: Timestamp,
});

export const SecondStepBody = Type.Object({ challenge: Type.String({ minLength: 1, maxLength: 100 }), code: Code }, { additionalProperties: false });

export const ProofBody = Type.Object(
  {
    code: Type.Optional(Code),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'The current password, instead of a code.' })),
  },
  { additionalProperties: false, description: 'Either `code` or `password`.' },
);

export const ConfirmTotpBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 16, description: 'The current 6-digit code of the app just enrolled.' }) },
  { additionalProperties: false },
);

export const AccountSecurity = Type.Object({
  object: Type.Literal('dashboard_account_security'),
  totpEnabled: Type.Boolean(),
  totpEnabledAt: Type.Union([Timestamp, Type.Null()]),
  recoveryCodesLeft: Type.Integer({ description: 'Unused recovery codes.' }),
});

export const TotpEnrolment = Type.Object({
  object: Type.Literal('dashboard_totp_enrolment'),
  secret: Type.String({ description: 'Base32, for typing into an app that cannot scan.' }),
  uri: Type.String({ description: 'The otpauth:// URI (RFC 6238: SHA-1, 6 digits, 30 seconds).' }),
  qrCode: Type.String({ description: 'The URI as a QR code: an SVG `data:` URL for an <img>.' }),
});

export const RecoveryCodes = Type.Object({
  object: Type.Literal('dashboard_recovery_codes'),
  recoveryCodes: Type.Array(Type.String(), { description: 'Ten codes, each usable once instead of a TOTP code. Shown this once: only their hashes are kept.' }),
});

export const ChangePasswordBody = Type.Object(
  { currentPassword: Type.String({ minLength: 1, maxLength: 1024 }), newPassword: NewPassword },
  { additionalProperties: false },
);

export const ResetRequestBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) }, { additionalProperties: false });
export const ResetRequested = Type.Object({
  object: Type.Literal('dashboard_password_reset_request'),
  expiresInSeconds: Type.Integer({ description: 'How long the e-mailed link works (once).' }),
});
export const ResetCompleteBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 100 }), newPassword: NewPassword },
  { additionalProperties: false },
);

export const AccountSessionList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      object: Type.Literal('dashboard_session_entry'),
      id: Type.String(),
      createdAt: Timestamp,
      lastSeenAt: Timestamp,
      address: Type.Union([Type.String(), Type.Null()], { description: 'The client address of the sign-in.' }),
      userAgent: Type.Union([Type.String(), Type.Null()], { description: 'The browser of the sign-in (200 characters at most).' }),
      current: Type.Boolean({ description: 'The session making this request.' }),
    }),
  ),
  hasMore: Type.Boolean(),
});
export const SessionIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const SessionsRevoked = Type.Object({ object: Type.Literal('dashboard_sessions_revoked'), revoked: Type.Integer() });
