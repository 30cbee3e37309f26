import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientAddress } from '../../platform/http/rate-limit.ts';
import { need, open, tags } from './operators.http.ts';
import { ConfirmTotpBody, EmptyBody, OperatorLoginBody, OperatorSession, OperatorTotpEnrolment } from './operators.schema.ts';
import type { OperatorClient } from './operators.sessions.ts';

function clientOf(req: FastifyRequest): OperatorClient {
  const agent = req.headers['user-agent'];
  return { address: clientAddress(req), userAgent: typeof agent === 'string' ? agent : undefined };
}

/** Sign-in, the session, sign-out and TOTP enrolment: the only routes a session that has not enrolled yet may call. */
export async function operatorSessionRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const operators = app.services.operators;

  app.post(
    '/login',
    {
      config: open,
      schema: {
        tags,
        summary: 'Sign in to the operator console',
        description:
          'E-mail, password and, once enrolled, the current TOTP `code`. Sets the session cookie. An operator without TOTP gets a session that can only enrol (`totpEnrolmentRequired`). Wrong e-mail or password: 401 `invalid_credentials`; no code: 403 `totp_code_required`; a wrong one: 401 `totp_code_invalid`. 5 failures within 15 minutes: 429 `login_locked`. More than `CAISSE_RATE_LIMIT_IP` (20) sign-ins a minute from one address: 429 `rate_limited`.',
        body: OperatorLoginBody,
        response: { 200: OperatorSession },
      },
    },
    async (req, reply) => {
      const signedIn = await operators.login(req.body, clientOf(req));
      reply.header('set-cookie', operators.staff.issueCookie(signedIn.sessionToken, signedIn.absoluteExpiresAt));
      return signedIn.session;
    },
  );

  app.get(
    '/session',
    { config: need('account'), schema: { tags, summary: 'The signed-in operator, with the CSRF token', response: { 200: OperatorSession } } },
    async (req) => operators.sessionView(req.operatorSession, req.operatorToken),
  );

  app.post(
    '/logout',
    { config: need('account'), schema: { tags, summary: 'Sign out: ends the session and clears the cookie', body: EmptyBody } },
    async (req, reply) => {
      await operators.logout(req.operatorSession);
      reply.header('set-cookie', operators.staff.cookies.clear());
      return reply.code(204).send();
    },
  );

  app.post(
    '/totp',
    {
      config: need('account'),
      schema: {
        tags,
        summary: 'Start TOTP enrolment: a new secret and its otpauth:// URI, shown once',
        body: EmptyBody,
        response: { 200: OperatorTotpEnrolment },
      },
    },
    async (req) => operators.startTotp(req.operatorSession),
  );

  app.post(
    '/totp/confirm',
    {
      config: need('account'),
      schema: {
        tags,
        summary: 'Finish TOTP enrolment with a current code: the session is then fully signed in',
        body: ConfirmTotpBody,
        response: { 200: OperatorSession },
      },
    },
    async (req) => operators.sessionView(await operators.confirmTotp(req.operatorSession, req.body.code), req.operatorToken),
  );
}
