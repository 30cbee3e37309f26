import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientAddress } from '../../platform/http/rate-limit.ts';
import { emailLinkBase } from '../../platform/http/public-url.ts';
import { requestedLanguages } from '../../platform/i18n.ts';
import { RESET_LINK_MS, type Client } from './dashboard.account.ts';
import {
  AccountSecurity,
  AccountSessionList,
  ChangePasswordBody,
  ConfirmTotpBody,
  ProofBody,
  RecoveryCodes,
  ResetCompleteBody,
  ResetRequestBody,
  ResetRequested,
  SecondStepBody,
  SessionIdParams,
  SessionsRevoked,
  TotpEnrolment,
} from './dashboard.account.schema.ts';
import { EmptyBody, Session } from './dashboard.schema.ts';

const tags = ['dashboard (internal)'];
/** A signed-in user's own account: every role may (dashboard.roles.ts). */
const account = { auth: 'none' as const, csp: 'api' as const, permission: 'account' as const };
const open = { auth: 'none' as const, csp: 'api' as const, dashboard: 'public' as const };

/** Who is asking: address, browser and languages, with the base of e-mailed links (not theirs to choose). */
export function clientOf(req: FastifyRequest): Client {
  const agent = req.headers['user-agent'];
  return {
    address: clientAddress(req),
    userAgent: typeof agent === 'string' ? agent : undefined,
    requested: requestedLanguages(req.headers['accept-language']),
    linkBase: emailLinkBase(req.server.deps.config, req.server.server),
  };
}

/**
 * Account security routes of the dashboard API: the second sign-in step, password change and
 * reset, two-factor enrolment and recovery codes, the user's own sessions. Registered inside the
 * dashboard API, so its session, CSRF and same-site rules apply.
 */
export default async function accountRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const dashboard = app.services.dashboard;
  const security = dashboard.account;
  const me = (req: FastifyRequest) => ({
    userId: req.dashboardSession.userId,
    email: req.dashboardSession.email.toLowerCase(),
    tokenHash: req.dashboardSession.tokenHash,
  });

  app.post(
    '/login/totp',
    {
      config: open,
      schema: {
        tags,
        summary: 'The second step of a sign-in with two-factor: the challenge and a code, then the session cookie',
        description:
          'The `challenge` of POST /dashboard/api/login (5 minutes, once) with the current TOTP code (±1 step of 30 seconds) or an unused recovery code. A wrong code: 401 `totp_code_invalid`; a code already used: 401 `totp_code_reused`; an expired or used challenge: 401 `login_challenge_invalid`. Wrong codes count in the sign-in lockout with wrong passwords (429 `login_locked`).',
        body: SecondStepBody,
        response: { 200: Session },
      },
    },
    async (req, reply) => {
      const { sessionToken, session: view, absoluteExpiresAt } = await dashboard.loginSecondStep(req.body, clientOf(req));
      reply.header('set-cookie', dashboard.staff.issueCookie(sessionToken, absoluteExpiresAt));
      return view;
    },
  );

  app.post(
    '/password-reset',
    {
      config: open,
      schema: {
        tags,
        summary: 'Ask for a password reset link by e-mail',
        description:
          'Always 202 with the same body, whether an account has this e-mail or not. The account gets an e-mail in its language with a link `/dashboard/reset-password/<token>` that works once, for one hour. 3 requests an hour per e-mail address and 10 per client address, then 429 `rate_limited`.',
        body: ResetRequestBody,
        response: { 202: ResetRequested },
      },
    },
    async (req, reply) => {
      await security.requestPasswordReset(req.body.email, clientOf(req));
      return reply.code(202).send({ object: 'dashboard_password_reset_request' as const, expiresInSeconds: RESET_LINK_MS / 1000 });
    },
  );

  app.post(
    '/password-reset/complete',
    {
      config: open,
      schema: {
        tags,
        summary: 'Set a new password with the token of a reset link',
        description:
          'Ends every session of the user and lifts the sign-in lockout. A used, expired or unknown token: 400 `reset_token_invalid` (the detail says which).',
        body: ResetCompleteBody,
      },
    },
    async (req, reply) => {
      await security.completePasswordReset(req.body, clientOf(req));
      return reply.code(204).send();
    },
  );

  app.post(
    '/account/password',
    {
      config: account,
      schema: {
        tags,
        summary: 'Change the password: the current one, then the new one; the other sessions end',
        description:
          'A wrong current password: 401 `invalid_credentials`, counted in the sign-in lockout. This session stays; every other session of the user ends.',
        body: ChangePasswordBody,
      },
    },
    async (req, reply) => {
      await security.changePassword(me(req), req.body, clientOf(req).address);
      return reply.code(204).send();
    },
  );

  app.get(
    '/account/security',
    { config: account, schema: { tags, summary: 'Two-factor sign-in state and recovery codes left', response: { 200: AccountSecurity } } },
    async (req) => security.security(req.dashboardSession.userId),
  );

  app.post(
    '/account/totp',
    {
      config: account,
      schema: {
        tags,
        summary: 'Start two-factor enrolment: a new secret, its otpauth:// URI and QR code',
        description: 'Not enabled until POST /dashboard/api/account/totp/confirm with a valid code. Already enabled: 409 `totp_state_invalid`.',
        body: EmptyBody,
        response: { 200: TotpEnrolment },
      },
    },
    async (req) =>
      security.beginTotp({ userId: req.dashboardSession.userId, email: req.dashboardSession.email, merchantName: req.dashboardSession.merchantName }),
  );

  app.post(
    '/account/totp/confirm',
    {
      config: account,
      schema: {
        tags,
        summary: 'Finish enrolment with a current code: answers the 10 recovery codes, once',
        description: 'A wrong code: 400 `otp_incorrect` (enrolment stays pending).',
        body: ConfirmTotpBody,
        response: { 200: RecoveryCodes },
      },
    },
    async (req) => security.confirmTotp(me(req), req.body.code),
  );

  app.post(
    '/account/totp/disable',
    {
      config: account,
      schema: { tags, summary: 'Turn two-factor sign-in off (a current code or the password)', body: ProofBody },
    },
    async (req, reply) => {
      await security.disableTotp(me(req), req.body, clientOf(req).address);
      return reply.code(204).send();
    },
  );

  app.post(
    '/account/totp/recovery-codes',
    {
      config: account,
      schema: {
        tags,
        summary: 'New recovery codes (a current code or the password); the old ones stop working',
        body: ProofBody,
        response: { 200: RecoveryCodes },
      },
    },
    async (req) => security.regenerateRecoveryCodes(me(req), req.body, clientOf(req).address),
  );

  app.get(
    '/account/sessions',
    { config: account, schema: { tags, summary: "The user's own open sessions, newest first, the current one marked", response: { 200: AccountSessionList } } },
    async (req) => security.listSessions(me(req)),
  );

  app.delete(
    '/account/sessions/:id',
    { config: account, schema: { tags, summary: "End one of the user's sessions (the current one signs out)", params: SessionIdParams } },
    async (req, reply) => {
      const { current } = await security.revokeSession(me(req), req.params.id);
      if (current) reply.header('set-cookie', dashboard.staff.cookies.clear());
      return reply.code(204).send();
    },
  );

  app.post(
    '/account/sessions/revoke-others',
    { config: account, schema: { tags, summary: 'End every session of the user but this one', body: EmptyBody, response: { 200: SessionsRevoked } } },
    async (req) => security.revokeOtherSessions(me(req)),
  );
}
