import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { MessageList, OperatorMessagesQuery } from '../messaging/index.ts';
import { ApproveBody, BusinessProfile, RejectBody, SubmittedProfileList } from '../onboarding/index.ts';
import { need, tags } from './operators.http.ts';
import { MerchantIdParams } from './operators.schema.ts';

/** The review of business profiles, and the outbox of the e-mails that prove an address (read while reviewing sign-ups). */
export async function operatorProfilesRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const operators = app.services.operators;

  app.get(
    '/profiles',
    {
      config: need('merchants:review'),
      schema: { tags, summary: 'Business profiles waiting for review, oldest submission first', response: { 200: SubmittedProfileList } },
    },
    async () => operators.submittedProfiles(),
  );

  app.get(
    '/merchants/:id/profile',
    {
      config: need('merchants:review'),
      schema: { tags, summary: "A merchant's business profile and its review state", params: MerchantIdParams, response: { 200: BusinessProfile } },
    },
    async (req) => operators.profile(req.params.id),
  );

  app.get(
    '/merchants/:id/profile/document',
    {
      config: need('merchants:review'),
      schema: {
        tags,
        summary: "The owner's identity document, decrypted, to the signed-in operator only (never cached, never public)",
        params: MerchantIdParams,
      },
    },
    async (req, reply) => {
      const doc = await operators.document(req.params.id);
      const extension = doc.contentType === 'application/pdf' ? 'pdf' : doc.contentType === 'image/png' ? 'png' : 'jpg';
      return reply
        .type(doc.contentType)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `inline; filename="identity-${req.params.id}.${extension}"`)
        .send(doc.bytes);
    },
  );

  app.post(
    '/merchants/:id/profile/approve',
    {
      config: need('merchants:review'),
      schema: {
        tags,
        summary: 'Approve a submitted profile: live keys and live calls work at once; the merchant is told by e-mail',
        description: 'A profile not submitted (or reviewed already, as by another operator at the same moment): 409 `profile_state_invalid`.',
        params: MerchantIdParams,
        body: ApproveBody,
        response: { 200: BusinessProfile },
      },
    },
    async (req) => operators.review(req.operatorSession, req.params.id, true, req.body.reason),
  );

  app.post(
    '/merchants/:id/profile/reject',
    {
      config: need('merchants:review'),
      schema: {
        tags,
        summary: 'Reject a submitted profile with a reason, told to the merchant by e-mail; it may change the profile and submit again',
        params: MerchantIdParams,
        body: RejectBody,
        response: { 200: BusinessProfile },
      },
    },
    async (req) => operators.review(req.operatorSession, req.params.id, false, req.body.reason),
  );

  app.get(
    '/messages',
    {
      config: need('merchants:review'),
      schema: {
        tags,
        summary: 'The operator outbox: e-mails that prove control of an address, kept because no mail transport is configured',
        description:
          "Sign-up verification links, password resets, team invitations and the notices of a sign-up tried with an existing address, newest first, when no SMTP server is configured (development; production only with `CAISSE_LIVE_OUTBOX=allow`, and then without the link). A merchant never reads these: its test outbox keeps only test mode's messages. The CLI reads the same list: `npx caisse messages list`.",
        querystring: OperatorMessagesQuery,
        response: { 200: MessageList },
      },
    },
    async (req) => app.services.messaging.listForOperators(req.query),
  );
}
