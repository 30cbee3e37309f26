import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { assertTestMode } from '../../platform/http/auth.ts';
import {
  AuthResponse,
  CreateTestUserBody,
  Jwks,
  LoginBody,
  PhoneVerification,
  RegisterBody,
  ResendVerificationBody,
  TestUser,
  User,
  VerifyPhoneBody,
} from './users.schema.ts';

const tags = ['users'];
const apiKeyOnly = [{ apiKey: [] }];

/** End users: registration, phone verification, sign-in and the keys that verify access tokens (contract §1, §2). */
export default async function usersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const users = app.services.users;

  app.post(
    '/users',
    {
      config: { auth: 'pk' },
      schema: {
        tags,
        summary: 'Register a user',
        description: [
          'Creates a user of this merchant and mode and sends a 6-digit code by SMS to verify the phone (valid 10 minutes; in test mode it lands in `GET /test/messages`). The user can sign in once the phone is verified.',
          'Errors: `phone_invalid` (not E.164, or not a possible number for its country), `password_weak` (under 8 characters, very common, a sequence, or the phone number), `already_exists` (409: this phone number is registered with this merchant and mode), `validation_error` (e-mail).',
        ].join('\n\n'),
        security: apiKeyOnly,
        body: RegisterBody,
        response: { 201: User },
      },
    },
    async (request, reply) => reply.code(201).send(await users.register(request.merchant, request.body)),
  );

  app.post(
    '/users/verify-phone',
    {
      config: { auth: 'pk' },
      schema: {
        tags,
        summary: "Verify a registered user's phone",
        description: [
          'Send `userId` (or `phoneNumber`) and the `code` received by SMS (`otp` is accepted as its name too). Verifying an already verified phone answers the user again.',
          'Errors: `otp_incorrect` (400, with `attemptsRemaining`), `otp_expired` (400: ask for a new code), `otp_attempts_exceeded` (429 after 5 wrong codes, until a new code is sent), `not_found`.',
        ].join('\n\n'),
        security: apiKeyOnly,
        body: VerifyPhoneBody,
        response: { 200: User },
      },
    },
    async (request) => users.verifyPhone(request.merchant, request.body),
  );

  app.post(
    '/users/verify-phone/resend',
    {
      config: { auth: 'pk' },
      schema: {
        tags,
        summary: 'Send a new phone verification code',
        description:
          'Voids the previous code and sends a new one. At most one per 30 seconds and 5 per 15 minutes (429 `otp_rate_limited` with `Retry-After`). A verified phone answers 409 `phone_already_verified`.',
        security: apiKeyOnly,
        body: ResendVerificationBody,
        response: { 202: PhoneVerification },
      },
    },
    async (request, reply) => reply.code(202).send(await users.resendVerification(request.merchant, request.body)),
  );

  app.post(
    '/auth/web',
    {
      config: { auth: 'pk' },
      schema: {
        tags,
        summary: 'Authenticate a user',
        description: [
          'Phone number and password → a 15-minute access token (JWT, EdDSA/Ed25519, `kid` header; claims `sub` = user id, `aud` = merchant id, `mode`, `roles`). Verify it with the keys at `/.well-known/jwks.json`. The token works only with API keys of the same merchant and mode.',
          'Errors: `invalid_credentials` (401, the same answer for an unknown phone number and a wrong password), `login_locked` (429 with `Retry-After` after 5 failures for one phone number within 15 minutes), `phone_not_verified` (403, right password but the phone was never verified), `phone_invalid`.',
        ].join('\n\n'),
        security: apiKeyOnly,
        body: LoginBody,
        response: { 200: AuthResponse },
      },
    },
    async (request) => users.login(request.merchant, request.body),
  );

  app.get(
    '/.well-known/jwks.json',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Public keys of user access tokens (JWK Set)',
        description: 'Ed25519 keys (`kty: OKP`). After a rotation the previous key stays here until every token it signed has expired.',
        response: { 200: Jwks },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return users.jwks();
    },
  );

  app.post(
    '/test/users',
    {
      config: { auth: 'sk' },
      schema: {
        tags: ['test helpers'],
        summary: 'Create a verified test user with a funded wallet',
        description:
          'Test mode only (404 `not_found` with live keys). The phone is already verified; `balance` (default none) in `currency` (default XAF) is moved into the wallet from the test funding account. Errors: `phone_invalid`, `already_exists`, `amount_invalid`, `currency_unsupported`.',
        security: [{ apiKey: [], secretKey: [] }],
        body: CreateTestUserBody,
        response: { 201: TestUser },
      },
    },
    async (request, reply) => {
      assertTestMode(request);
      return reply.code(201).send(await users.createTestUser(request.merchant, request.body));
    },
  );
}
