import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { languageToSave, requestedLanguages } from '../../platform/i18n.ts';
import { emailLinkBase } from '../../platform/http/public-url.ts';
import { Type } from 'typebox';
import { dashboardTags as tags, sessionRoute } from '../../platform/http/dashboard-api.ts';
import { DOCUMENT_BODY_LIMIT } from './onboarding.documents.ts';
import { clientAddress } from '../../platform/http/rate-limit.ts';
import { VERIFICATION_TTL_MS } from './onboarding.service.ts';
import {
  BusinessProfile,
  EmailVerified,
  ProfileDetailsBody,
  ResendVerificationBody,
  ShortNameBody,
  SignUpRequested,
  SignUpBody,
  VerificationResent,
  VerifyEmailBody,
} from './onboarding.schema.ts';

const open = { auth: 'none' as const, csp: 'api' as const, dashboard: 'public' as const };
const EmptyBody = Type.Object({}, { additionalProperties: false });

/**
 * Sign-up (public), e-mail verification (public, by the link's token) and the business profile
 * an operator reviews before live mode opens (docs/decisions/0037-merchant-sign-up.md).
 */
export async function onboardingDashboardRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const onboarding = app.services.onboarding;

  app.post(
    '/sign-up',
    {
      config: open,
      schema: {
        tags,
        summary: 'Ask to sign a business up: a verification link goes to the e-mail address, and the account is made when it is opened',
        description:
          'Always 202 with the same body for a new address and for one with a dashboard account already, so the answer tells nobody who has an account. A new address gets the verification link (7 days); nothing exists until it is opened (POST /dashboard/api/sign-up/verify makes the merchant, not approved for live mode, and its owner\u2019s account; the owner then signs in, and test mode opens at once). An address with an account gets an e-mail saying someone tried to sign up with it, and nothing changes. A second sign-up of the same address replaces the first (its link stops working). Without SMTP (development) these e-mails go to the operator outbox (`delivery`: `operator_outbox`; the operator console and `npx caisse messages list` read it), never to a merchant. The password: 8 characters at least, not a common one (400 `password_weak`, whoever owns the address). More than `CAISSE_RATE_LIMIT_IP` (20) sign-ups a minute from one client address, or 3 an hour with one e-mail address: 429 `rate_limited`.',
        body: SignUpBody,
        response: { 202: SignUpRequested },
      },
    },
    async (req, reply) => {
      const language = req.body.language ?? languageToSave(undefined, requestedLanguages(req.headers['accept-language'])) ?? 'fr';
      const done = await onboarding.signUp({ ...req.body, language }, emailLinkBase(req.server.deps.config, req.server.server));
      return reply.code(202).send(done);
    },
  );

  app.post(
    '/sign-up/verify',
    {
      config: open,
      schema: {
        tags,
        summary: 'Verify the e-mail address with the token of the link sent at sign-up: this makes the merchant and its owner\u2019s account',
        description:
          'The owner signs in after (POST /dashboard/api/login) with the password given at sign-up. Unknown or expired (7 days): 400 `verification_link_invalid`; so is the link of an address that got a dashboard account meanwhile. A link used again answers the same.',
        body: VerifyEmailBody,
        response: { 200: EmailVerified },
      },
    },
    async (req) => onboarding.verifyEmail(req.body.token),
  );

  app.post(
    '/sign-up/resend',
    {
      config: open,
      schema: {
        tags,
        summary: 'Send a fresh e-mail verification link to a sign-up not verified yet',
        description:
          'Always 202 with the same body, whether a sign-up waits on this e-mail or not. The new link works for 7 days and the one sent before stops working; without SMTP it goes to the operator outbox, as at sign-up. 3 requests an hour per e-mail address and 10 per client address, then 429 `rate_limited`.',
        body: ResendVerificationBody,
        response: { 202: VerificationResent },
      },
    },
    async (req, reply) => {
      await onboarding.resendVerification(req.body.email, { address: clientAddress(req) }, emailLinkBase(req.server.deps.config, req.server.server));
      return reply.code(202).send({ object: 'email_verification_request' as const, expiresInSeconds: VERIFICATION_TTL_MS / 1000 });
    },
  );

  app.get(
    '/profile',
    {
      config: sessionRoute('settings:read'),
      schema: { tags, summary: 'The business profile and its review state', response: { 200: BusinessProfile } },
    },
    async (req) => onboarding.profile(req.dashboardUser.merchantId),
  );

  app.patch(
    '/profile',
    {
      config: sessionRoute('settings:write'),
      schema: {
        tags,
        summary: 'Change the business profile (before submission, or after a rejection)',
        description: 'While it is reviewed or once approved: 409 `profile_state_invalid`.',
        body: ProfileDetailsBody,
        response: { 200: BusinessProfile },
      },
    },
    async (req) => onboarding.updateProfile(req.dashboardUser.merchantId, req.body),
  );

  app.put(
    '/profile/short-name',
    {
      config: sessionRoute('settings:write'),
      schema: {
        tags,
        summary: 'Set the payer-facing short name, or back to the default with null',
        description:
          'The name providers that take one per request show the payer: the phone prompt’s text, the merchant on the provider’s payment page (docs/spec/providers.md says which). 4 to 22 ASCII letters, digits and spaces, the strictest provider’s rule (400 `short_name_invalid` otherwise: no accents, no punctuation). Without a choice: the trade name made to fit (accents stripped, other characters dropped, cut to 22), else the merchant’s name, else "Caisse". A provider that shows its own account’s name instead does not use it. Changes in any state of the profile; payments already started keep the name they started with.',
        body: ShortNameBody,
        response: { 200: BusinessProfile },
      },
    },
    async (req) => onboarding.setShortName(req.dashboardUser.merchantId, req.body.shortName),
  );

  app.post(
    '/profile/submit',
    {
      config: sessionRoute('settings:write'),
      schema: {
        tags,
        summary: 'Submit the business profile for review',
        description:
          'Needs the e-mail verified (403 `email_not_verified`), every field but the trade name and the identity document (400 `validation_error` naming what is missing).',
        body: EmptyBody,
        response: { 200: BusinessProfile },
      },
    },
    async (req) => onboarding.submit(req.dashboardUser.merchantId),
  );

  // The upload takes the file itself as its body, whatever its declared type: the content decides.
  await app.register(async (upload) => {
    upload.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: DOCUMENT_BODY_LIMIT }, (_req, body, done) => done(null, body));
    upload.withTypeProvider<TypeBoxTypeProvider>().put(
      '/profile/document',
      {
        bodyLimit: DOCUMENT_BODY_LIMIT,
        config: sessionRoute('settings:write'),
        schema: {
          tags,
          summary: "Upload the owner's identity document (the file as the body, with its Content-Type)",
          description:
            'A PDF, JPEG or PNG of at most 5 MB, its type read from its first bytes and the whole file read as that type (a PDF with a page that ends at its `%%EOF`, an image that decodes): another type, a Content-Type that does not match the content, a file that does not read, one that also holds HTML (a polyglot), a PDF with JavaScript or a launch action, an image over 50 megapixels, or a larger file: 400 `document_invalid`, and nothing is stored. Stored encrypted; replaces the one before.',
          response: { 200: BusinessProfile },
        },
      },
      async (req) => onboarding.uploadDocument(req.dashboardUser.merchantId, req.body, req.headers['content-type']),
    );
  });
}
