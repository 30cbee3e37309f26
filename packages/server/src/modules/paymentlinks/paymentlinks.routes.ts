import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { asApiError } from '../../platform/http/errors.ts';
import { idempotentAnswer } from '../../platform/http/idempotency.ts';
import { IntentList } from '../intents/index.ts';
import { isPreviewRobot, previewPage, type Unavailable, unavailablePage } from './paymentlinks.page.ts';
import {
  CreatePaymentLinkBody,
  ListLinkPaymentsQuery,
  ListPaymentLinksQuery,
  PaymentLink,
  PaymentLinkIdParams,
  PaymentLinkList,
  UpdatePaymentLinkBody,
  VisitParams,
} from './paymentlinks.schema.ts';
import type { Visit } from './paymentlinks.service.ts';

const tags = ['payment links'];
const merchantSecurity = [{ apiKey: [], secretKey: [] }];
const idempotencyNote =
  'Send an `Idempotency-Key` header to make a retry safe: the same key and body within 24 hours replays this answer (`Idempotent-Replayed: true`).';

/**
 * The base of a link's `url`: CAISSE_PUBLIC_URL (the address customers reach), else how the
 * caller reached this server (through trusted proxies).
 */
export function originOf(request: FastifyRequest): string {
  return request.server.deps.config.publicUrl ?? `${request.protocol}://${request.host}`;
}

const STATUS: Record<Unavailable, number> = { not_found: 404, inactive: 410, rate_limited: 429 };

function sendPage(reply: FastifyReply, request: FastifyRequest, reason: Unavailable, opts: { merchantLanguage?: string; retryAfterSeconds?: number } = {}) {
  const html = unavailablePage(reason, { acceptLanguage: request.headers['accept-language'], ...opts });
  return reply.code(STATUS[reason]).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/** The page of a visit that does not go to the checkout, or nothing when it does. */
function answerVisit(reply: FastifyReply, request: FastifyRequest, visit: Visit) {
  switch (visit.kind) {
    case 'not_found':
      return sendPage(reply, request, 'not_found');
    case 'inactive':
      return sendPage(reply, request, 'inactive', { merchantLanguage: visit.merchantLanguage });
    case 'open':
      // A HEAD or a preview robot's GET of an active link: its preview, no intent.
      return reply
        .code(200)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(previewPage(visit, { acceptLanguage: request.headers['accept-language'], merchantLanguage: visit.merchantLanguage }));
    case 'checkout':
      return reply.code(303).header('cache-control', 'no-store').redirect(`/checkout/${visit.sessionToken}`, 303);
  }
}

/** Payment links (issue 22): the merchant's API with the secret key, and the public visit `/pay/{id}`. */
export default async function paymentLinksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const links = app.services.paymentLinks;

  app.post(
    '/payment-links',
    {
      config: { auth: 'sk', access: 'payment_links:write' },
      schema: {
        tags,
        summary: 'Create a payment link',
        description: [
          "A shareable `url` for an amount, currency and description. Each visit of the URL creates a PENDING payment intent of this merchant and mode (the key's) for that amount, with the link's metadata plus `payment_link` (the link's id), and sends the browser to the intent's hosted checkout page.",
          'Errors as for intents: `amount_invalid`, `currency_unsupported` (also a currency your intents may not be in: your country’s and those a route there takes), `metadata_invalid` (also for the reserved key `payment_link`, or more than 49 keys), `parameter_unknown`, `validation_error` (description missing, empty or over 1 000 characters).',
          idempotencyNote,
        ].join('\n\n'),
        security: merchantSecurity,
        body: CreatePaymentLinkBody,
        response: { 201: PaymentLink },
      },
    },
    async (request, reply) => reply.code(201).send(await links.create(request.merchant, request.body, originOf(request), idempotentAnswer(request))),
  );

  app.get(
    '/payment-links',
    {
      config: { auth: 'sk', access: 'payment_links:read' },
      schema: {
        tags,
        summary: 'List payment links',
        description: 'Newest first, `limit` per page (1–100, default 20). For the next page pass the last id as `startingAfter`.',
        security: merchantSecurity,
        querystring: ListPaymentLinksQuery,
        response: { 200: PaymentLinkList },
      },
    },
    async (request) => links.list(request.merchant, request.query, originOf(request)),
  );

  app.get(
    '/payment-links/:id',
    {
      config: { auth: 'sk', access: 'payment_links:read' },
      schema: {
        tags,
        summary: 'Retrieve a payment link',
        description: "Another merchant's or mode's id is 404 `not_found`.",
        security: merchantSecurity,
        params: PaymentLinkIdParams,
        response: { 200: PaymentLink },
      },
    },
    async (request) => links.retrieve(request.merchant, request.params.id, originOf(request)),
  );

  app.post(
    '/payment-links/:id',
    {
      config: { auth: 'sk', access: 'payment_links:write' },
      schema: {
        tags,
        summary: 'Deactivate or reactivate a payment link',
        description: [
          '`{"active": false}`: visits then answer a page saying the link is unavailable (410) and create nothing; intents it created already are not touched. `{"active": true}` opens it again. Amount, currency and description cannot change: create a new link.',
          idempotencyNote,
        ].join('\n\n'),
        security: merchantSecurity,
        params: PaymentLinkIdParams,
        body: UpdatePaymentLinkBody,
        response: { 200: PaymentLink },
      },
    },
    async (request) => links.update(request.merchant, request.params.id, request.body, originOf(request)),
  );

  app.get(
    '/payment-links/:id/payments',
    {
      config: { auth: 'sk', access: 'payment_links:read' },
      schema: {
        tags,
        summary: "List a payment link's payments",
        description:
          'The intents its visits created, newest first, in every state (a visit that was not paid leaves a PENDING intent that expires). `limit` 1–100 (default 20), `startingAfter` the last intent id of the previous page.',
        security: merchantSecurity,
        params: PaymentLinkIdParams,
        querystring: ListLinkPaymentsQuery,
        response: { 200: IntentList },
      },
    },
    async (request) => links.listPayments(request.merchant, request.params.id, request.query),
  );

  const page = { auth: 'none' as const, csp: 'page' as const };

  app.get(
    '/pay/:linkId',
    {
      config: page,
      // HEAD has its own route below: it must never create an intent.
      exposeHeadRoute: false,
      schema: {
        tags: ['hosted checkout'],
        summary: 'Open a payment link (a page for people)',
        description:
          'No key. Creates a payment intent for the link (its merchant, mode, amount, currency, description; metadata with `payment_link`) and answers **303** to the hosted checkout page `/checkout/{sessionToken}`. ' +
          "An unknown link answers an HTML page with status 404, an inactive one 410 (switched off, its merchant frozen, or a live link of a merchant not approved for live mode: no intent is created); in French or English (Accept-Language, else the merchant's language, else French). " +
          'Limited per client address (each visit creates an intent): over the limit, an HTML page with status 429 and `Retry-After`. `HEAD`, and a GET by a link-preview robot (chat apps, social networks, search engines, by User-Agent), create nothing: an open link answers 200 with a preview page (merchant, amount, description as Open Graph tags).',
        params: VisitParams,
      },
      // A person gets a page, never a problem+json (the rate limit's 429 included).
      errorHandler: (err: FastifyError, request, reply) => {
        const api = asApiError(err);
        if (api?.code !== 'rate_limited') throw err;
        const retryAfter = Number(api.options.headers?.['retry-after'] ?? 60);
        reply.header('retry-after', String(retryAfter));
        return sendPage(reply, request, 'rate_limited', { retryAfterSeconds: retryAfter });
      },
    },
    async (request, reply) => {
      const { linkId } = request.params;
      return answerVisit(reply, request, await (isPreviewRobot(request.headers['user-agent']) ? links.peek(linkId) : links.visit(linkId)));
    },
  );

  app.head('/pay/:linkId', { config: page, schema: { hide: true, params: VisitParams } }, async (request, reply) =>
    answerVisit(reply, request, await links.peek(request.params.linkId)),
  );
}
