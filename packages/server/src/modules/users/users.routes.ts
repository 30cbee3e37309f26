import { clientAddress } from '../../platform/http/rate-limit.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { assertTestMode } from '../../platform/http/auth.ts';
import accountPage from './users.account.page.ts';
import { requestedLanguages } from '../../platform/i18n.ts';
import {
  AuthResponse,
  ChangePasswordBody,
  ListUsersQuery,
  PasswordResetBody,
  PasswordResetConfirmBody,
  PasswordResetSent,
  UserIdParams,
  UserList,
  CreateTestUserBody,
  Jwks,
  LoginBody,
  PhoneVerification,
  RegisterBody,
  ResendVerificationBody,
  TestUser,
  UpdateMeBody,
  User,
  VerifyPhoneBody,
} from './users.schema.ts';

const tags = ['users'];
const apiKeyOnly = [{ apiKey: [] }];

/** End users: registration, phone verification, sign-in and the keys that verify access tokens (docs/spec/keys-and-modes.md, docs/spec/endpoints.md). */
export default async function usersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const users = app.services.users;
  // The customer's own account page: its own plugin, the only one that reads HTML forms.
  await app.register(accountPage);

  app.post(
    '/users',
    {
      config: { auth: 'pk' },
      schema: {
        tags,
        summary: 'Register a customer',
        description: [
          'A customer is one account per mode and phone number across every merchant of this gateway (one password, one wallet). A new number becomes a customer linked to this merchant and gets a 6-digit code by SMS to verify the phone (valid 10 minutes; in test mode it lands in `GET /test/messages`). A number registered but never verified takes this password and gets a new code. A number that already has a verified account is left as it is, and its owner is told by SMS.',
          'The answer is the same 202 for all three, and names no customer: nothing here tells whether a number has an account. Sends count against the number, known or not (one per 30 s, 5 per 15 min: 429 `otp_rate_limited`).',
          "Language: `language` is saved on the customer; without it, the first French or English tag of `Accept-Language`. Their SMS and e-mail are in it from then on (change it with `PATCH /users/me`); a customer without one gets the request's `Accept-Language`, else the merchant's default language, else French.",
          "Errors: `phone_invalid` (not a mobile number of its country: one typed without a country code is read in the merchant's country), `password_weak` (under 8 characters, very common, a sequence, or the phone number), `validation_error` (e-mail).",
        ].join('\n\n'),
        security: apiKeyOnly,
        body: RegisterBody,
        response: { 202: PhoneVerification },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await users.register(request.merchant, request.body, requestedLanguages(request.headers['accept-language']))),
  );

  app.post(
    '/users/verify-phone',
    {
      config: { auth: 'pk' },
      schema: {
        tags,
        summary: "Verify a registered user's phone",
        description: [
          'Send `phoneNumber` (or `userId`) and the `code` received by SMS (`otp` is accepted as its name too). The right code marks the phone verified and answers the customer, who just proved the number is theirs.',
          'Tries are counted per number whether or not it has an account: a wrong or expired code, an unknown number and an already verified one all answer 400 `otp_incorrect` with `attemptsRemaining`, then 429 `otp_attempts_exceeded` until a new code is sent. Verifying an already verified phone returns no customer data.',
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
          "Voids the previous code and sends a new one when the number awaits verification. The same 202 for any number (nothing is sent to an unknown or already verified one). At most one per 30 seconds and 5 per 15 minutes per number (429 `otp_rate_limited` with `Retry-After`). Named by `userId`, the answer is the same for every id, known or not, and carries no number (`phoneNumber: null`); the 429 then counts per id, and the number's own limit holds the SMS back silently.",
        security: apiKeyOnly,
        body: ResendVerificationBody,
        response: { 202: PhoneVerification },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await users.resendVerification(request.merchant, request.body, requestedLanguages(request.headers['accept-language']))),
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
          'Errors: `invalid_credentials` (401, the same answer for an unknown phone number and a wrong password), `login_locked` (429 with `Retry-After`: 5 failed sign-ins for one phone number from one client address within 15 minutes lock that address out; 100 from all addresses within 24 hours lock the number. A locked-out customer resets the password with `POST /auth/password-reset` and `/auth/password-reset/confirm`, which lifts both locks for the address it is confirmed from), `phone_not_verified` (403, right password but the phone was never verified), `phone_invalid`.',
        ].join('\n\n'),
        security: apiKeyOnly,
        body: LoginBody,
        response: { 200: AuthResponse },
      },
    },
    async (request) => users.login(request.merchant, request.body, clientAddress(request)),
  );

  app.post(
    '/auth/password-reset',
    {
      config: { auth: 'pk' },
      schema: {
        tags,
        summary: 'Send a password reset code',
        description:
          'Sends a 6-digit code by SMS to the customer with this number (valid 10 minutes, 5 tries; one send per 30 s and 5 per 15 min per number: 429 `otp_rate_limited`). The same 202 for a number without an account, to which nothing is sent.',
        security: apiKeyOnly,
        body: PasswordResetBody,
        response: { 202: PasswordResetSent },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await users.requestPasswordReset(request.merchant, request.body, requestedLanguages(request.headers['accept-language']))),
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      config: { auth: 'pk' },
      schema: {
        tags,
        summary: 'Set a new password with a reset code',
        description: [
          '204 once the new password is set. Every access token issued before is refused from then on, in every process. It also lifts the sign-in lockout of the number, and that of the client address the reset is confirmed from: the way out for a locked-out customer.',
          'Errors: `password_weak` (400, checked first), `otp_incorrect` (400 with `attemptsRemaining`: a wrong or expired code, or a number without an account), `otp_attempts_exceeded` (429 after 5 wrong codes, until a new code is sent).',
        ].join('\n\n'),
        security: apiKeyOnly,
        body: PasswordResetConfirmBody,
        response: { 204: Type.Null({ description: 'The new password is set' }) },
      },
    },
    async (request, reply) => {
      await users.confirmPasswordReset(request.merchant, request.body, clientAddress(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/users/me/password',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "Change the signed-in customer's password",
        description:
          '204 once changed. Every access token issued before, this one included, is refused from then on: sign in again. Errors: `invalid_credentials` (401, the current password is wrong; counts toward the sign-in lockout), `password_weak`, `login_locked`.',
        security: [{ apiKey: [], accessToken: [] }],
        body: ChangePasswordBody,
        response: { 204: Type.Null({ description: 'The password is changed' }) },
      },
    },
    async (request, reply) => {
      await users.changePassword(request.merchant, request.user, request.body, clientAddress(request));
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/users/me',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "Change the signed-in customer's language",
        description:
          "`language`: `fr` or `en` (or a tag of either, e.g. `fr-CM`). The customer's SMS and e-mail are in it from now on, at every merchant, and a checkout shows its texts in it after sign-in. Answers the customer.",
        security: [{ apiKey: [], accessToken: [] }],
        body: UpdateMeBody,
        response: { 200: User },
      },
    },
    async (request) => users.setLanguage(request.merchant, request.user, request.body.language),
  );

  app.get(
    '/users',
    {
      config: { auth: 'sk', access: 'customers:read' },
      schema: {
        tags,
        summary: "List this merchant's customers",
        description:
          'Customers linked to this merchant (they registered through its key, were made by its test helpers, or attempted one of its payments), newest first. No wallet balance: only the customer sees it.',
        security: [{ apiKey: [], secretKey: [] }],
        querystring: ListUsersQuery,
        response: { 200: UserList },
      },
    },
    async (request) => users.list(request.merchant, request.query),
  );

  app.get(
    '/users/:id',
    {
      config: { auth: 'sk', access: 'customers:read' },
      schema: {
        tags,
        summary: 'Retrieve a customer',
        description: '404 `not_found` unless the customer is linked to this merchant (as for GET /users).',
        security: [{ apiKey: [], secretKey: [] }],
        params: UserIdParams,
        response: { 200: User },
      },
    },
    async (request) => users.retrieve(request.merchant, request.params.id),
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
      config: { auth: 'sk', access: 'customers:write' },
      schema: {
        tags: ['test helpers'],
        summary: 'Create a verified test user with a funded wallet',
        description:
          'Test mode only (404 `not_found` with live keys). The customer is linked to this merchant and its phone is already verified; `balance` (default none) in `currency` (default XAF) is moved into the wallet from the test funding account. Errors: `phone_invalid`, `already_exists` (409: a customer of test mode has this number), `amount_invalid`, `currency_unsupported`.',
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
